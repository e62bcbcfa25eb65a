/// A shape's identity within one session, and its place in the stack: a larger ID is drawn above a smaller one.
///
/// IDs grow with drawing order, so a new shape goes on top, and a shape restored by undo gets its old ID back and
/// with it its old place. Circles are drawn above every line (DESIGN.md §2.15: the document keeps them in a list
/// of their own, after the lines), so their IDs come from a band above every line's: the stacking rule between
/// the two kinds lives here and nowhere else.
public struct ShapeID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// The first circle's raw ID; lines take the IDs below it.
    static let circleBand: UInt64 = 1 << 62

    /// The `number`th ID handed out to shapes of `kind` (from 1).
    public init(_ kind: Shape.Kind, number: UInt64) {
        self.init(kind == .circle ? Self.circleBand + number : number)
    }

    public var kind: Shape.Kind { rawValue >= Self.circleBand ? .circle : .line }

    /// The ID's number within its kind (what `init(_:number:)` was given).
    public var number: UInt64 { kind == .circle ? rawValue - Self.circleBand : rawValue }

    public static func < (lhs: ShapeID, rhs: ShapeID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { kind == .circle ? "circle #\(number)" : "#\(number)" }
}
