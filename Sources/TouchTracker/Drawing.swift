/// The document: every complete line, oldest first (the last one is on top).
public struct Drawing: Hashable, Sendable {
    /// The document format version this build writes.
    public static let formatVersion = 1

    public var lines: [Line]

    public init(lines: [Line] = []) {
        self.lines = lines
    }
}
