import Foundation

/// Turns touchpad gestures (XInput 2.4's pinch and swipe, as libinput reports them) into the touches a touchscreen
/// would have produced, so the ordinary pinch, rotation and swipe recognizers handle them too.
///
/// A pinch becomes two virtual fingers on either side of the gesture's focus, `pinchRadius` apart from it at scale 1,
/// spread by the reported scale and turned by the reported angle; a swipe becomes one virtual finger per touchpad
/// finger, side by side, all moving by the reported travel. Virtual touches have platform ids above
/// `identifierBase`, out of the way of real devices, and are `.indirectPointer` touches, as UIKit's trackpad touches
/// are: a touchpad is not a finger on the screen (palm rejection leaves it alone).
public struct TouchpadGestureBridge {
    public enum Phase: Sendable, Hashable {
        case began, changed, ended, cancelled
    }

    /// Distance from the focus to each virtual pinch finger at scale 1: small, so both fingers land on the object
    /// under the pointer, yet far beyond the pinch recognizer's 10 px start threshold once the fingers spread.
    public var pinchRadius = 25.0
    /// Gap between neighbouring virtual swipe fingers.
    public var swipeSpacing = 24.0
    public static let identifierBase: UInt64 = 1 << 61

    /// Whether `platformID` is one of the bridge's virtual fingers (a pinch's two, a swipe's up to five): ids from
    /// `identifierBase` up, below the ranges the platforms give a mouse or a pen (1 << 62 and up).
    public static func isVirtualFinger(_ platformID: UInt64) -> Bool {
        platformID >= identifierBase && platformID < identifierBase + 64
    }

    private var pinch: (center: Point, angle: Double, scale: Double)?
    private var swipe: (origins: [Point], travel: Point)?

    public init() {}

    /// The touch inputs for one pinch event. `scale` is relative to the gesture's start (1 at its beginning);
    /// `deltaAngle` is in degrees, clockwise on screen, since the previous event; `delta` is the focus's travel.
    public mutating func pinch(
        _ phase: Phase, focus: Point, delta: Point, scale: Double, deltaAngle: Double, timestamp: TimeInterval
    ) -> [TouchInput] {
        let ids = [Self.identifierBase, Self.identifierBase + 1]
        switch phase {
        case .began:
            guard focus.isFinite else { return [] }
            pinch = (focus, 0, 1)
            return fingers(phase: .began, ids: ids, timestamp: timestamp)
        case .changed, .ended, .cancelled:
            guard var state = pinch else { return [] }
            if delta.isFinite { state.center += delta }
            if deltaAngle.isFinite { state.angle += deltaAngle * Double.pi / 180 }
            if scale.isFinite, scale > 0 { state.scale = scale }
            pinch = state
            var inputs = fingers(phase: .moved, ids: ids, timestamp: timestamp)
            if phase != .changed {
                inputs += fingers(phase: phase == .ended ? .ended : .cancelled, ids: ids, timestamp: timestamp)
                pinch = nil
            }
            return inputs
        }
    }

    private func fingers(phase: TouchInput.Phase, ids: [UInt64], timestamp: TimeInterval) -> [TouchInput] {
        guard let state = pinch else { return [] }
        let reach = pinchRadius * state.scale
        let offset = Point(x: reach * cos(state.angle), y: reach * sin(state.angle))
        return [
            TouchInput(
                id: ids[0], phase: phase, location: state.center - offset, timestamp: timestamp, type: .indirectPointer),
            TouchInput(
                id: ids[1], phase: phase, location: state.center + offset, timestamp: timestamp, type: .indirectPointer),
        ]
    }

    /// The touch inputs for one swipe event of `fingerCount` fingers; `delta` is the travel since the last event.
    public mutating func swipe(_ phase: Phase, focus: Point, delta: Point, fingerCount: Int, timestamp: TimeInterval)
        -> [TouchInput]
    {
        let base = Self.identifierBase + 16
        switch phase {
        case .began:
            guard focus.isFinite else { return [] }
            // A swipe that begins again before the last one ended (the compositor lost its end): the last one's
            // fingers are cancelled first, or those the new one does not reuse would stay down for good.
            let unfinished =
                swipe.map { state in
                    state.origins.enumerated().map {
                        TouchInput(
                            id: base + UInt64($0.offset), phase: .cancelled, location: $0.element + state.travel,
                            timestamp: timestamp, type: .indirectPointer)
                    }
                } ?? []
            let count = max(1, min(fingerCount, 10))
            let first = focus.x - Double(count - 1) * swipeSpacing / 2
            let origins = (0..<count).map { Point(x: first + Double($0) * swipeSpacing, y: focus.y) }
            swipe = (origins, .zero)
            return unfinished
                + origins.enumerated().map {
                    TouchInput(
                        id: base + UInt64($0.offset), phase: .began, location: $0.element, timestamp: timestamp,
                        type: .indirectPointer)
                }
        case .changed, .ended, .cancelled:
            guard var state = swipe else { return [] }
            if delta.isFinite { state.travel += delta }
            swipe = state
            var inputs = state.origins.enumerated().map {
                TouchInput(
                    id: base + UInt64($0.offset), phase: .moved, location: $0.element + state.travel,
                    timestamp: timestamp, type: .indirectPointer)
            }
            if phase != .changed {
                inputs += state.origins.enumerated().map {
                    TouchInput(
                        id: base + UInt64($0.offset), phase: phase == .ended ? .ended : .cancelled,
                        location: $0.element + state.travel, timestamp: timestamp, type: .indirectPointer)
                }
                swipe = nil
            }
            return inputs
        }
    }
}
