/// Recognizes fingers dragging (continuous): it begins once their centroid has travelled more than
/// `minimumTranslation` with between `minimumNumberOfTouches` and `maximumNumberOfTouches` fingers down, reports
/// `changed` as they move, and ends when fewer than `minimumNumberOfTouches` remain.
///
/// The translation counts from where the fingers went down (so it includes the travel before the gesture began, made
/// with at least `minimumNumberOfTouches` fingers);
/// reset it with `setTranslation(_:in:)`. Fingers added or lifted mid-drag do not make it jump.
open class PanGestureRecognizer: GestureRecognizer {
    /// Fewest fingers that can pan (UIKit's default 1).
    public var minimumNumberOfTouches = 1
    /// Most fingers that can pan (UIKit's default, unlimited). Further fingers are ignored: left to the view and
    /// to other recognizers (UIKit instead declines to recognize while too many fingers are down).
    public var maximumNumberOfTouches = Int.max
    /// How far the centroid must travel before the pan begins (the drag slop, 10 px).
    public var minimumTranslation: Double = 10

    private var following: [Touch] = []
    private var lastCentroid = Point.zero
    /// Centroid travel since the fingers went down, in window coordinates; `setTranslation` does not change it.
    private(set) var travel = Point.zero
    private var translationOrigin = Point.zero
    private var tracker = VelocityTracker()

    /// The total translation in `view`'s coordinate system (the window's when nil).
    public func translation(in view: View?) -> Point {
        windowVector(travel - translationOrigin, to: view)
    }

    /// Makes the current translation read `translation` in `view`'s coordinate system (usually `.zero`, after
    /// applying it). Allowed in any state, including before the pan begins.
    public func setTranslation(_ translation: Point, in view: View?) {
        guard translation.isFinite else { return }
        translationOrigin = travel - windowVector(translation, from: view)
    }

    /// The centroid's velocity in `view`'s coordinate system, in points per second.
    public func velocity(in view: View?) -> Point {
        windowVector(tracker.velocity(at: now), to: view)
    }

    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            if following.count >= maximumNumberOfTouches {
                ignore(touch, for: event)
                continue
            }
            if state == .possible && following.isEmpty && !accepts(firstTouch: touch) {
                state = .failed
                return
            }
            following.append(touch)
        }
        lastCentroid = centroid()
        if following.count == touches.count { tracker.add(travel, at: event.timestamp) }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        follow(at: event.timestamp)
        switch state {
        case .possible:
            let count = following.count
            if count >= minimumNumberOfTouches, count <= maximumNumberOfTouches,
                travel.length > minimumTranslation
            {
                state = allowsBeginning(with: travel) ? .began : .failed
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        follow(at: event.timestamp)
        following.removeAll { $0.phase.isFinished }
        lastCentroid = centroid()
        switch state {
        case .possible:
            if following.isEmpty { state = .failed }
        case .began, .changed:
            if following.count < minimumNumberOfTouches { state = .ended }
        default:
            break
        }
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        following.removeAll { $0.phase.isFinished }
        lastCentroid = centroid()
        super.touchesCancelled(touches, with: event)
    }

    /// Moves the centroid on, adding its travel (the touch set is the same as at the last anchor).
    private func follow(at time: TimeInterval) {
        let current = centroid()
        let delta = current - lastCentroid
        guard delta.isFinite else { return }
        lastCentroid = current
        // Before it begins, only travel made with enough fingers counts: UIKit's pan begins "when the user moves the
        // minimum number of fingers allowed enough distance", not when one finger went far before a second came.
        if state == .possible, following.count < minimumNumberOfTouches { return }
        travel += delta
        tracker.add(travel, at: time)
    }

    private func centroid() -> Point {
        guard !following.isEmpty else { return lastCentroid }
        var sum = Point.zero
        for touch in following { sum += touch.windowLocation }
        return sum / Double(following.count)
    }

    /// Whether the first finger may start this pan (screen-edge pans check the edge).
    func accepts(firstTouch touch: Touch) -> Bool { true }
    /// Whether the travel so far may begin the pan (screen-edge pans check the direction).
    func allowsBeginning(with travel: Point) -> Bool { true }

    open override func reset() {
        super.reset()
        following.removeAll()
        lastCentroid = .zero
        travel = .zero
        translationOrigin = .zero
        tracker.clear()
    }
}

/// The edges of a rectangle, as an option set.
public struct RectEdge: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let top = RectEdge(rawValue: 1 << 0)
    public static let left = RectEdge(rawValue: 1 << 1)
    public static let bottom = RectEdge(rawValue: 1 << 2)
    public static let right = RectEdge(rawValue: 1 << 3)
    public static let all: RectEdge = [.top, .left, .bottom, .right]
}

/// A pan that starts at an edge of the window and moves away from it (UIKit's UIScreenEdgePanGestureRecognizer).
/// One finger by default.
open class ScreenEdgePanGestureRecognizer: PanGestureRecognizer {
    /// The edges the pan may start from. Empty (UIKit's default) recognizes nothing.
    public var edges: RectEdge = []
    /// How close to an edge, in window pixels, the finger must go down.
    public var edgeRegion: Double = 20

    private var startEdges: RectEdge = []

    public required init() {
        super.init()
        maximumNumberOfTouches = 1
    }

    override func accepts(firstTouch touch: Touch) -> Bool {
        guard let window = touch.window ?? view?.window else { return false }
        let bounds = window.bounds
        let p = touch.initialWindowLocation
        var near: RectEdge = []
        if p.y - bounds.minY <= edgeRegion { near.insert(.top) }
        if p.x - bounds.minX <= edgeRegion { near.insert(.left) }
        if bounds.maxY - p.y <= edgeRegion { near.insert(.bottom) }
        if bounds.maxX - p.x <= edgeRegion { near.insert(.right) }
        startEdges = near.intersection(edges)
        return !startEdges.isEmpty
    }

    override func allowsBeginning(with travel: Point) -> Bool {
        (startEdges.contains(.left) && travel.x > 0 && travel.x >= abs(travel.y))
            || (startEdges.contains(.right) && travel.x < 0 && -travel.x >= abs(travel.y))
            || (startEdges.contains(.top) && travel.y > 0 && travel.y >= abs(travel.x))
            || (startEdges.contains(.bottom) && travel.y < 0 && -travel.y >= abs(travel.x))
    }

    open override func reset() {
        super.reset()
        startEdges = []
    }
}
