/// A line's identity within one session. IDs grow with drawing order, so a larger ID is drawn on top; a line
/// restored by undo gets its old ID back and with it its old place in the stack.
public struct LineID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: LineID, rhs: LineID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}
