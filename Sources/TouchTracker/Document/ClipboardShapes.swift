import TouchKit

/// What Ctrl+C puts on the clipboard and Ctrl+V takes from it, free of any platform: the shapes as a TouchTracker
/// document (DESIGN.md §2.10a). The platform offers them as the document's JSON, as text and as a PNG.
public struct ClipboardShapes: Sendable {
    /// The shapes copied, in a snapshot taken in constant time (the whole drawing shares the live storage).
    public let snapshot: DrawingSnapshot
    /// Whether they are the selected shape alone (else the whole drawing).
    public let isSelection: Bool

    public init(snapshot: DrawingSnapshot, isSelection: Bool) {
        self.snapshot = snapshot
        self.isSelection = isSelection
    }

    /// The MIME type of the document's JSON on the clipboard.
    public static let documentType = "application/x-touchtracker+json"

    /// The document's JSON, as saved files hold it (linear in the shapes: call it off the event loop).
    public func documentBytes() -> [UInt8] {
        DocumentCodec.encode(snapshot.drawing)
    }

    /// The shapes of a clipboard document (`documentType`, or text holding such a document), bottom to top.
    /// Throws when the bytes are not a readable TouchTracker document.
    public static func shapes(fromDocument bytes: [UInt8]) throws(DocumentError) -> [Shape] {
        try DocumentCodec.decode(bytes).shapes
    }

    /// `shapes` moved so the middle of their strokes' bounds lands on `point`: a paste puts what it brings where
    /// the pointer is, as drawing programs do. Coordinates stay within what a document may store.
    public static func placed(_ shapes: [Shape], centredOn point: Point, defaultWidth: Double) -> [Shape] {
        guard let bounds = strokeBounds(of: shapes, defaultWidth: defaultWidth) else { return shapes }
        let limit = DocumentCodec.coordinateLimit
        var offset = Point(x: point.x - bounds.midX, y: point.y - bounds.midY)
        // Held so the strokes stay within the range a document may store (a paste far off a huge drawing); shapes
        // spanning the whole range fit only without their strokes' reach, so then their points are held in it.
        let points = shapes.reduce(Rect.null) { $0.union($1.pointBounds) }
        let heldX = bounds.width <= 2 * limit ? bounds : points
        let heldY = bounds.height <= 2 * limit ? bounds : points
        offset.x = min(max(offset.x, -limit - heldX.minX), limit - heldX.maxX)
        offset.y = min(max(offset.y, -limit - heldY.minY), limit - heldY.maxY)
        guard offset.x.isFinite, offset.y.isFinite else { return shapes }
        return shapes.map { $0.translated(by: offset) }
    }

    /// The union of the shapes' stroke bounds, or nil when there are none.
    public static func strokeBounds(of shapes: [Shape], defaultWidth: Double) -> Rect? {
        let bounds = shapes.reduce(Rect.null) { $0.union($1.strokeBounds(defaultWidth: defaultWidth)) }
        return bounds.isNull ? nil : bounds
    }
}
