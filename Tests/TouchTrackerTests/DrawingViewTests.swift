import Testing
import TouchKit
import TouchTracker

/// A window with a full-size drawing view, fed like the platform feeds it.
struct Canvas {
    let window = Window(frame: Rect(x: 0, y: 0, width: 800, height: 600))
    let view: DrawingView
    var time: TimeInterval = 0

    init(drawing: Drawing = Drawing()) {
        view = DrawingView(frame: window.bounds, drawing: drawing)
        window.addSubview(view)
    }

    mutating func send(_ id: UInt64, _ phase: TouchInput.Phase, _ x: Double, _ y: Double, after delay: Double = 0.02) {
        time += delay
        window.send(TouchInput(id: id, phase: phase, location: Point(x: x, y: y), timestamp: time))
    }

    /// A finger going down at `from`, moving in steps to `to`, and lifting there.
    mutating func stroke(_ id: UInt64, from: Point, to: Point, steps: Int = 4) {
        send(id, .began, from.x, from.y)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            send(id, .moved, from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t)
        }
        send(id, .ended, to.x, to.y)
    }
}

@Suite struct DrawingViewTests {
    @Test("a finger that moves beyond the slop completes one line from where it went down to where it lifted")
    func strokeMakesLine() {
        var canvas = Canvas()
        canvas.stroke(1, from: Point(x: 10, y: 20), to: Point(x: 300, y: 40))
        #expect(canvas.view.drawing.lines == [Line(begin: Point(x: 10, y: 20), end: Point(x: 300, y: 40))])
        #expect(canvas.view.tracker.linesInProgress.isEmpty)
    }

    @Test("two fingers down at once draw two lines, each keyed by its own touch")
    func twoFingers() {
        var canvas = Canvas()
        canvas.send(1, .began, 100, 100)
        canvas.send(2, .began, 100, 300)
        canvas.send(1, .moved, 200, 120)
        canvas.send(2, .moved, 250, 350)
        #expect(canvas.view.visibleLinesInProgress.count == 2)
        canvas.send(2, .ended, 260, 360)
        canvas.send(1, .ended, 210, 130)
        #expect(
            canvas.view.drawing.lines == [
                Line(begin: Point(x: 100, y: 300), end: Point(x: 260, y: 360)),
                Line(begin: Point(x: 100, y: 100), end: Point(x: 210, y: 130)),
            ])
    }

    @Test("a line in progress follows its finger and is not complete until the finger lifts")
    func inProgressFollowsFinger() {
        var canvas = Canvas()
        canvas.send(7, .began, 50, 50)
        canvas.send(7, .moved, 120, 80)
        #expect(canvas.view.visibleLinesInProgress == [Line(begin: Point(x: 50, y: 50), end: Point(x: 120, y: 80))])
        #expect(canvas.view.drawing.lines.isEmpty)
    }

    @Test("a tap leaves no line and no dot")
    func tapLeavesNothing() {
        var canvas = Canvas()
        canvas.send(1, .began, 50, 50)
        canvas.send(1, .moved, 55, 52)
        canvas.send(1, .ended, 55, 52)
        #expect(canvas.view.drawing.lines.isEmpty)
        #expect(canvas.view.tracker.linesInProgress.isEmpty)
    }

    @Test("movement of exactly the slop is still a tap; one pixel more draws")
    func slopBoundary() {
        var tap = Canvas()
        tap.send(1, .began, 100, 100)
        tap.send(1, .ended, 110, 100)
        #expect(tap.view.drawing.lines.isEmpty)
        var line = Canvas()
        line.send(1, .began, 100, 100)
        line.send(1, .ended, 111, 100)
        #expect(line.view.drawing.lines.count == 1)
    }

    @Test("a touch the system cancels completes its line at its last known point")
    func systemCancelKeepsLine() {
        var canvas = Canvas()
        canvas.send(3, .began, 10, 10)
        canvas.send(3, .moved, 90, 40)
        canvas.send(3, .cancelled, 0, 0)
        #expect(canvas.view.drawing.lines == [Line(begin: Point(x: 10, y: 10), end: Point(x: 90, y: 40))])
        #expect(canvas.view.tracker.linesInProgress.isEmpty)
    }

    @Test("cancelling every touch completes every visible line")
    func cancelAllCompletes() {
        var canvas = Canvas()
        canvas.send(1, .began, 10, 10)
        canvas.send(1, .moved, 90, 40)
        canvas.send(2, .began, 200, 200)
        canvas.send(2, .moved, 300, 200)
        canvas.window.cancelAllTouches()
        #expect(canvas.view.drawing.lines.count == 2)
        #expect(canvas.view.tracker.linesInProgress.isEmpty)
    }

    @Test("the mouse is one more touch: it draws beside a finger")
    func mouseIsATouch() {
        var canvas = Canvas()
        let mouseID: UInt64 = 1 << 62
        canvas.send(5, .began, 10, 10)
        canvas.send(mouseID, .began, 400, 400)
        canvas.send(5, .moved, 100, 10)
        canvas.send(mouseID, .moved, 500, 450)
        canvas.send(mouseID, .ended, 500, 450)
        canvas.send(5, .ended, 100, 10)
        #expect(canvas.view.drawing.lines.count == 2)
    }

    @Test("updates and ends for unknown touches are ignored")
    func unknownTouchesIgnored() {
        var canvas = Canvas()
        canvas.send(9, .moved, 10, 10)
        canvas.send(9, .ended, 100, 100)
        canvas.send(9, .cancelled, 100, 100)
        #expect(canvas.view.drawing.lines.isEmpty)
        #expect(canvas.view.tracker.linesInProgress.isEmpty)
    }

    @Test("every completed line is reported once for saving")
    func editReported() {
        var canvas = Canvas()
        var saved: [Int] = []
        canvas.view.onEdit = { saved.append($0.drawing.lines.count) }
        canvas.stroke(1, from: Point(x: 0, y: 0), to: Point(x: 100, y: 0))
        canvas.stroke(2, from: Point(x: 0, y: 50), to: Point(x: 100, y: 50))
        #expect(saved == [1, 2])
    }

    @Test("a line in progress damages the region it covers, not the whole window")
    func damageIsLocal() {
        var canvas = Canvas()
        _ = canvas.view.takeChanges()
        canvas.send(1, .began, 100, 100)
        canvas.send(1, .moved, 150, 100)
        let damage = canvas.view.takeChanges()
        #expect(damage.completeShapesChanged.isEmpty && !damage.everythingChanged)
        #expect(damage.region.bounds.width < 80)
        #expect(damage.region.contains(Point(x: 125, y: 100)))
    }

    @Test("moves between two frames damage where the line was shown and where it is now, as one band per frame")
    func movesBetweenFramesDamageOnce() {
        var canvas = Canvas()
        canvas.send(1, .began, 100, 100)
        canvas.send(1, .moved, 400, 100)
        _ = canvas.view.takeChanges()  // a frame showed the line from (100, 100) to (400, 100)
        canvas.send(1, .moved, 400, 300)
        canvas.send(1, .moved, 400, 500)
        let damage = canvas.view.takeChanges()
        #expect(damage.region.contains(Point(x: 390, y: 100)))  // where it was shown
        #expect(damage.region.contains(Point(x: 390, y: 498)))  // where it is now
        let shown = Line(begin: Point(x: 100, y: 100), end: Point(x: 400, y: 100))
        let now = Line(begin: Point(x: 100, y: 100), end: Point(x: 400, y: 500))
        #expect(damage.region.rects == DamageRegion.band(along: [shown, now], width: canvas.view.lineWidth).rects)
        #expect(damage.redrawnLinesInProgress == [1])
    }

    @Test("a line in progress that ends between two frames still has its shown place repainted")
    func endedLineRepaintsItsShownPlace() {
        var canvas = Canvas()
        canvas.send(1, .began, 100, 100)
        canvas.send(1, .moved, 400, 100)
        _ = canvas.view.takeChanges()
        canvas.send(1, .moved, 400, 500)
        canvas.send(1, .ended, 400, 500)
        #expect(canvas.view.takeChanges().region.contains(Point(x: 390, y: 100)))
    }
}

/// The double tap's clear keeps what it removed whole, so undo brings it back in constant time; IDs handed out after
/// a clear never collide with the cleared lines'.
@Suite struct ClearAndUndoTests {
    static let lines = (0..<50).map { Line(begin: Point(x: Double($0), y: 0), end: Point(x: Double($0), y: 100)) }

    @Test("undo of a clear brings back every line in its order, and the hit test finds them again")
    func undoRestoresEverything() {
        let view = Canvas(drawing: Drawing(lines: Self.lines)).view
        view.clearAll()
        #expect(view.drawing.lines.isEmpty && view.shape(at: Point(x: 10, y: 50)) == nil)
        view.undo()
        #expect(view.drawing.lines == Self.lines)
        #expect(view.shape(at: Point(x: 49, y: 50)) == view.shapes.order.last)
    }

    @Test("a line drawn after a clear and undone, then the clear undone: the drawing is as before the clear")
    func drawAfterClearThenUndoBoth() {
        var canvas = Canvas(drawing: Drawing(lines: Self.lines))
        let view = canvas.view
        let before = Set(view.shapes.order)
        view.clearAll()
        canvas.stroke(1, from: Point(x: 200, y: 200), to: Point(x: 300, y: 250))
        let newID = view.shapes.order.last!
        #expect(!before.contains(newID))
        view.undo()
        view.undo()
        #expect(view.drawing.lines == Self.lines)
        view.redo()
        view.redo()
        #expect(view.drawing.lines == [Line(begin: Point(x: 200, y: 200), end: Point(x: 300, y: 250))])
        #expect(view.shapes.order == [newID])
    }
}

/// A document read in the background goes under what was drawn while it loaded.
@Suite struct LoadingTests {
    @Test("a line drawn while the document loads stays on top of it, and undo still takes back just that line")
    func drawnWhileLoadingStaysOnTop() {
        let controller = DrawingController(size: Size(width: 800, height: 600), documentLoading: true)
        var reported: [Int] = []
        controller.send(TouchInput(id: 1, phase: .began, location: Point(x: 100, y: 100), timestamp: 0))
        controller.send(TouchInput(id: 1, phase: .moved, location: Point(x: 200, y: 100), timestamp: 0.05))
        controller.send(TouchInput(id: 1, phase: .ended, location: Point(x: 300, y: 100), timestamp: 0.1))
        controller.onEdit = { reported.append($0.drawing.lines.count) }
        let document = [Line(begin: Point(x: 100, y: 90), end: Point(x: 300, y: 110))]
        controller.adoptLoadedDocument(LoadedDocument(Drawing(lines: document, options: DrawingOptions(circles: true))))
        let view = controller.drawingView
        #expect(view.drawing.lines == document + [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))])
        #expect(view.options.circles)
        // The merged drawing was reported for saving at once (something was drawn meanwhile).
        #expect(reported == [2])
        // The topmost line at the crossing is the one drawn while loading.
        #expect(view.shape(at: Point(x: 200, y: 100)) == view.shapes.order.last)
        view.undo()
        #expect(view.drawing.lines == document)
    }

    @Test("a setting switched while the document loads is kept when it arrives, with the document's others, and saved")
    func settingSwitchedWhileLoadingIsKept() {
        let controller = DrawingController(size: Size(width: 800, height: 600), documentLoading: true)
        var saved: [DrawingOptions] = []
        controller.onEdit = { saved.append($0.options) }
        controller.handleKey(KeyCommand(key: "p"))
        controller.adoptLoadedDocument(LoadedDocument(Drawing(options: DrawingOptions(circles: true))))
        let options = controller.drawingView.options
        #expect(options.widthByPressure && options.circles)
        #expect(saved.last == options)
    }
}
