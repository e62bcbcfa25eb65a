/// The document as it stood after one edit, taken in constant time so the event loop can hand it to another thread
/// (the background writer, the tile painters) and go on editing.
///
/// It shares its storage with the live collection until either side changes (copy on write), so taking one costs
/// nothing; building the `Drawing` (every shape in stacking order) is left to whoever reads it, off the event loop.
public struct DrawingSnapshot: Sendable {
    public let shapes: ShapeCollection
    public let options: DrawingOptions

    public init(shapes: ShapeCollection, options: DrawingOptions) {
        self.shapes = shapes
        self.options = options
    }

    /// A snapshot of a document that is not open in a view (tests, tools).
    public init(_ drawing: Drawing) {
        self.init(shapes: ShapeCollection(drawing), options: drawing.options)
    }

    /// The document: every line and circle bottom to top, and the options. Linear in the drawing's size.
    public var drawing: Drawing { shapes.drawing(options: options) }
}

/// A document read and indexed away from the event loop, ready to be put under whatever was drawn while it loaded
/// (`DrawingView.adoptLoadedDocument`). Hand it over whole (`consume`), so its collection is not shared and
/// taking it in costs nothing.
public struct LoadedDocument: Sendable {
    public var shapes: ShapeCollection
    public let options: DrawingOptions
    /// The widest stroke any of its shapes sets, so renderers reach far enough.
    public let widestWidth: Double

    /// Builds the collection and its spatial index: linear in the drawing's size, so call it off the event loop.
    public init(_ drawing: Drawing) {
        shapes = ShapeCollection(drawing)
        options = drawing.options
        widestWidth = DrawingDocument.widest(drawing)
    }

    /// The same, its shapes numbered from `firstNumber` on (a version read again, to replace the one on screen).
    public init(_ drawing: Drawing, firstNumber: UInt64) {
        shapes = ShapeCollection(drawing, firstNumber: firstNumber)
        options = drawing.options
        widestWidth = DrawingDocument.widest(drawing)
    }

    /// Takes the shapes out, leaving an empty collection: the taker holds the only reference to their storage, so
    /// changing them copies nothing.
    mutating func takeShapes() -> ShapeCollection {
        var taken = ShapeCollection()
        swap(&taken, &shapes)
        return taken
    }
}
