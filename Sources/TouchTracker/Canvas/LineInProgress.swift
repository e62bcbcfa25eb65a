import TouchKit

/// A line a finger is drawing now. It shows only once the finger has left the tap slop, so a tap leaves no dot.
public struct LineInProgress: Hashable, Sendable {
    public var begin: Point
    public var end: Point
    /// Whether the finger has moved beyond the tap slop since it went down.
    public var isVisible: Bool
    /// The colour it shows in (colour by angle); nil for the usual red.
    public var color: LineColor? = nil
    /// The width from the finger's speed at its last move (width by speed); nil for the default width.
    public var width: Double? = nil

    public var line: Line { Line(begin: begin, end: end, color: color, width: width) }
}

/// The two touches drawing one circle, by `Touch.identifier`: `first` went down first.
public struct TouchPair: Hashable, Sendable, CustomStringConvertible {
    public var first: UInt64
    public var second: UInt64

    public init(first: UInt64, second: UInt64) {
        self.first = first
        self.second = second
    }

    public func contains(_ id: UInt64) -> Bool { first == id || second == id }

    /// The other touch of the pair.
    public func partner(of id: UInt64) -> UInt64 { id == first ? second : first }

    public var description: String { "(\(first), \(second))" }
}

/// A circle two fingers are drawing now: its bounding box has the fingers at opposite corners. Like a line, it
/// shows only once a finger has left the tap slop, so a two-finger tap leaves nothing.
public struct CircleInProgress: Hashable, Sendable {
    /// Where each finger went down.
    public var firstStart: Point
    public var secondStart: Point
    /// Where each finger is now.
    public var first: Point
    public var second: Point
    public var isVisible: Bool

    public var circle: Circle { Circle(corner: first, opposite: second) }
}
