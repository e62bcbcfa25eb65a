import TouchKit

/// A line a finger is drawing now. It shows only once the finger has left the tap slop, so a tap leaves no dot.
public struct LineInProgress: Hashable, Sendable {
    public var begin: Point
    public var end: Point
    /// Whether the finger has moved beyond the tap slop since it went down.
    public var isVisible: Bool

    public var line: Line { Line(begin: begin, end: end) }
}
