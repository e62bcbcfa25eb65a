/// How many lines and how many circles a drawing may hold. `document` holds the reader's own limits
/// (`DocumentCodec.maximumLineCount`, `maximumCircleCount`), and the app keeps to them: a stroke finished beyond
/// them is dropped and a paste that would pass them is refused whole, with a notice, before anything changes. So
/// whatever the app draws, pastes or saves, it can open again.
public struct DocumentLimits: Hashable, Sendable {
    public var lines: Int
    public var circles: Int

    public init(lines: Int, circles: Int) {
        self.lines = lines
        self.circles = circles
    }

    /// What a document may hold: the numbers the reader refuses beyond.
    public static let document = DocumentLimits(
        lines: DocumentCodec.maximumLineCount, circles: DocumentCodec.maximumCircleCount)

    /// The most shapes of `kind`.
    public subscript(kind: Shape.Kind) -> Int {
        switch kind {
        case .line: lines
        case .circle: circles
        }
    }

    /// The kind (lines first) of which a drawing of `lines` lines and `circles` circles holds more than these
    /// limits allow; nil when it is within them.
    public func exceeded(lines: Int, circles: Int) -> Shape.Kind? {
        if lines > self.lines { return .line }
        if circles > self.circles { return .circle }
        return nil
    }
}
