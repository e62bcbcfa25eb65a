import Foundation
import TouchKit

/// A straight stroke from where a finger went down to where it lifted.
public struct Line: Hashable, Sendable {
    public var begin: Point
    public var end: Point
    /// The stroke colour, when it is not the default black (chosen colour or colour by angle, DESIGN.md §2.12–13).
    public var color: LineColor?
    /// The stroke width in pixels, when it is not the view's default (width by speed, DESIGN.md §2.14).
    public var width: Double?

    public init(begin: Point, end: Point, color: LineColor? = nil, width: Double? = nil) {
        self.begin = begin
        self.end = end
        self.color = color
        self.width = width
    }

    /// The line moved by `offset` (its colour and width unchanged).
    public func translated(by offset: Point) -> Line {
        Line(begin: begin + offset, end: end + offset, color: color, width: width)
    }

    /// The direction from `begin` to `end` in degrees, 0 ≤ angle < 360, counter-clockwise from the +x axis as on
    /// paper (the window's y axis points down, so a line drawn up and to the right is 45°). A line of no length is 0.
    public var angle: Double {
        let degrees = atan2(-(end.y - begin.y), end.x - begin.x) * 180 / .pi
        guard degrees.isFinite else { return 0 }
        let normalized = degrees < 0 ? degrees + 360 : degrees
        return normalized >= 360 ? 0 : normalized
    }

    /// The part of the segment inside `rect`, same direction, colour and width (Liang–Barsky); nil when no part of
    /// it is. Its coordinates must be numbers.
    public func clipped(to rect: Rect) -> Line? {
        let d = end - begin
        var (enter, leave) = (0.0, 1.0)
        for (p, q) in [
            (-d.x, begin.x - rect.minX), (d.x, rect.maxX - begin.x), (-d.y, begin.y - rect.minY),
            (d.y, rect.maxY - begin.y),
        ] {
            if p == 0 {
                if q < 0 { return nil }
            } else if p < 0 {
                enter = Swift.max(enter, q / p)
            } else {
                leave = Swift.min(leave, q / p)
            }
        }
        guard enter <= leave else { return nil }
        return Line(begin: begin + d * enter, end: begin + d * leave, color: color, width: width)
    }

    /// The exact distance between this segment and `other` (0 when they cross).
    public func distance(to other: Line) -> Double {
        func side(_ a: Point, _ b: Point, _ c: Point) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        let (d1, d2) = (side(other.begin, other.end, begin), side(other.begin, other.end, end))
        let (d3, d4) = (side(begin, end, other.begin), side(begin, end, other.end))
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return 0 }
        return Swift.min(
            Swift.min(distance(to: other.begin), distance(to: other.end)),
            Swift.min(other.distance(to: begin), other.distance(to: end)))
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

    /// Whether the segment passes through `rect`, ends inside included (Liang–Barsky clipping).
    public func crosses(_ rect: Rect) -> Bool {
        var entry = 0.0
        var exit = 1.0
        // Clips the segment's parameter range to one side of the rectangle; false once nothing is left.
        func clip(_ p: Double, _ q: Double) -> Bool {
            if p == 0 { return q >= 0 }
            let t = q / p
            if p < 0 {
                if t > exit { return false }
                entry = Swift.max(entry, t)
            } else {
                if t < entry { return false }
                exit = Swift.min(exit, t)
            }
            return entry <= exit
        }
        let dx = end.x - begin.x
        let dy = end.y - begin.y
        return clip(-dx, begin.x - rect.minX) && clip(dx, rect.maxX - begin.x) && clip(-dy, begin.y - rect.minY)
            && clip(dy, rect.maxY - begin.y)
    }

    /// Whether a stroke of `width` with round caps may paint a pixel of `rect`: its segment passes within half the
    /// width (and a pixel of antialiasing) of it, square corners standing in for round ones. Much tighter than
    /// comparing bounding boxes, which for a diagonal line take in the empty triangles on either side of it, so a
    /// repair restrokes far fewer lines.
    public func strokeMayTouch(_ rect: Rect, width: Double) -> Bool {
        let reach = width / 2 + 1
        return crosses(rect.insetBy(dx: -reach, dy: -reach))
    }

    /// The pixels this line's stroke can touch, `defaultWidth` standing in for a width it does not set.
    public func strokeBounds(defaultWidth: Double) -> Rect { bounds(width: width ?? defaultWidth) }
}
