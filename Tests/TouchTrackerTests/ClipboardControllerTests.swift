import Testing
import TouchKit
import TouchTracker

/// Ctrl+C and Ctrl+V in the controller (DESIGN.md §2.10a): what is copied, where a paste lands, and that a paste is
/// one undoable edit. The X clipboard itself is tested end to end (ClipboardTests).
@Suite struct ClipboardControllerTests {
    let twoLines = Drawing(lines: [
        Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
        Line(begin: Point(x: 150, y: 150), end: Point(x: 250, y: 250)),
    ])

    private func controller(_ drawing: Drawing) -> DrawingController {
        DrawingController(size: Size(width: 800, height: 600), drawing: drawing)
    }

    @Test("Ctrl+C, Ctrl+Insert copy; Ctrl+V, Shift+Insert paste; C alone still opens the colour menu")
    func keys() {
        #expect(KeyMap.action(for: KeyCommand(key: "c", control: true)) == .copy)
        #expect(KeyMap.action(for: KeyCommand(key: "Insert", control: true)) == .copy)
        #expect(KeyMap.action(for: KeyCommand(key: "v", control: true)) == .paste)
        #expect(KeyMap.action(for: KeyCommand(key: "Insert", shift: true)) == .paste)
        #expect(KeyMap.action(for: KeyCommand(key: "c")) == .openColorMenu)
    }

    @Test("with nothing selected Ctrl+C copies the whole drawing and says so")
    func copiesTheDrawing() throws {
        let c = controller(twoLines)
        var copied: ClipboardShapes?
        c.onCopy = { copied = $0 }
        #expect(c.handleKey(KeyCommand(key: "c", control: true)))
        let shapes = try #require(copied)
        #expect(!shapes.isSelection)
        #expect(shapes.snapshot.drawing.lines == twoLines.lines)
        #expect(c.overlay.notice == .copiedDrawing)
    }

    @Test("with a line selected Ctrl+C copies that line alone")
    func copiesTheSelection() throws {
        let c = controller(twoLines)
        var copied: ClipboardShapes?
        c.onCopy = { copied = $0 }
        c.drawingView.select(c.drawingView.shape(at: Point(x: 200, y: 200)))
        c.handleKey(KeyCommand(key: "c", control: true))
        let shapes = try #require(copied)
        #expect(shapes.isSelection)
        #expect(shapes.snapshot.drawing.lines == [twoLines.lines[1]])
        #expect(c.overlay.notice == .copiedSelection)
    }

    @Test("Ctrl+C on an empty drawing copies nothing and says the drawing is empty")
    func emptyDrawingCopiesNothing() {
        let c = controller(Drawing())
        var calls = 0
        c.onCopy = { _ in calls += 1 }
        c.handleKey(KeyCommand(key: "c", control: true))
        #expect(calls == 0)
        #expect(c.overlay.notice == .nothingToCopy)
    }

    @Test("a paste lands centred on the point, on top of the drawing, and one undo takes all of it back")
    func pasteIsOneUndoableEdit() {
        let c = controller(Drawing(lines: [Line(begin: Point(x: 10, y: 10), end: Point(x: 50, y: 10))]))
        c.paste(twoLines.shapes, at: Point(x: 400, y: 300))
        // The strokes span (94, 94)...(306, 256) (10 px wide, a pixel of antialiasing): their middle is (200, 175).
        #expect(
            c.drawingView.drawing.lines.suffix(2) == [
                Line(begin: Point(x: 300, y: 225), end: Point(x: 500, y: 225)),
                Line(begin: Point(x: 350, y: 275), end: Point(x: 450, y: 375)),
            ])
        #expect(c.overlay.notice == .pasted(count: 2))
        c.handleKey(KeyCommand(key: "z", control: true))
        #expect(c.drawingView.drawing.lines.count == 1)
    }

    @Test("a paste is saved: onEdit sees the pasted shapes")
    func pasteIsSaved() {
        let c = controller(Drawing())
        var saved: Int?
        c.onEdit = { saved = $0.shapes.count }
        c.paste(twoLines.shapes, at: Point(x: 400, y: 300))
        #expect(saved == 2)
    }

    @Test("a paste far off the canvas stays within the coordinates a document may store")
    func pasteStaysStorable() {
        let placed = ClipboardShapes.placed(
            twoLines.shapes, centredOn: Point(x: 5_000_000, y: -5_000_000), defaultWidth: 10)
        for shape in placed {
            let bounds = shape.strokeBounds(defaultWidth: 10)
            #expect(bounds.maxX <= DocumentCodec.coordinateLimit && bounds.minY >= -DocumentCodec.coordinateLimit)
        }
    }

    @Test("a copy spanning the whole storable range pastes with every point still storable")
    func pasteOfTheWholeRangeStaysStorable() {
        let limit = DocumentCodec.coordinateLimit
        let shapes: [Shape] = [
            .line(Line(begin: Point(x: -limit, y: 0), end: Point(x: -limit, y: 10))),
            .line(Line(begin: Point(x: limit, y: 0), end: Point(x: limit, y: 10))),
        ]
        let placed = ClipboardShapes.placed(shapes, centredOn: Point(x: 400, y: 300), defaultWidth: 10)
        #expect(placed.allSatisfy { $0.isStorable })
    }

    @Test("pasting thousands of shapes marks the whole cache for a background repaint, not each stroke")
    func largePasteRepaintsInTheBackground() {
        let c = controller(Drawing())
        let lines = (0..<2000).map { Shape.line(Line(begin: Point(x: 0, y: Double($0)), end: Point(x: 50, y: 0))) }
        _ = c.drawingView.takeChanges()
        c.paste(lines, at: Point(x: 400, y: 300))
        #expect(c.drawingView.changes.everythingChanged)
        #expect(c.drawingView.shapes.count == 2000)
    }

    @Test("the clipboard's document reads back the shapes it was made from; other text is refused")
    func documentRoundTrip() throws {
        let shapes = ClipboardShapes(snapshot: DrawingSnapshot(twoLines), isSelection: false)
        #expect(try ClipboardShapes.shapes(fromDocument: shapes.documentBytes()) == twoLines.shapes)
        #expect(throws: DocumentError.self) { try ClipboardShapes.shapes(fromDocument: Array("hello".utf8)) }
    }

    @Test("an empty paste pastes nothing and says so")
    func emptyPaste() {
        let c = controller(twoLines)
        c.paste([], at: .zero)
        #expect(c.drawingView.shapes.count == 2)
        #expect(c.overlay.notice == .nothingToPaste)
    }

    @Test("a paste prepared off the event loop goes on top as one edit, and one undo takes it back")
    func preparedPasteIsOneEdit() {
        let c = controller(twoLines)
        let placed = c.placedForPaste(twoLines.shapes, at: Point(x: 400, y: 300))
        let prepared = PreparedPaste(placed, onto: c.drawingView.shapes)
        #expect(c.paste(prepared))
        #expect(c.drawingView.drawing.lines.count == 4)
        #expect(c.drawingView.drawing.lines.suffix(2) == placed.compactMap(\.line))
        #expect(c.drawingView.changes.everythingChanged)
        c.handleKey(KeyCommand(key: "z", control: true))
        #expect(c.drawingView.drawing.lines == twoLines.lines)
        c.handleKey(KeyCommand(key: "y", control: true))
        #expect(c.drawingView.drawing.lines.count == 4)
    }

    @Test("a prepared paste is refused, changing nothing, when the drawing changed after it was prepared")
    func stalePreparedPasteIsRefused() {
        let c = controller(twoLines)
        let prepared = PreparedPaste(twoLines.shapes, onto: c.drawingView.shapes)
        c.drawingView.add([.line(Line(begin: Point(x: 1, y: 1), end: Point(x: 30, y: 30)))])
        #expect(!c.paste(prepared))
        #expect(c.drawingView.drawing.lines.count == 3)
    }
}
