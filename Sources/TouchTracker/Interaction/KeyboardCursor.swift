import TouchKit

/// Drawing and selecting without a pointer (DESIGN.md §2.17): the keyboard's own place in the window. The arrows
/// move it 10 px (1 px with Shift), inside the window; Space starts a line there and the arrows then move its end
/// (drawn live, as a finger's line is) until Space finishes it; Tab and Shift+Tab select shape after shape and put
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
    /// The touch the keyboard's line is drawn as (far above any device's touch number), so it goes through the
    /// same stroke tracker as a finger's.
    public static let lineTouch = UInt64.max

    /// Window coordinates; the window's centre at first.
    public var location: Point
    /// Shown (as a small crosshair) once a key has moved it or drawn or selected with it.
    public var isShown = false
    /// Whether Space started a line the arrows now draw.
    public var isDrawing = false
    /// The shape a run of arrow presses moves: one undo step for the whole run. Nil between runs.
    var movingShape: ShapeID?

    public init(location: Point) {
        self.location = location
    }

    /// Half the crosshair's reach, in 96-dpi pixels.
    public static let crosshairRadius = 7.0

    /// The pixels the crosshair at `point` covers (with room for antialiasing).
    public static func crosshairFrame(at point: Point, scale: Double) -> Rect {
        let reach = (crosshairRadius + 3) * scale
        return Rect(x: point.x - reach, y: point.y - reach, width: 2 * reach, height: 2 * reach)
    }

    /// `location` moved by `offset`, kept inside `bounds`.
    mutating func move(by offset: Point, within bounds: Rect) {
        location = Point(
            x: min(max(location.x + offset.x, bounds.minX), bounds.maxX - 1),
            y: min(max(location.y + offset.y, bounds.minY), bounds.maxY - 1))
    }
}
