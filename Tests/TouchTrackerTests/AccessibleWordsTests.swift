import Testing
import TouchKit
import TouchTracker

/// What a screen reader is told of the drawing: shapes named by where they are and how big, counts in each
/// language's plural forms, and which shapes moved in place (DESIGN.md §3e).
@Suite struct AccessibleWordsTests {
    @Test("a circle whose box is square is named by its radius, an oval by its width and height")
    func ovalsAreNotCalledCircles() {
        let circle = Circle(frame: Rect(x: 50, y: 50, width: 100, height: 100))
        let oval = Circle(frame: Rect(x: 400, y: 100, width: 100, height: 60))
        #expect(Message.circleName(circle).description == "Circle at 100, 100, radius 50")
        #expect(Message.circleName(oval).description == "Oval at 450, 130, 100 by 60")
        #expect(Message.keyboardCircle(oval).description == "Drawing an oval at 450, 130, 100 by 60")
    }

    @Test("the drawing's counts take the form the language's plural rule chooses, not English's")
    func countsFollowTheLanguagesPluralRule() {
        // French: one form for 0 and 1, another from 2 on.
        let french = Translate(
            text: { ["Drawing, {1}": "Dessin, {1}", "Drawing, {1}, {2}": "Dessin, {1}, {2}"][$0] ?? $0 },
            plural: { one, _, count in
                let forms = ["{1} line": ["{1} ligne", "{1} lignes"], "{1} circle": ["{1} cercle", "{1} cercles"]]
                return forms[one]?[count > 1 ? 1 : 0] ?? one
            })
        #expect(Message.drawing(lines: 0, circles: 0).localized(french) == "Dessin, 0 ligne")
        #expect(Message.drawing(lines: 2, circles: 1).localized(french) == "Dessin, 2 lignes, 1 cercle")
        #expect(Message.drawing(lines: 1, circles: 2).description == "Drawing, 1 line, 2 circles")
        #expect(Message.drawing(lines: 0, circles: 0).description == "Drawing, 0 lines")
    }

    @Test("a move, its undo and its redo report the moved shape; a clear reports that anything may have changed")
    func movesInPlaceAreReported() throws {
        var canvas = Canvas(drawing: Drawing(lines: [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))]))
        let view = canvas.view
        let id = try #require(view.shapes.order.first)
        _ = view.takeReshapedShapes()
        view.select(id)
        view.nudgeSelectedShape(by: Point(x: 10, y: 0), joiningLastMove: false)
        #expect(view.takeReshapedShapes().shapes == [id])
        view.select(nil)
        #expect(view.takeReshapedShapes().isEmpty)
        view.undo()
        #expect(view.takeReshapedShapes().shapes == [id])
        view.redo()
        #expect(view.takeReshapedShapes().shapes == [id])
        canvas.stroke(7, from: Point(x: 10, y: 300), to: Point(x: 200, y: 300))
        #expect(view.takeReshapedShapes().isEmpty)
        view.clearAll()
        #expect(view.takeReshapedShapes().everything)
    }
}
