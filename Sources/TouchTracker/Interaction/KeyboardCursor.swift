import TouchKit

/// Drawing and selecting without a pointer (DESIGN.md §2.17): the keyboard's own place in the window. The arrows
/// move it 10 px (1 px with Shift), inside the window; Space starts a line there (Shift+Space a circle) and the
/// arrows then move its end (drawn live, as a finger's stroke is) until Space finishes it; Tab and Shift+Tab select shape after shape and put
/// the cursor on each one's middle, and the arrows then move the selected shape.
public struct KeyboardCursor: Hashable, Sendable {
    public enum Direction: Hashable, Sendable {
        case left, right, up, down

        /// One step this way: `step` pixels along its axis.
        func offset(_ step: Double) -> Point {
            switch self {
            case .left: Point(x: -step, y: 0)
            case .right: Point(x: step, y: 0)
            case .up: Point(x: 0, y: -step)
            case .down: Point(x: 0, y: step)
            }
        }
    }

    /// A step of an arrow key, and of Shift with it.
    public static let step = 10.0
    public static let fineStep = 1.0
    /// What Space (a line) or Shift+Space (a circle) started, drawn through the same stroke tracker as fingers'
    /// strokes, as touches far above any device's touch number.
    public enum Stroke: Hashable, Sendable {
        case line, circle

        /// The touch whose place the arrows move: a line's end, or the circle's corner opposite where it began.
        public var movingTouch: UInt64 {
            switch self {
            case .line: KeyboardCursor.lineTouch
            case .circle: KeyboardCursor.circleCorners.second
            }
        }

        /// Every touch the stroke is drawn as.
        public var touches: [UInt64] {
            switch self {
            case .line: [KeyboardCursor.lineTouch]
            case .circle: [KeyboardCursor.circleCorners.first, KeyboardCursor.circleCorners.second]
            }
        }
    }

    /// The touch the keyboard's line is drawn as.
    public static let lineTouch = UInt64.max
    /// The two corners of the keyboard's circle: the first stays where Shift+Space began it, the arrows move the
    /// second, as two fingers at opposite corners draw one.
    public static let circleCorners = TouchPair(first: UInt64.max - 2, second: UInt64.max - 1)

    /// Window coordinates; the window's centre at first.
    public var location: Point
    /// Shown (as a small crosshair) once a key has moved it or drawn or selected with it.
    public var isShown = false
    /// The stroke Space or Shift+Space started and the arrows now draw, if any.
    public var stroke: Stroke?
    /// Whether the arrows now draw a stroke.
    public var isDrawing: Bool { stroke != nil }
    /// The shape a run of arrow presses moves: one undo step for the whole run. Nil between runs.
    var movingShape: ShapeID?

    public init(location: Point) {
        self.location = location
    }

    /// Half the crosshair's reach, in 96-dpi pixels.
    public static let crosshairRadius = 7.0

    /// The pixels the crosshair at `point` covers (with room for antialiasing).
    public static func crosshairFrame(at point: Point) -> Rect {
        let reach = crosshairRadius + 3
        return Rect(x: point.x - reach, y: point.y - reach, width: 2 * reach, height: 2 * reach)
    }

    /// As much of `offset` as a shape whose stroke covers `box` may move by an arrow key: it stops at the window's
    /// edge (`bounds`), so the keyboard cannot push it out of sight. A shape larger than the window may move only
    /// while it still covers the window across; one already beyond an edge (the window made smaller) may come back
    /// but goes no further out.
    static func shapeStep(_ offset: Point, moving box: Rect, within bounds: Rect) -> Point {
        func along(_ step: Double, from low: Double, size: Double, in start: Double, _ length: Double) -> Double {
            let lowest = min(start, start + length - size)
            let highest = max(start, start + length - size)
            if step > 0 { return low >= highest ? 0 : min(low + step, highest) - low }
            if step < 0 { return low <= lowest ? 0 : max(low + step, lowest) - low }
            return 0
        }
        return Point(
            x: along(offset.x, from: box.minX, size: box.width, in: bounds.minX, bounds.width),
            y: along(offset.y, from: box.minY, size: box.height, in: bounds.minY, bounds.height))
    }

    /// Where the keyboard's cursor and the shapes it moves may go: as far as a document may hold coordinates (the
    /// drawing has no edge; the view follows the cursor).
    public static let reach = Rect(
        x: -DocumentCodec.coordinateLimit, y: -DocumentCodec.coordinateLimit, width: 2 * DocumentCodec.coordinateLimit,
        height: 2 * DocumentCodec.coordinateLimit)

    /// `location` moved by `offset`, kept inside `bounds`.
    mutating func move(by offset: Point, within bounds: Rect) {
        location = Point(
            x: min(max(location.x + offset.x, bounds.minX), bounds.maxX - 1),
            y: min(max(location.y + offset.y, bounds.minY), bounds.maxY - 1))
    }
}
