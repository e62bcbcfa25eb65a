import Testing
import TouchKit

@testable import TouchTracker

/// Drawing and selecting without a pointer (DESIGN.md §2.17), through the same controller and edits as touch.
@Suite struct KeyboardDrawingTests {
    /// A 400x300 window's controller, with every edit it reports counted.
    final class Keyboard {
        let controller: DrawingController
        var edits = 0

        init(drawing: Drawing = Drawing()) {
            controller = DrawingController(size: Size(width: 400, height: 300), drawing: drawing)
            controller.onEdit = { [unowned self] _ in edits += 1 }
        }

        @discardableResult
        func press(_ key: String, shift: Bool = false, times: Int = 1) -> Bool {
            var handled = true
            for _ in 0..<times { handled = controller.handleKey(KeyCommand(key: key, shift: shift)) && handled }
            return handled
        }

        var lines: [Line] { controller.drawingView.drawing.lines }
        var cursor: Point { controller.keyboard.location }
    }

    static let twoLines = Drawing(lines: [
        Line(begin: Point(x: 20, y: 20), end: Point(x: 120, y: 20)),
        Line(begin: Point(x: 20, y: 200), end: Point(x: 220, y: 280)),
    ])

    @Test("the cursor starts at the window's centre, hidden, and the arrows move it 10 px, 1 px with Shift")
    func arrowsMoveTheCursor() {
        let keyboard = Keyboard()
        #expect(keyboard.cursor == Point(x: 200, y: 150) && !keyboard.controller.keyboard.isShown)
        keyboard.press("Right", times: 3)
        keyboard.press("Up", shift: true, times: 2)
        #expect(keyboard.cursor == Point(x: 230, y: 148))
        #expect(keyboard.controller.keyboard.isShown)
        #expect(keyboard.controller.overlay.keyboardCursor == Point(x: 230, y: 148))
    }

    @Test("the cursor goes on past the window's edge, and the view follows it")
    func cursorGoesPastTheEdgeAndTheViewFollows() {
        let keyboard = Keyboard()
        keyboard.press("Left", times: 50)
        keyboard.press("Down", times: 50)
        #expect(keyboard.cursor == Point(x: -300, y: 650))
        let shown = keyboard.controller.viewport.windowPoint(of: keyboard.cursor)
        #expect(keyboard.controller.window.bounds.insetBy(dx: 20, dy: 20).contains(shown), "\(shown)")
    }

    @Test("Space starts a line at the cursor, the arrows move its end live, Space finishes it as one undoable edit")
    func spaceArrowsSpaceDrawsALine() {
        let keyboard = Keyboard()
        keyboard.press("space")
        keyboard.press("Right", times: 10)
        #expect(keyboard.controller.drawingView.tracker.linesInProgress[KeyboardCursor.lineTouch]?.isVisible == true)
        #expect(keyboard.lines.isEmpty && keyboard.edits == 0)
        keyboard.press("space")
        #expect(keyboard.lines == [Line(begin: Point(x: 200, y: 150), end: Point(x: 300, y: 150))])
        #expect(keyboard.edits == 1)
        keyboard.controller.handleKey(KeyCommand(key: "z", control: true))
        #expect(keyboard.lines.isEmpty)
    }

    @Test("Shift+Space starts a circle at the cursor, the arrows move its opposite corner, Space finishes it")
    func shiftSpaceArrowsSpaceDrawsACircle() {
        let keyboard = Keyboard()
        keyboard.press("space", shift: true)
        keyboard.press("Right", times: 10)
        keyboard.press("Down", times: 6)
        #expect(keyboard.controller.drawingView.tracker.visibleCirclesInProgress.count == 1)
        keyboard.press("space")
        #expect(
            keyboard.controller.drawingView.drawing.circles == [
                Circle(corner: Point(x: 200, y: 150), opposite: Point(x: 300, y: 210))
            ])
        #expect(keyboard.lines.isEmpty && keyboard.edits == 1)
        keyboard.controller.handleKey(KeyCommand(key: "z", control: true))
        #expect(keyboard.controller.drawingView.drawing.circles.isEmpty)
    }

    @Test("Shift+Space draws a circle with two-finger circles off: it was asked for, not paired")
    func keyboardCircleNeedsNoCirclesOption() {
        let keyboard = Keyboard()
        #expect(!keyboard.controller.drawingView.document.options.circles)
        keyboard.press("space", shift: true)
        keyboard.press("Left", times: 5)
        keyboard.press("space", shift: true)
        #expect(keyboard.controller.drawingView.drawing.circles.count == 1)
    }

    @Test("Escape cancels the keyboard's circle: nothing is drawn, and its corners draw nothing more")
    func escapeCancelsTheCircle() {
        let keyboard = Keyboard()
        keyboard.press("space", shift: true)
        keyboard.press("Up", times: 5)
        keyboard.press("Escape")
        keyboard.press("Up", times: 5)
        #expect(keyboard.controller.drawingView.tracker.circlesInProgress.isEmpty)
        #expect(keyboard.controller.drawingView.drawing.circles.isEmpty && keyboard.edits == 0)
    }

    @Test("a keyboard circle smaller than a tap leaves nothing")
    func tinyKeyboardCircleLeavesNothing() {
        let keyboard = Keyboard()
        keyboard.press("space", shift: true)
        keyboard.press("Right", shift: true, times: 3)
        keyboard.press("space")
        #expect(keyboard.controller.drawingView.drawing.circles.isEmpty && keyboard.edits == 0)
        #expect(keyboard.controller.drawingView.tracker.circlesInProgress.isEmpty)
    }

    @Test("Escape cancels the keyboard's line in progress: nothing is drawn and nothing saved")
    func escapeCancelsTheLine() {
        let keyboard = Keyboard()
        keyboard.press("space")
        keyboard.press("Down", times: 5)
        keyboard.press("Escape")
        #expect(keyboard.controller.drawingView.tracker.linesInProgress.isEmpty)
        keyboard.press("space")
        #expect(keyboard.lines.isEmpty && keyboard.edits == 0)
        #expect(keyboard.controller.keyboard.isDrawing)
    }

    @Test("a screen reader's select while the keyboard draws a line finishes the line, then selects")
    func selectFinishesTheKeyboardLine() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        let first = keyboard.controller.drawingView.shapes.order[0]
        keyboard.press("space")
        keyboard.press("Right", times: 10)
        keyboard.controller.select(first)
        #expect(keyboard.lines.count == 3)
        #expect(!keyboard.controller.keyboard.isDrawing)
        #expect(keyboard.controller.drawingView.selection == first)
    }

    @Test("the menu a key opens has its first item highlighted; one a tap opens has none")
    func keyOpenedMenuIsHighlighted() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        keyboard.press("F2")
        #expect(keyboard.controller.menu?.highlightedIndex == 0)
        keyboard.press("Down")
        #expect(keyboard.controller.menu?.highlightedIndex == 1)
        keyboard.press("Escape")
        keyboard.controller.contextClick(at: Point(x: 300, y: 100))
        #expect(keyboard.controller.menu != nil && keyboard.controller.menu?.highlightedIndex == nil)
    }

    @Test("Tab selects the shapes oldest first and wraps; Shift+Tab goes back; the cursor goes to each one's middle")
    func tabWalksTheShapes() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        let ids = keyboard.controller.drawingView.shapes.order
        keyboard.press("Tab")
        #expect(keyboard.controller.drawingView.selection == ids[0])
        #expect(keyboard.cursor == Point(x: 70, y: 20))
        keyboard.press("Tab")
        #expect(keyboard.controller.drawingView.selection == ids[1])
        keyboard.press("Tab")
        #expect(keyboard.controller.drawingView.selection == ids[0])
        keyboard.press("Tab", shift: true)
        #expect(keyboard.controller.drawingView.selection == ids[1])
        keyboard.press("ISO_Left_Tab")
        #expect(keyboard.controller.drawingView.selection == ids[0])
    }

    @Test("Tab reaches every shape of a drawing of lines and circles, once each before it wraps, and Shift+Tab too")
    func tabReachesEveryCircle() {
        let circles = (0..<3).map {
            Circle(frame: Rect(x: 50 + Double($0) * 100, y: 200, width: 40, height: 40))
        }
        let keyboard = Keyboard(drawing: Drawing(lines: Self.twoLines.lines, circles: circles))
        let order = keyboard.controller.drawingView.shapes.order
        var forward: [ShapeID] = []
        for _ in order {
            keyboard.press("Tab")
            forward += [keyboard.controller.drawingView.selection].compactMap { $0 }
        }
        #expect(forward == order)
        var backward: [ShapeID] = []
        for _ in order {
            keyboard.press("Tab", shift: true)
            backward += [keyboard.controller.drawingView.selection].compactMap { $0 }
        }
        #expect(backward == Array(order.reversed().dropFirst()) + [order.last!])
    }

    @Test("the arrows move the selected shape, each press saved, and a run of presses is one undo step")
    func arrowsMoveTheSelectionAsOneUndoStep() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        keyboard.press("Tab")
        keyboard.press("Right", times: 3)
        keyboard.press("Down", shift: true, times: 2)
        #expect(keyboard.lines[0] == Line(begin: Point(x: 50, y: 22), end: Point(x: 150, y: 22)))
        #expect(keyboard.edits == 5)
        #expect(keyboard.cursor == Point(x: 100, y: 22))
        keyboard.controller.handleKey(KeyCommand(key: "z", control: true))
        #expect(keyboard.lines[0] == Self.twoLines.lines[0])
        #expect(!keyboard.controller.drawingView.undoStack.canUndo)
    }

    /// The selected shape's stroke box (what the window shows of it).
    static func box(_ keyboard: Keyboard) -> Rect {
        let view = keyboard.controller.drawingView
        return view.selection.flatMap { view.shapes[$0] }?.strokeBounds(defaultWidth: view.lineWidth) ?? .null
    }

    @Test("the arrows move the selected shape past the window's edge, and the view keeps it in sight")
    func arrowsMoveAShapePastTheEdgeInView() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        keyboard.press("Tab")
        let start = Self.box(keyboard)
        keyboard.press("Left", times: 30)
        #expect(Self.box(keyboard).minX == start.minX - 300)
        let shown = keyboard.controller.viewport.windowRect(of: Self.box(keyboard))
        #expect(keyboard.controller.window.bounds.contains(shown.origin), "\(shown)")
    }

    @Test("two runs of arrow presses, another key between them, are two undo steps")
    func separateRunsAreSeparateSteps() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        keyboard.press("Tab")
        keyboard.press("Right", times: 2)
        keyboard.press("F1")
        keyboard.press("Right", times: 2)
        keyboard.controller.handleKey(KeyCommand(key: "z", control: true))
        #expect(keyboard.lines[0].begin == Point(x: 40, y: 20))
    }

    @Test("Delete deletes the shape Tab selected; Escape deselects; Ctrl+Z brings it back")
    func deleteAndDeselectFromTheKeyboard() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        keyboard.press("Tab")
        keyboard.press("Tab")
        keyboard.press("Escape")
        #expect(keyboard.controller.drawingView.selection == nil)
        keyboard.press("Tab")
        keyboard.press("Delete")
        #expect(keyboard.lines == [Self.twoLines.lines[1]])
        keyboard.controller.handleKey(KeyCommand(key: "z", control: true))
        #expect(keyboard.lines.count == 2)
    }

    @Test("Menu opens the selected shape's menu, Up/Down/Return choose in it, and the arrows do not move the shape")
    func menuFromTheKeyboard() {
        let keyboard = Keyboard(drawing: Self.twoLines)
        keyboard.press("Tab")
        keyboard.press("Menu")
        #expect(keyboard.controller.menu?.items.map(\.title) == ["Delete"])
        keyboard.press("Down")
        keyboard.press("Return")
        #expect(keyboard.lines == [Self.twoLines.lines[1]])
    }

    @Test("the gesture inspector shows the keyboard cursor, and whether it draws")
    func inspectorShowsTheKeyboard() {
        let keyboard = Keyboard()
        keyboard.press("F1")
        #expect(keyboard.controller.inspector?.keyboard == nil)
        keyboard.press("space")
        keyboard.press("Left")
        #expect(
            keyboard.controller.inspector?.keyboard
                == InspectorSnapshot.KeyboardMark(location: Point(x: 190, y: 150), isDrawing: true))
    }

    @Test("a replay script of key events draws, selects, moves and deletes as the keys do")
    func replayScriptsReproduceTheKeyboard() throws {
        let script = """
            {"t": 0.0, "key": "space"}
            {"t": 0.1, "key": "Right"}
            {"t": 0.2, "key": "Right"}
            {"t": 0.3, "key": "shift+Down"}
            {"t": 0.4, "key": "space"}
            {"t": 0.5, "key": "space"}
            {"t": 0.6, "key": "Up"}
            {"t": 0.7, "key": "Up"}
            {"t": 0.8, "key": "Escape"}
            {"t": 0.9, "key": "Tab"}
            {"t": 1.0, "key": "Left"}
            """
        let controller = DrawingController(size: Size(width: 400, height: 300))
        ReplayRunner.run(try ReplayScript.parse(script), on: controller)
        #expect(
            controller.drawingView.drawing.lines == [Line(begin: Point(x: 190, y: 150), end: Point(x: 210, y: 151))])
        #expect(controller.snapshot.selectedLine == 0)
    }
}

/// The keyboard's line beside fingers and clears.
@Suite struct KeyboardLineEdgeTests {
    @Test("a finger put down just after Space starts the keyboard's line draws its own line: no circle is paired")
    func keyboardLineIsNeverPairedIntoACircle() {
        let controller = DrawingController(
            size: Size(width: 400, height: 300), drawing: Drawing(options: DrawingOptions(circles: true)))
        controller.handleKey(KeyCommand(key: "space"))
        let time = controller.window.clock.now
        controller.send(TouchInput(id: 1, phase: .began, location: Point(x: 20, y: 20), timestamp: time + 0.01))
        #expect(controller.drawingView.tracker.circlesInProgress.isEmpty)
        #expect(controller.drawingView.tracker.linesInProgress[KeyboardCursor.lineTouch] != nil)
    }

    @Test("a double tap that clears everything ends the keyboard's line too: Space then starts a new one")
    func clearEndsTheKeyboardLine() {
        let controller = DrawingController(size: Size(width: 400, height: 300))
        controller.handleKey(KeyCommand(key: "space"))
        for step in 0..<2 {
            let time = controller.window.clock.now + 0.05 + Double(step) * 0.1
            controller.advanceTime(to: time)
            controller.send(
                TouchInput(id: UInt64(10 + step), phase: .began, location: Point(x: 50, y: 50), timestamp: time))
            controller.send(
                TouchInput(id: UInt64(10 + step), phase: .ended, location: Point(x: 50, y: 50), timestamp: time + 0.02))
        }
        controller.advanceTime(to: controller.window.clock.now + 1)
        #expect(!controller.keyboard.isDrawing)
    }

    @Test("an assistive client's delete closes an open menu first, as the menu's Delete does")
    func assistiveDeleteClosesTheMenu() {
        let controller = DrawingController(
            size: Size(width: 400, height: 300),
            drawing: Drawing(lines: [Line(begin: Point(x: 20, y: 20), end: Point(x: 200, y: 20))]))
        controller.handleKey(KeyCommand(key: "Tab"))
        controller.handleKey(KeyCommand(key: "Menu"))
        #expect(controller.menu != nil)
        controller.delete(controller.drawingView.shapes.order[0])
        #expect(controller.menu == nil)
        #expect(controller.drawingView.shapes.isEmpty)
    }
}
