import TouchKit

/// A straight stroke from where a finger went down to where it lifted.
public struct Line: Hashable, Sendable {
    public var begin: Point
    public var end: Point

    public init(begin: Point, end: Point) {
        self.begin = begin
        self.end = end
    }

    /// The line moved by `offset`.
    public func translated(by offset: Point) -> Line {
        Line(begin: begin + offset, end: end + offset)
    }

    /// The exact distance from `point` to the segment (not to the infinite line through it).
    public func distance(to point: Point) -> Double {
        let direction = end - begin
        let lengthSquared = direction.x * direction.x + direction.y * direction.y
        guard lengthSquared > 0 else { return point.distance(to: begin) }
        let along = ((point.x - begin.x) * direction.x + (point.y - begin.y) * direction.y) / lengthSquared
        let t = Swift.min(1, Swift.max(0, along))
        return point.distance(to: begin + direction * t)
    }

    /// The pixels a stroke of `width` with round caps can touch.
    public func bounds(width: Double) -> Rect {
        Rect.bounding(begin, end).insetBy(dx: -width / 2 - 1, dy: -width / 2 - 1)
    }
}
