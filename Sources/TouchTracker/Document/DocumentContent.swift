/// What the streamed `DocumentCodec.encode` reads: the lines and circles by their place in the document's lists,
/// and the options. From a `Drawing` it reads its arrays; from a `DrawingSnapshot` it reads the collection in
/// place, so a save does not first build the whole `Drawing` (4.8 MB more for the length of a save at 100,000
/// lines).
public struct DocumentContent: Sendable {
    public let lineCount: Int
    public let circleCount: Int
    public let line: @Sendable (Int) -> Line
    public let circle: @Sendable (Int) -> Circle
    public let options: DrawingOptions

    public init(_ drawing: Drawing) {
        let (lines, circles) = (drawing.lines, drawing.circles)
        lineCount = lines.count
        circleCount = circles.count
        line = { lines[$0] }
        circle = { circles[$0] }
        options = drawing.options
    }

    public init(_ snapshot: DrawingSnapshot) {
        let shapes = snapshot.shapes
        let lineCount = shapes.lineCount
        self.lineCount = lineCount
        circleCount = shapes.circleCount
        // The collection keeps its shapes in stacking order, the lines before the circles.
        line = { shapes[shapes.order[$0]]!.line! }
        circle = { shapes[shapes.order[lineCount + $0]]!.circle! }
        options = snapshot.options
    }
}
