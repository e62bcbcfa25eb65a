import Testing
import TouchKit
import TouchTracker

/// A document another program changed on disk replaces the drawing on screen as one edit that can be undone.
@Suite struct ReloadTests {
    let mine = Line(begin: Point(x: 10, y: 20), end: Point(x: 300, y: 40))
    let theirs = [
        Line(begin: Point(x: 50, y: 50), end: Point(x: 60, y: 400)),
        Line(begin: Point(x: 500, y: 50), end: Point(x: 700, y: 90)),
    ]

    @Test("a reloaded document becomes the drawing on screen")
    func reloadReplacesTheDrawing() {
        var canvas = Canvas()
        canvas.stroke(1, from: mine.begin, to: mine.end)
        canvas.view.replaceDrawing(with: LoadedDocument(Drawing(lines: theirs)))
        #expect(canvas.view.drawing.lines == theirs)
    }

    @Test("undo after a reload brings back what was on screen before it, and redo the reloaded document")
    func undoAndRedoAReload() {
        var canvas = Canvas()
        canvas.stroke(1, from: mine.begin, to: mine.end)
        canvas.view.replaceDrawing(with: LoadedDocument(Drawing(lines: theirs)))
        canvas.view.undo()
        #expect(canvas.view.drawing.lines == [mine])
        canvas.view.redo()
        #expect(canvas.view.drawing.lines == theirs)
    }

    @Test("a reload while a shape's Delete menu is open closes the menu with the selection")
    func reloadClosesTheSelectionsMenu() {
        let controller = DrawingController(size: Size(width: 800, height: 600), drawing: Drawing(lines: [mine]))
        controller.handleKey(KeyCommand(key: "Tab"))
        controller.handleKey(KeyCommand(key: "Menu"))
        #expect(controller.menu?.items == MenuItem.selectionMenu)
        controller.replaceDrawing(with: LoadedDocument(Drawing(lines: theirs)))
        #expect(controller.drawingView.selection == nil)
        #expect(controller.menu == nil)
    }

    @Test("a reload is saved like any edit, and lines drawn after it go on top of the reloaded ones")
    func reloadIsAnEdit() {
        var canvas = Canvas()
        var saved: [Drawing] = []
        canvas.view.onEdit = { saved.append($0.drawing) }
        canvas.view.replaceDrawing(with: LoadedDocument(Drawing(lines: theirs)))
        canvas.stroke(1, from: mine.begin, to: mine.end)
        #expect(saved.map(\.lines) == [theirs, theirs + [mine]])
    }
}
