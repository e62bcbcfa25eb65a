/// The document as it stood after one edit, taken in constant time so the event loop can hand it to another thread
/// (the background writer, the tile painters) and go on editing.
///
/// It shares its storage with the live collections until either side changes (copy on write), so taking one costs
/// nothing; building the `Drawing` (every line in stacking order) is left to whoever reads it, off the event loop.
public struct DrawingSnapshot: Sendable {
    public let lines: LineCollection
    public let circles: CircleCollection
    public let options: DrawingOptions

    public init(lines: LineCollection, circles: CircleCollection, options: DrawingOptions) {
        self.lines = lines
        self.circles = circles
        self.options = options
    }

    /// A snapshot of a document that is not open in a view (tests, tools).
    public init(_ drawing: Drawing) {
        self.init(
            lines: LineCollection(drawing.lines), circles: CircleCollection(drawing.circles), options: drawing.options)
    }

    /// The document: every line and circle bottom to top, and the options. Linear in the drawing's size.
    public var drawing: Drawing { Drawing(lines: lines.lines, circles: circles.circles, options: options) }
}
