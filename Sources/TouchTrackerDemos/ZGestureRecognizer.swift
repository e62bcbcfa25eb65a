import Foundation
import TouchKit

/// The shape test behind `ZGestureRecognizer`, kept apart from touches and time so it is easy to test: a path is a
/// "Z" when it runs right (the top bar), then down and to the left (the diagonal), then right again (the bottom
/// bar), each part at least `minimumLength` long and roughly straight.
public struct ZPath: Sendable, Hashable {
    /// What the path can still be.
    public enum Verdict: Sendable, Hashable {
        /// It may still become a Z.
        case undecided
        /// It cannot be a Z any more.
        case impossible
        /// It is a Z.
        case zed
    }

    /// Shortest bar or diagonal, in pixels.
    public var minimumLength: Double = 40
    /// How far the start may travel before its direction is judged, in pixels.
    public var decisionDistance: Double = 15
    /// Largest angle between a bar and the horizontal.
    public var maximumBarAngle: Double = .pi / 6
    /// The diagonal's direction must lie between these angles (screen coordinates, y down: down-left is 135°).
    public var diagonalAngles: ClosedRange<Double> = (100 * Double.pi / 180)...(170 * Double.pi / 180)
    /// How far a point may stray from its part's straight line, as a fraction of that part's length (at least
    /// `minimumStray` pixels).
    public var strayFraction: Double = 0.25
    public var minimumStray: Double = 15

    public private(set) var points: [Point] = []
    /// Set once the start of the path went somewhere a Z's top bar cannot go.
    private var startFailed = false
    private var startJudged = false

    public init() {}

    /// Forgets the points, keeping the tolerances.
    public mutating func clear() {
        points.removeAll()
        startFailed = false
        startJudged = false
    }

    /// Adds the next point. Returns `.impossible` as soon as the path starts off in a direction other than right.
    @discardableResult
    public mutating func add(_ point: Point) -> Verdict {
        points.append(point)
        if !startJudged, let first = points.first {
            let travel = point - first
            if travel.length >= decisionDistance {
                startJudged = true
                // Within 45° of rightwards: anything else is a left, up or down swipe, not the top of a Z.
                startFailed = !(travel.x > 0 && abs(travel.y) <= travel.x)
            }
        }
        return startFailed ? .impossible : .undecided
    }

    /// The verdict on the whole path, once the finger has lifted.
    public var finalVerdict: Verdict {
        guard !startFailed, let corners = corners else { return .impossible }
        let (topRight, bottomLeft) = corners
        let parts = [(0, topRight), (topRight, bottomLeft), (bottomLeft, points.count - 1)]
        guard isBar(from: points[0], to: points[topRight]),
            isDiagonal(from: points[topRight], to: points[bottomLeft]),
            isBar(from: points[bottomLeft], to: points[points.count - 1])
        else { return .impossible }
        for (start, end) in parts where !isStraight(from: start, to: end) { return .impossible }
        return .zed
    }

    /// The indices of the top-right and bottom-left corners: the bottom-left corner is the point furthest down and
    /// to the left (least x − y); the top-right corner is the point furthest up and to the right before it.
    private var corners: (Int, Int)? {
        guard points.count >= 3 else { return nil }
        func key(_ p: Point) -> Double { p.x - p.y }
        var bottomLeft = 0
        for index in points.indices where key(points[index]) < key(points[bottomLeft]) { bottomLeft = index }
        var topRight = 0
        for index in 0...bottomLeft where key(points[index]) > key(points[topRight]) { topRight = index }
        guard topRight > 0, bottomLeft > topRight, bottomLeft < points.count - 1 else { return nil }
        return (topRight, bottomLeft)
    }

    private func isBar(from a: Point, to b: Point) -> Bool {
        let v = b - a
        return v.x >= minimumLength && abs(v.y) <= v.x * tan(maximumBarAngle)
    }

    private func isDiagonal(from a: Point, to b: Point) -> Bool {
        let v = b - a
        return v.length >= minimumLength && diagonalAngles.contains(atan2(v.y, v.x))
    }

    private func isStraight(from start: Int, to end: Int) -> Bool {
        let a = points[start]
        let b = points[end]
        let length = a.distance(to: b)
        let allowed = max(minimumStray, strayFraction * length)
        for point in points[start...end] where Self.distance(from: point, toSegment: a, b) > allowed { return false }
        return true
    }

    static func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
        let ab = b - a
        let lengthSquared = ab.x * ab.x + ab.y * ab.y
        guard lengthSquared > 0 else { return p.distance(to: a) }
        let t = min(1, max(0, ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / lengthSquared))
        return p.distance(to: a + ab * t)
    }
}

/// A custom recognizer written as a subclass, as the UIKit course shows is possible: one finger drawing a "Z" (the UIKit course's
/// "Z del zorro"). Discrete: it recognizes when the finger lifts after a Z, and fails as soon as the stroke starts
/// off in a direction other than right, when a second finger joins, or after `maximumDuration`.
///
/// A swipe that should wait for it calls `require(toFail:)` with it; since it fails at once on left, up and down
/// strokes, only rightward swipes wait, until the finger lifts.
open class ZGestureRecognizer: GestureRecognizer {
    /// Longest time from the finger going down to it lifting.
    public var maximumDuration: TimeInterval = 3
    /// The shape test, with its tolerances.
    public var path = ZPath()

    private var finger: Touch?

    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        guard finger == nil, touches.count == 1, let touch = touches.first else {
            state = .failed
            return
        }
        finger = touch
        path.add(touch.location(in: nil))
        scheduleTimer(after: maximumDuration) { [self] in
            if state == .possible { state = .failed }
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let finger, touches.contains(finger) else { return }
        if path.add(finger.location(in: nil)) == .impossible { state = .failed }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let finger, touches.contains(finger) else { return }
        path.add(finger.location(in: nil))
        state = path.finalVerdict == .zed ? .recognized : .failed
    }

    open override func reset() {
        super.reset()
        finger = nil
        path.clear()
    }
}
