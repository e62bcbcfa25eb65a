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

/// A document read and indexed away from the event loop, ready to be put under whatever was drawn while it loaded
/// (`DrawingView.adoptLoadedDocument`). Hand it over whole (`consume`), so its collections are not shared and
/// taking them in costs nothing.
public struct LoadedDocument: Sendable {
    public var lines: LineCollection
    public var circles: CircleCollection
    public let options: DrawingOptions
    /// The widest stroke of any of its lines, so renderers reach far enough.
    public let widestLineWidth: Double

    /// Builds the collections and their spatial index: linear in the drawing's size, so call it off the event loop.
    public init(_ drawing: Drawing) {
        lines = LineCollection(drawing.lines)
        circles = CircleCollection(drawing.circles)
        options = drawing.options
        widestLineWidth = drawing.lines.reduce(0) { Swift.max($0, $1.width ?? 0) }
    }
}
