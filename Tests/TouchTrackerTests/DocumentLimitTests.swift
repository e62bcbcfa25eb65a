import JSON
import Testing
import TouchKit
import TouchTracker

/// What the app can draw, paste or save it can open: the limits the reader keeps to
/// (`DocumentCodec.maximumLineCount`, `maximumCircleCount`, `maximumFileSize`) are the ones the controller keeps to,
/// and a file holding the most shapes, each as long as one can be written, is not too large to read.
@Suite struct DocumentLimitTests {
    /// Small limits, so a full drawing takes no time to make; the real ones are the same code with other numbers.
    let limits = DocumentLimits(lines: 3, circles: 2)

    func line(_ index: Int) -> Line {
        Line(begin: Point(x: 10, y: 10 + Double(index) * 20), end: Point(x: 110, y: 10 + Double(index) * 20))
    }

    func circle(_ index: Int) -> Circle {
        Circle(frame: Rect(x: 500 + Double(index) * 10, y: 100, width: 50, height: 50))
    }

    /// A controller on `lines` lines and `circles` circles, with circles on.
    func controller(lines: Int, circles: Int, limits: DocumentLimits? = nil) -> DrawingController {
        DrawingController(
            size: Size(width: 800, height: 600),
            drawing: Drawing(
                lines: (0..<lines).map(line), circles: (0..<circles).map(circle),
                options: DrawingOptions(circles: true)),
            limits: limits ?? self.limits)
    }

    func send(_ c: DrawingController, _ id: UInt64, _ phase: TouchInput.Phase, _ x: Double, _ y: Double, _ t: Double) {
        c.advanceTime(to: t)
        c.send(TouchInput(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t))
    }

    /// One finger drawing a line from (100, 400) to (300, 400), starting at `t`.
    func drawLine(_ c: DrawingController, at t: Double) {
        send(c, 1, .began, 100, 400, t)
        send(c, 1, .moved, 200, 400, t + 0.05)
        send(c, 1, .moved, 300, 400, t + 0.1)
        send(c, 1, .ended, 300, 400, t + 0.15)
    }

    /// Two fingers going down together: a circle from (100, 300) to (250, 450), starting at `t`.
    func drawCircle(_ c: DrawingController, at t: Double) {
        send(c, 1, .began, 120, 320, t)
        send(c, 2, .began, 230, 430, t + 0.02)
        send(c, 1, .moved, 100, 300, t + 0.1)
        send(c, 2, .moved, 250, 450, t + 0.1)
        #expect(c.drawingView.visibleCirclesInProgress.count == 1)
        send(c, 1, .ended, 100, 300, t + 0.2)
        send(c, 2, .ended, 250, 450, t + 0.2)
    }

    /// What must not change when an edit is refused.
    struct State: Equatable {
        var drawing: Drawing
        var undoCount: Int
        var redoCount: Int

        init(_ c: DrawingController) {
            drawing = c.drawingView.drawing
            undoCount = c.drawingView.undoStack.undoEdits.count
            redoCount = c.drawingView.undoStack.redoEdits.count
        }
    }

    // MARK: Drawing

    @Test("a drawing holding the most lines refuses one more: the line in progress is dropped and a notice says so")
    func fullOfLinesRefusesALine() {
        let c = controller(lines: 2, circles: 0)
        drawLine(c, at: 0)
        #expect(c.drawingView.shapes.lineCount == 3)
        let full = State(c)
        var saves = 0
        c.onEdit = { _ in saves += 1 }
        drawLine(c, at: 2)
        #expect(State(c) == full)
        #expect(saves == 0)
        #expect(c.drawingView.visibleLinesInProgress.isEmpty)
        #expect(c.overlay.notice == .drawingFull(.line, limit: 3))
        #expect(c.notice == "The drawing is full: at most 3 lines")
        // Undo makes room again; redo goes back to the full drawing, never past it.
        c.handleKey(KeyCommand(key: "z", control: true))
        #expect(c.drawingView.shapes.lineCount == 2)
        c.handleKey(KeyCommand(key: "y", control: true))
        #expect(c.drawingView.drawing == full.drawing)
    }

    @Test("two lines finishing together with room for one: the first is kept, the second dropped with the notice")
    func twoFingersWithRoomForOne() {
        let c = controller(lines: 2, circles: 0)
        send(c, 1, .began, 100, 400, 0)
        send(c, 2, .began, 100, 500, 0.3)
        send(c, 1, .moved, 300, 400, 0.4)
        send(c, 2, .moved, 300, 500, 0.4)
        send(c, 1, .ended, 300, 400, 0.5)
        send(c, 2, .ended, 300, 500, 0.5)
        #expect(
            c.drawingView.drawing.lines == [
                line(0), line(1), Line(begin: Point(x: 100, y: 400), end: Point(x: 300, y: 400)),
            ])
        #expect(c.overlay.notice == .drawingFull(.line, limit: 3))
    }

    @Test("a drawing holding the most circles refuses one more; lines still fit")
    func fullOfCirclesRefusesACircle() {
        let c = controller(lines: 0, circles: 1)
        drawCircle(c, at: 0)
        #expect(c.drawingView.shapes.circleCount == 2)
        let full = State(c)
        drawCircle(c, at: 2)
        #expect(State(c) == full)
        #expect(c.drawingView.visibleCirclesInProgress.isEmpty)
        #expect(c.overlay.notice == .drawingFull(.circle, limit: 2))
        #expect(c.notice == "The drawing is full: at most 2 circles")
        drawLine(c, at: 4)
        #expect(c.drawingView.shapes.lineCount == 1)
    }

    @Test("at the real limits a drawn line is refused with the notice the window shows")
    func realLimitNotice() {
        #expect(DrawingController(size: Size(width: 10, height: 10)).limits == .document)
        #expect(DocumentLimits.document.lines == DocumentCodec.maximumLineCount)
        #expect(DocumentLimits.document.circles == DocumentCodec.maximumCircleCount)
        #expect(
            Message.drawingFull(.line, limit: 1_000_000).description == "The drawing is full: at most 1,000,000 lines")
        #expect(
            Message.pasteTooLarge(.circle, limit: 1_000_000).description
                == "Not pasted: the drawing would hold more than 1,000,000 circles")
        #expect(Message.drawingFull(.line, limit: 999).description == "The drawing is full: at most 999 lines")
        #expect(Message.drawingFull(.line, limit: 1000).description == "The drawing is full: at most 1,000 lines")
    }

    // MARK: Pasting

    @Test("a paste that would pass the line limit is refused whole: nothing changes, not even the undo history")
    func pastePastTheLimitIsRefused() {
        let c = controller(lines: 1, circles: 0)
        let full = State(c)
        c.paste([.line(line(5)), .line(line(6)), .line(line(7)), .circle(circle(0))], at: Point(x: 400, y: 300))
        #expect(State(c) == full)
        #expect(c.overlay.notice == .pasteTooLarge(.line, limit: 3))
        #expect(c.notice == "Not pasted: the drawing would hold more than 3 lines")
    }

    @Test("a paste that brings the drawing exactly to the limits is pasted")
    func pasteReachingTheLimitIsPasted() {
        let c = controller(lines: 1, circles: 1)
        c.paste([.line(line(5)), .line(line(6)), .circle(circle(1))], at: Point(x: 400, y: 300))
        #expect(c.drawingView.shapes.lineCount == 3)
        #expect(c.drawingView.shapes.circleCount == 2)
        #expect(c.overlay.notice == .pasted(count: 3))
    }

    @Test("a paste that would pass the circle limit is refused whole")
    func pastePastTheCircleLimitIsRefused() {
        let c = controller(lines: 0, circles: 1)
        let full = State(c)
        c.paste([.line(line(5)), .circle(circle(1)), .circle(circle(2))], at: Point(x: 400, y: 300))
        #expect(State(c) == full)
        #expect(c.overlay.notice == .pasteTooLarge(.circle, limit: 2))
    }

    @Test(
        "a prepared paste past the limits is refused whole and reported done (true), so the window does not prepare it again; one that fits is pasted"
    )
    func preparedPaste() {
        let c = controller(lines: 2, circles: 1)
        let full = State(c)
        let tooMany = PreparedPaste([.line(line(5)), .line(line(6))], onto: c.drawingView.shapes)
        #expect(tooMany.lineCount == 2 && tooMany.circleCount == 0)
        #expect(c.paste(tooMany))
        #expect(State(c) == full)
        #expect(c.overlay.notice == .pasteTooLarge(.line, limit: 3))
        let circles = PreparedPaste([.circle(circle(3)), .circle(circle(4))], onto: c.drawingView.shapes)
        #expect(c.paste(circles))
        #expect(State(c) == full)
        #expect(c.overlay.notice == .pasteTooLarge(.circle, limit: 2))
        // The view refuses it too, changing nothing, if anyone asks it directly.
        #expect(!c.drawingView.paste(tooMany))
        #expect(!c.drawingView.add(tooMany.shapes))
        #expect(State(c) == full)

        let fits = PreparedPaste([.line(line(5)), .circle(circle(3))], onto: c.drawingView.shapes)
        #expect(c.paste(fits))
        #expect(c.drawingView.shapes.lineCount == 3 && c.drawingView.shapes.circleCount == 2)
        #expect(c.overlay.notice == .pasted(count: 2))
    }

    @Test("a stale prepared paste that fits the drawing as it is now is still prepared again (false)")
    func stalePreparedPasteThatFits() {
        let c = controller(lines: 1, circles: 0)
        let prepared = PreparedPaste([.line(line(5))], onto: c.drawingView.shapes)
        drawLine(c, at: 0)
        #expect(!c.paste(prepared))
        #expect(c.drawingView.shapes.lineCount == 2)
        // Prepared again on the drawing as it is: it fits exactly.
        #expect(c.paste(PreparedPaste(prepared.shapes, onto: c.drawingView.shapes)))
        #expect(c.drawingView.shapes.lineCount == 3)
    }

    @Test("a stale prepared paste that no longer fits is refused for good (true), whatever it was prepared on")
    func stalePreparedPasteThatNoLongerFits() {
        let c = controller(lines: 1, circles: 0)
        let prepared = PreparedPaste([.line(line(5)), .line(line(6))], onto: c.drawingView.shapes)
        drawLine(c, at: 0)
        let before = State(c)
        #expect(c.paste(prepared))
        #expect(State(c) == before)
        #expect(c.overlay.notice == .pasteTooLarge(.line, limit: 3))
    }

    @Test("a replay script goes through the same controller: its strokes past the limit are dropped")
    func replayKeepsTheLimit() throws {
        let c = controller(lines: 2, circles: 0)
        let script = """
            {"t": 0.0, "id": 1, "phase": "began", "x": 100, "y": 400}
            {"t": 0.1, "id": 1, "phase": "moved", "x": 300, "y": 400}
            {"t": 0.2, "id": 1, "phase": "ended", "x": 300, "y": 400}
            {"t": 1.0, "id": 2, "phase": "began", "x": 100, "y": 500}
            {"t": 1.1, "id": 2, "phase": "moved", "x": 300, "y": 500}
            {"t": 1.2, "id": 2, "phase": "ended", "x": 300, "y": 500}
            """
        ReplayRunner.run(try ReplayScript.parse(script), on: c)
        #expect(c.snapshot.drawing.lines.count == 3)
        #expect(c.snapshot.drawing.lines.last == Line(begin: Point(x: 100, y: 400), end: Point(x: 300, y: 400)))
    }

    // MARK: The file

    /// The longest text `DocumentCodec` writes for a number among values a document may hold: at the coordinate
    /// limit, just inside it, near the edges of the fast writer's range, and tiny ones written with an exponent.
    static let longNumbers: [Double] = [
        -DocumentCodec.coordinateLimit, -DocumentCodec.coordinateLimit.nextDown, -999_999.999_999_999_9,
        -(0x1p20).nextDown, -(0x1p-10).nextUp, -(0x1p-10).nextDown, -0.000_123_456_789_012_345_67, -(1e-4).nextDown,
        -(1e-5).nextUp, -2.225_073_858_507_201_4e-308, -1.234_567_890_123_456_7e-300, -(1e-300).nextUp,
        -Double.leastNonzeroMagnitude, -Double.leastNormalMagnitude.nextDown, -1.000_000_000_000_000_2,
        -123_456.789_012_345_67,
    ]

    static func text(of number: Double) -> [UInt8] {
        var out = JSONWriter()
        DocumentCodec.appendNumber(number, to: &out)
        return out.bytes
    }

    /// The longest numbers the encoder writes for a coordinate (any sign) and for a size or width (positive).
    static var longestCoordinate: Double { longNumbers.max { text(of: $0).count < text(of: $1).count }! }
    static var longestPositive: Double { -longestCoordinate }

    /// A line and a circle whose every field is written as long as it can be.
    static var worstLine: Line {
        let x = longestCoordinate
        return Line(
            begin: Point(x: x, y: x), end: Point(x: x, y: x), color: LineColor(red: 1, green: 2, blue: 3),
            width: longestPositive)
    }

    static var worstCircle: Circle {
        // Origin and size cancel exactly, so the frame is stored (and read back) as given.
        Circle(
            frame: Rect(x: longestCoordinate, y: longestCoordinate, width: longestPositive, height: longestPositive),
            color: LineColor(red: 1, green: 2, blue: 3), width: longestPositive)
    }

    @Test("the longest numbers a document holds are 24 bytes and read back exactly")
    func longestNumbers() throws {
        #expect(Self.text(of: Self.longestCoordinate).count == 24)
        #expect(Self.text(of: Self.longestPositive).count == 23)
        let drawing = Drawing(lines: [Self.worstLine], circles: [Self.worstCircle])
        #expect(drawing.circles[0].frame.width == Self.longestPositive)
        #expect(try DocumentCodec.decode(DocumentCodec.encode(drawing)) == drawing)
    }

    @Test(
        "the most lines and circles, each written as long as a shape can be, with every option, fit in maximumFileSize"
    )
    func mostShapesFitTheFileLimit() throws {
        let allOptions = DrawingOptions(
            circles: true, colorByAngle: true, widthBySpeed: true, widthByPressure: true,
            color: LineColor(red: 1, green: 2, blue: 3))
        func size(lines: Int, circles: Int) -> Int {
            DocumentCodec.encode(
                Drawing(
                    lines: Array(repeating: Self.worstLine, count: lines),
                    circles: Array(repeating: Self.worstCircle, count: circles), options: allOptions)
            ).count
        }
        // Every line after the first adds the same text (a comma, an indent, the line), and so every circle.
        let one = size(lines: 1, circles: 1)
        let lineText = size(lines: 2, circles: 1) - one
        let circleText = size(lines: 1, circles: 2) - one
        #expect(size(lines: 3, circles: 3) == one + 2 * lineText + 2 * circleText)
        let largest =
            one + (DocumentCodec.maximumLineCount - 1) * lineText + (DocumentCodec.maximumCircleCount - 1) * circleText
        #expect(largest <= DocumentCodec.maximumFileSize, "\(lineText) bytes a line, \(circleText) a circle")
        // The limit follows the shapes: not much more than they need.
        #expect(Double(DocumentCodec.maximumFileSize) < Double(largest) * 1.2)
    }

    @Test("a drawing holding the most lines a document may round-trips through DocumentCodec.encode and decode")
    func fullDrawingRoundTrips() throws {
        // A million lines take ~5 s in a debug build; a million circles would take ~15 s more (the reader takes
        // circles through the JSON tree), so the circles' limit is checked on its own (`tooManyCircles`).
        let lines = (0..<DocumentCodec.maximumLineCount).map { (index: Int) -> Line in
            let color: LineColor? = index % 7 == 0 ? .blue : nil
            let width: Double? = index % 5 == 0 ? 2.5 : nil
            let begin = Point(x: Double(index % 1000), y: 1.5)
            return Line(begin: begin, end: Point(x: -3, y: Double(index / 1000)), color: color, width: width)
        }
        let circles = (0..<10).map { (index: Int) -> Circle in
            Circle(frame: Rect(x: Double(index), y: 2, width: 3, height: 4), color: .red)
        }
        let drawing = Drawing(lines: lines, circles: circles)
        let text = DocumentCodec.encode(drawing)
        #expect(text.count <= DocumentCodec.maximumFileSize)
        #expect(try DocumentCodec.decode(text) == drawing)
    }

    @Test("one circle more than a document may hold is refused, and says circles")
    func tooManyCircles() {
        // The count is checked before any circle is looked at, so the cheapest circles do.
        var text = Array(#"{"version": 1, "lines": [], "circles": [0"#.utf8)
        text.reserveCapacity(2_000_100)
        for _ in 0..<DocumentCodec.maximumCircleCount { text += [0x2C, 0x30] }
        text += Array("]}".utf8)
        #expect(throws: DocumentError.tooManyCircles(1_000_001, limit: 1_000_000)) {
            try DocumentCodec.decode(text)
        }
        #expect(
            DocumentError.tooManyCircles(1_000_001, limit: 1_000_000).description
                == "1000001 circles is more than the 1000000 a document may hold")
    }
}

/// A full document read while the window already took strokes.
@Suite struct LoadingLimitTests {
    @Test("a document read with no room left for what was drawn while it loaded is kept whole, and the notice says so")
    func earlyStrokesDoNotPassTheLimit() {
        let controller = DrawingController(
            size: Size(width: 400, height: 300), documentLoading: true, limits: DocumentLimits(lines: 3, circles: 3))
        controller.send(TouchInput(id: 1, phase: .began, location: Point(x: 10, y: 10), timestamp: 0.1))
        controller.send(TouchInput(id: 1, phase: .moved, location: Point(x: 200, y: 10), timestamp: 0.2))
        controller.send(TouchInput(id: 1, phase: .ended, location: Point(x: 200, y: 10), timestamp: 0.3))
        #expect(controller.drawingView.shapes.lineCount == 1)
        let full = Drawing(
            lines: (0..<3).map { Line(begin: Point(x: 0, y: Double($0) * 20), end: Point(x: 100, y: 0)) })
        controller.adoptLoadedDocument(LoadedDocument(full))
        #expect(controller.drawingView.drawing.lines == full.lines)
        #expect(controller.overlay.notice == .drawingFull(.line, limit: 3))
    }
}
