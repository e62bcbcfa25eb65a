import TouchKit

/// A circle drawn with two fingers (DESIGN.md §2.15): the ellipse inscribed in `frame`, the rectangle with the two
/// fingers at opposite corners. It is a true circle when the fingers lie on a 45° diagonal; otherwise it is the oval
/// that fits the rectangle, so the saved bounding box is always exactly where the fingers were.
public struct Circle: Hashable, Sendable {
    /// The bounding box (never negative in size).
    public var frame: Rect
    /// The stroke colour, when it is not the default black.
    public var color: LineColor?
    /// The stroke width in pixels, when it is not the view's default.
    public var width: Double?

    public init(frame: Rect, color: LineColor? = nil, width: Double? = nil) {
        self.frame = Rect.bounding(
            Point(x: frame.minX, y: frame.minY), Point(x: frame.maxX, y: frame.maxY))
        self.color = color
        self.width = width
    }

    /// The circle whose bounding box has `corner` and `opposite` at opposite corners.
    public init(corner: Point, opposite: Point, color: LineColor? = nil, width: Double? = nil) {
        self.init(frame: Rect.bounding(corner, opposite), color: color, width: width)
    }

    public var center: Point { frame.center }

    /// The circle moved by `offset`.
    public func translated(by offset: Point) -> Circle {
        var moved = self
        moved.frame.origin = frame.origin + offset
        return moved
    }

    /// The pixels a stroke of `width` can touch.
    public func bounds(width: Double) -> Rect {
        frame.insetBy(dx: -width / 2 - 1, dy: -width / 2 - 1)
    }

    /// The pixels this circle's stroke can touch, `defaultWidth` standing in for a width it does not set.
    public func strokeBounds(defaultWidth: Double) -> Rect { bounds(width: width ?? defaultWidth) }

    /// The exact distance from `point` to the outline (zero on it, positive inside and outside).
    public func distance(to point: Point) -> Double {
        guard point.isFinite, frame.minX.isFinite, frame.minY.isFinite else { return .infinity }
        let semiX = frame.width / 2
        let semiY = frame.height / 2
        let y0 = abs(point.x - frame.midX)
        let y1 = abs(point.y - frame.midY)
        // Degenerate ellipses are segments (or a point) along the longer axis.
        if semiX == 0 || semiY == 0 {
            let along = semiX == 0 ? y1 : y0
            let across = semiX == 0 ? y0 : y1
            let reach = Swift.max(semiX, semiY)
            let beyond = Swift.max(0, along - reach)
            return (beyond * beyond + across * across).squareRoot()
        }
        // Eberly, "Distance from a Point to an Ellipse": the first-quadrant problem with the major axis first.
        return semiX >= semiY
            ? Self.ellipseDistance(e0: semiX, e1: semiY, y0: y0, y1: y1)
            : Self.ellipseDistance(e0: semiY, e1: semiX, y0: y1, y1: y0)
    }

    private static func ellipseDistance(e0: Double, e1: Double, y0: Double, y1: Double) -> Double {
        if y1 > 0 {
            if y0 > 0 {
                let z0 = y0 / e0
                let z1 = y1 / e1
                let g = z0 * z0 + z1 * z1 - 1
                guard g != 0 else { return 0 }
                let r0 = (e0 / e1) * (e0 / e1)
                let s = root(r0: r0, z0: z0, z1: z1, g: g)
                let x0 = r0 * y0 / (s + r0)
                let x1 = y1 / (s + 1)
                return ((x0 - y0) * (x0 - y0) + (x1 - y1) * (x1 - y1)).squareRoot()
            }
            return abs(y1 - e1)
        }
        let numerator = e0 * y0
        let denominator = e0 * e0 - e1 * e1
        if numerator < denominator {
            let ratio = numerator / denominator
            let x0 = e0 * ratio
            let x1 = e1 * (1 - ratio * ratio).squareRoot()
            return ((x0 - y0) * (x0 - y0) + x1 * x1).squareRoot()
        }
        return abs(y0 - e0)
    }

    /// Bisection for the root of F(s) = (r0·z0/(s+r0))² + (z1/(s+1))² − 1, which is monotone on the bracket.
    private static func root(r0: Double, z0: Double, z1: Double, g: Double) -> Double {
        let n0 = r0 * z0
        var s0 = z1 - 1
        var s1 = g < 0 ? 0 : (n0 * n0 + z1 * z1).squareRoot() - 1
        var s = 0.0
        for _ in 0..<200 {
            s = (s0 + s1) / 2
            if s == s0 || s == s1 { break }
            let ratio0 = n0 / (s + r0)
            let ratio1 = z1 / (s + 1)
            let value = ratio0 * ratio0 + ratio1 * ratio1 - 1
            if value > 0 {
                s0 = s
            } else if value < 0 {
                s1 = s
            } else {
                break
            }
        }
        return s
    }
}
