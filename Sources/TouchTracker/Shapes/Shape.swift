import TouchKit

/// A complete shape of the drawing: a straight line or a two-finger circle. Everything that differs between the
/// two kinds — how far a point is from the stroke, which pixels the stroke may touch, how it moves — is answered
/// here, so selection, hit testing, edits, the spatial index and the renderer handle every shape through one path.
public enum Shape: Hashable, Sendable {
    case line(Line)
    case circle(Circle)

    public enum Kind: Hashable, Sendable {
        case line
        case circle
    }

    public var kind: Kind {
        switch self {
        case .line: .line
        case .circle: .circle
        }
    }

    public var line: Line? {
        if case .line(let line) = self { line } else { nil }
    }

    public var circle: Circle? {
        if case .circle(let circle) = self { circle } else { nil }
    }

    /// The stroke colour, when it is not the default.
    public var color: LineColor? {
        get {
            switch self {
            case .line(let line): line.color
            case .circle(let circle): circle.color
            }
        }
        set {
            switch self {
            case .line(var line):
                line.color = newValue
                self = .line(line)
            case .circle(var circle):
                circle.color = newValue
                self = .circle(circle)
            }
        }
    }

    /// The stroke width in pixels, when it is not the view's default.
    public var width: Double? {
        get {
            switch self {
            case .line(let line): line.width
            case .circle(let circle): circle.width
            }
        }
        set {
            switch self {
            case .line(var line):
                line.width = newValue
                self = .line(line)
            case .circle(var circle):
                circle.width = newValue
                self = .circle(circle)
            }
        }
    }

    /// The shape moved by `offset` (its colour and width unchanged).
    public func translated(by offset: Point) -> Shape {
        switch self {
        case .line(let line): .line(line.translated(by: offset))
        case .circle(let circle): .circle(circle.translated(by: offset))
        }
    }

    /// The exact distance from `point` to the stroke's centre line (the segment, or the ellipse's outline).
    public func distance(to point: Point) -> Double {
        switch self {
        case .line(let line): line.distance(to: point)
        case .circle(let circle): circle.distance(to: point)
        }
    }

    /// The pixels this shape's stroke can touch, `defaultWidth` standing in for a width it does not set.
    public func strokeBounds(defaultWidth: Double) -> Rect {
        switch self {
        case .line(let line): line.strokeBounds(defaultWidth: defaultWidth)
        case .circle(let circle): circle.strokeBounds(defaultWidth: defaultWidth)
        }
    }

    /// Whether the stroke may paint a pixel of `rect`: for a line, whether its segment passes within reach (much
    /// tighter than its bounding box when it is diagonal); for a circle, whether its stroke's bounds meet `rect`.
    public func strokeMayTouch(_ rect: Rect, defaultWidth: Double) -> Bool {
        switch self {
        case .line(let line): line.strokeMayTouch(rect, width: line.width ?? defaultWidth)
        case .circle(let circle): circle.strokeBounds(defaultWidth: defaultWidth).intersects(rect)
        }
    }

    /// Where the shape's menu opens when no tap chose the place (the Menu key): the middle of a line, the centre
    /// of a circle.
    public var menuAnchor: Point {
        switch self {
        case .line(let line): (line.begin + line.end) / 2
        case .circle(let circle): circle.center
        }
    }

    /// The bounds of the points the shape is stored as (a line's ends, a circle's frame), strokes not counted.
    public var pointBounds: Rect {
        switch self {
        case .line(let line): Rect.bounding(line.begin, line.end)
        case .circle(let circle): circle.frame
        }
    }

    /// Whether every coordinate may be stored in a document (finite and within `DocumentCodec.coordinateLimit`).
    public var isStorable: Bool {
        let limit = DocumentCodec.coordinateLimit
        func storable(_ point: Point) -> Bool { point.isFinite && abs(point.x) <= limit && abs(point.y) <= limit }
        switch self {
        case .line(let line): return storable(line.begin) && storable(line.end)
        case .circle(let circle):
            return storable(circle.frame.origin) && storable(Point(x: circle.frame.maxX, y: circle.frame.maxY))
        }
    }
}
