import Foundation

/// Follows the first two fingers of a gesture and their span and angle; the base of pinch and rotation.
open class TwoFingerGestureRecognizer: GestureRecognizer {
    var pair: [Touch] = []
    var tracker = VelocityTracker()

    var span: Double {
        guard pair.count == 2 else { return 0 }
        return pair[0].windowLocation.distance(to: pair[1].windowLocation)
    }

    var angle: Double {
        guard pair.count == 2 else { return 0 }
        let v = pair[1].windowLocation - pair[0].windowLocation
        return atan2(v.y, v.x)
    }

    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            if pair.count >= 2 {
                ignore(touch, for: event)
            } else {
                pair.append(touch)
                guard pair.count == 2 else { continue }
                if state == .began || state == .changed {
                    pairRejoined(at: event.timestamp)
                } else {
                    pairFormed(at: event.timestamp)
                }
            }
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        guard pair.count == 2 else { return }
        pairMoved(at: event.timestamp)
    }

    /// The gesture ends when both fingers have lifted (UIKit's rule); with one finger it holds its value, and a
    /// finger coming back carries on from there.
    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        pair.removeAll { $0.phase.isFinished }
        guard pair.isEmpty else { return }
        switch state {
        case .began, .changed: state = .ended
        case .possible: state = .failed
        default: break
        }
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        pair.removeAll { $0.phase.isFinished }
        super.touchesCancelled(touches, with: event)
    }

    /// Two fingers are down and the gesture starts afresh.
    func pairFormed(at time: TimeInterval) {}
    /// A second finger came back during the gesture: carry on without a jump.
    func pairRejoined(at time: TimeInterval) {}
    func pairMoved(at time: TimeInterval) {}

    open override func reset() {
        super.reset()
        pair.removeAll()
        tracker.clear()
    }
}

/// Recognizes two fingers moving apart or together (continuous). `scale` is the ratio of the fingers' distance
/// to their distance when they went down; set it (usually to 1) after applying it.
open class PinchGestureRecognizer: TwoFingerGestureRecognizer {
    /// How much the fingers' distance must change before the pinch begins.
    public var minimumSpanChange: Double = 10

    private var baseSpan: Double = 1
    private var baseScale: Double = 1
    private var startSpan: Double = 0
    /// The fingers' distance when last known as a pair, so the scale survives a finger lifting.
    private var lastSpan: Double = 1

    /// The scale factor relative to the fingers' distance when they went down (or when it was last set).
    public var scale: Double {
        get { baseScale * (pair.count == 2 ? span : lastSpan) / baseSpan }
        set {
            guard newValue.isFinite else { return }
            baseScale = newValue
            baseSpan = Swift.max(pair.count == 2 ? span : lastSpan, 1)
        }
    }

    /// The scale factor's rate of change, per second. The fit runs over the fingers' distance, so setting `scale`
    /// rescales the velocity to the new reference (UIKit: setting the scale resets the velocity).
    public var velocity: Double { tracker.velocity(at: now).x * baseScale / baseSpan }

    override func pairFormed(at time: TimeInterval) {
        startSpan = span
        lastSpan = span
        baseSpan = Swift.max(startSpan, 1)
        baseScale = 1
        tracker.clear()
        tracker.add(Point(x: span, y: 0), at: time)
    }

    override func pairRejoined(at time: TimeInterval) {
        // Keep the scale reached with the old pair: the new distance stands for it.
        baseScale = baseScale * lastSpan / baseSpan
        baseSpan = Swift.max(span, 1)
        lastSpan = span
        tracker.clear()
        tracker.add(Point(x: span, y: 0), at: time)
    }

    override func pairMoved(at time: TimeInterval) {
        lastSpan = span
        tracker.add(Point(x: span, y: 0), at: time)
        switch state {
        case .possible:
            if abs(span - startSpan) > minimumSpanChange { state = .began }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func reset() {
        super.reset()
        baseSpan = 1
        baseScale = 1
        startSpan = 0
        lastSpan = 1
    }
}

/// Recognizes two fingers turning about each other (continuous). `rotation` is the angle turned, in radians,
/// clockwise on screen (y down), since the fingers went down; set it (usually to 0) after applying it.
open class RotationGestureRecognizer: TwoFingerGestureRecognizer {
    /// How far the fingers must turn, in radians, before the rotation begins.
    public var minimumRotation: Double = .pi / 36

    private var lastAngle: Double = 0
    private var turned: Double = 0
    private var origin: Double = 0

    /// The rotation in radians since the fingers went down (or since it was last set).
    public var rotation: Double {
        get { turned - origin }
        set {
            guard newValue.isFinite else { return }
            origin = turned - newValue
        }
    }

    /// The rotation's rate, in radians per second.
    public var velocity: Double { tracker.velocity(at: now).x }

    override func pairFormed(at time: TimeInterval) {
        lastAngle = angle
        turned = 0
        origin = 0
        tracker.clear()
        tracker.add(.zero, at: time)
    }

    override func pairRejoined(at time: TimeInterval) {
        lastAngle = angle
        tracker.clear()
        tracker.add(Point(x: turned, y: 0), at: time)
    }

    override func pairMoved(at time: TimeInterval) {
        let current = angle
        var delta = current - lastAngle
        if delta > .pi { delta -= 2 * .pi }
        if delta < -.pi { delta += 2 * .pi }
        lastAngle = current
        if delta.isFinite { turned += delta }
        tracker.add(Point(x: turned, y: 0), at: time)
        switch state {
        case .possible:
            if abs(turned) > minimumRotation { state = .began }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func reset() {
        super.reset()
        lastAngle = 0
        turned = 0
        origin = 0
    }
}
