import Foundation
import JSON
import Testing
import TouchKit
import TouchTracker

/// The book's challenges (issue 9): colours, widths, circles and their document fields, below the replay scenarios.
@Suite struct ChallengesModelTests {
    @Test("colours read and write #rrggbb exactly and refuse anything else")
    func colorHex() {
        #expect(LineColor(hex: "#0080FF") == LineColor(red: 0, green: 0x80, blue: 0xff))
        #expect(LineColor(red: 0, green: 0x80, blue: 0xff).hex == "#0080ff")
        for bad in ["", "#", "0080ff", "#0080f", "#0080fff", "#00g0ff", "red", " #0080ff"] {
            #expect(LineColor(hex: bad) == nil, "\(bad)")
        }
    }

    @Test("hue follows UIColor(hue:saturation:1 brightness:1): 0 red, 45 #ffbf00, 120 green, 240 blue, wraps")
    func hue() {
        #expect(LineColor.hue(0).hex == "#ff0000")
        #expect(LineColor.hue(45).hex == "#ffbf00")
        #expect(LineColor.hue(120).hex == "#00ff00")
        #expect(LineColor.hue(240).hex == "#0000ff")
        #expect(LineColor.hue(360) == LineColor.hue(0))
        #expect(LineColor.hue(-90) == LineColor.hue(270))
        #expect(LineColor.hue(.nan) == LineColor.hue(0))
        #expect(LineColor.hue(.infinity) == LineColor.hue(0))
    }

    @Test("a line's angle is counter-clockwise from pointing right, as on paper (the window's y grows down)")
    func angle() {
        func angle(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
            Line(begin: Point(x: x0, y: y0), end: Point(x: x1, y: y1)).angle
        }
        #expect(angle(0, 0, 10, 0) == 0)
        #expect(abs(angle(0, 100, 100, 0) - 45) < 1e-9)
        #expect(abs(angle(0, 0, 0, -10) - 90) < 1e-9)
        #expect(abs(angle(0, 0, -10, 0) - 180) < 1e-9)
        #expect(abs(angle(0, 0, 0, 10) - 270) < 1e-9)
        #expect(angle(5, 5, 5, 5) == 0)
    }

    @Test("distance to a circle's outline: on it 0, inside and outside the gap, for circles and ovals")
    func circleDistance() {
        let circle = Circle(corner: Point(x: 300, y: 300), opposite: Point(x: 100, y: 100))
        #expect(circle.frame == Rect(x: 100, y: 100, width: 200, height: 200))
        #expect(abs(circle.distance(to: Point(x: 315, y: 200)) - 15) < 1e-9)
        #expect(abs(circle.distance(to: Point(x: 200, y: 200)) - 100) < 1e-9)
        let diagonal = Point(x: 200 + 110 / 2.0.squareRoot(), y: 200 + 110 / 2.0.squareRoot())
        #expect(abs(circle.distance(to: diagonal) - 10) < 1e-6)
        let oval = Circle(frame: Rect(x: 0, y: 0, width: 300, height: 150))
        #expect(oval.distance(to: Point(x: 150, y: 0)) < 1e-9)
        #expect(abs(oval.distance(to: Point(x: 150, y: -20)) - 20) < 1e-9)
        #expect(abs(oval.distance(to: Point(x: -7, y: 75)) - 7) < 1e-9)
        #expect(abs(oval.distance(to: Point(x: 150, y: 75)) - 75) < 1e-9)
        // A point near the oval's shoulder: the exact answer is below every sampled outline point's distance.
        let probe = Point(x: 40, y: 20)
        let sampled = (0..<3600).map { step -> Double in
            let t = Double(step) / 3600 * 2 * Double.pi
            return probe.distance(to: Point(x: 150 + 150 * cos(t), y: 75 + 75 * sin(t)))
        }.min()!
        #expect(abs(oval.distance(to: probe) - sampled) < 0.05)
        let flat = Circle(frame: Rect(x: 0, y: 0, width: 100, height: 0))
        #expect(flat.distance(to: Point(x: 50, y: 5)) == 5)
        #expect(flat.distance(to: Point(x: 110, y: 0)) == 10)
        #expect(circle.distance(to: Point(x: .nan, y: 0)) == .infinity)
    }

    @Test("width by speed is 20 px at rest, 1 px when very fast, never NaN")
    func widthForSpeed() {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(view.tracker.widthForSpeed(0) == 20)
        #expect(view.tracker.widthForSpeed(.nan) == 20)
        #expect(view.tracker.widthForSpeed(-5) == 20)
        #expect(view.tracker.widthForSpeed(.leastNonzeroMagnitude) == 20)
        #expect(view.tracker.widthForSpeed(.infinity) == 1)
        #expect(view.tracker.widthForSpeed(1e300) == 1)
        #expect(view.tracker.widthForSpeed(400) == 5)
        #expect(view.tracker.widthForSpeed(100) == 20)
        #expect(view.tracker.widthForSpeed(1500) == 1.33)
    }
}

@Suite struct ChallengesCodecTests {
    let plain = #"{"version": 1, "lines": [{"begin": {"x": 10, "y": 20}, "end": {"x": 300, "y": 40}}]}"#

    @Test("a document without the new fields reads as before and writes back without them")
    func plainDocumentsAreUnchanged() throws {
        let drawing = try DocumentCodec.decode(Array(plain.utf8))
        #expect(drawing.circles.isEmpty && drawing.options == DrawingOptions())
        #expect(drawing.lines == [Line(begin: Point(x: 10, y: 20), end: Point(x: 300, y: 40))])
        let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        #expect(
            text
                == "{\"version\": 1, \"lines\": [\n  {\"begin\": {\"x\": 10, \"y\": 20}, \"end\": {\"x\": 300, \"y\": 40}}\n]}\n"
        )
    }

    @Test("colours, widths, circles and options are written only when used, and read back exactly")
    func roundTrip() throws {
        let drawing = Drawing(
            lines: [
                Line(begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4), color: .blue, width: 2.5),
                Line(begin: Point(x: 5, y: 6), end: Point(x: 7, y: 8)),
            ],
            circles: [
                Circle(frame: Rect(x: 100, y: 100, width: 300, height: 200)),
                Circle(frame: Rect(x: 0.5, y: 0, width: 10, height: 10), color: LineColor(hex: "#123456")),
            ],
            options: DrawingOptions(circles: true, widthBySpeed: true, color: .red))
        let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        #expect(
            text == """
                {"version": 1, "lines": [
                  {"begin": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}, "color": "#0000ff", "width": 2.5},
                  {"begin": {"x": 5, "y": 6}, "end": {"x": 7, "y": 8}}
                ], "circles": [
                  {"origin": {"x": 100, "y": 100}, "size": {"width": 300, "height": 200}},
                  {"origin": {"x": 0.5, "y": 0}, "size": {"width": 10, "height": 10}, "color": "#123456"}
                ], "options": {"circles": true, "widthBySpeed": true, "color": "#ff0000"}}

                """)
        #expect(try DocumentCodec.decode(Array(text.utf8)) == drawing)
    }

    @Test("a document with only circles, or only options, is valid JSON and reads back")
    func onlyCirclesOrOptions() throws {
        for drawing in [
            Drawing(circles: [Circle(frame: Rect(x: 1, y: 2, width: 3, height: 4))]),
            Drawing(options: DrawingOptions(colorByAngle: true)),
        ] {
            #expect(try DocumentCodec.decode(DocumentCodec.encode(drawing)) == drawing)
        }
    }

    @Test("unknown fields inside options and circles are ignored, as everywhere in the format")
    func unknownFieldsIgnored() throws {
        let text = """
            {"version": 1, "lines": [], "circles": [{"origin": {"x": 1, "y": 2}, "size": {"width": 3, "height": 4},
             "dashed": true}], "options": {"future": [1, 2], "colorByAngle": true}, "later": null}
            """
        let drawing = try DocumentCodec.decode(Array(text.utf8))
        #expect(drawing.circles == [Circle(frame: Rect(x: 1, y: 2, width: 3, height: 4))])
        #expect(drawing.options == DrawingOptions(colorByAngle: true))
    }

    @Test("malformed optional fields are refused with the field's name")
    func malformedFields() {
        let cases: [(String, String)] = [
            (#""lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}, "color": "blue"}]"#, "lines[0].color"),
            (#""lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}, "width": 0}]"#, "lines[0].width"),
            (#""lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 3, "y": 4}, "width": 1e9}]"#, "lines[0].width"),
            (#""lines": [], "circles": {}"#, "circles"),
            (#""lines": [], "circles": [7]"#, "circles[0]"),
            (#""lines": [], "circles": [{"origin": {"x": 1, "y": 2}}]"#, "circles[0].size"),
            (
                #""lines": [], "circles": [{"origin": {"x": 1, "y": 2}, "size": {"width": -3, "height": 4}}]"#,
                "circles[0].size.width"
            ),
            (
                #""lines": [], "circles": [{"origin": {"x": 1e99, "y": 2}, "size": {"width": 3, "height": 4}}]"#,
                "circles[0].origin.x"
            ),
            (#""lines": [], "options": []"#, "options"),
            (#""lines": [], "options": {"circles": 1}"#, "options.circles"),
            (##""lines": [], "options": {"color": "#12345"}"##, "options.color"),
        ]
        for (body, field) in cases {
            do {
                _ = try DocumentCodec.decode(Array("{\"version\": 1, \(body)}".utf8))
                Issue.record("accepted \(body)")
            } catch {
                #expect(error.description.contains("\"\(field)\""), "\(body): \(error)")
            }
        }
    }

    @Test("the state snapshot of a document with options is still one valid JSON object")
    func snapshotWithOptions() throws {
        let snapshot = StateSnapshot(
            drawing: Drawing(options: DrawingOptions(circles: true)), selection: nil, menu: nil, linesInProgress: 0,
            circlesInProgress: 2)
        let value = try JSONParser.parse(snapshot.encoded())
        #expect(value["options"]?["circles"] == .bool(true))
        #expect(value["circlesInProgress"] == .number(2))
        #expect(value["linesInProgress"] == .number(0))
    }
}

@Suite struct ChallengesInteractionTests {
    func controller(_ drawing: Drawing = Drawing()) -> DrawingController {
        DrawingController(size: Size(width: 800, height: 600), drawing: drawing)
    }

    func send(_ c: DrawingController, _ id: UInt64, _ phase: TouchInput.Phase, _ x: Double, _ y: Double, _ t: Double) {
        c.advanceTime(to: t)
        c.send(TouchInput(id: id, phase: phase, location: Point(x: x, y: y), timestamp: t))
    }

    @Test("a second finger exactly 0.1 s after the first pairs into a circle; 0.11 s after does not")
    func pairingWindowEdge() {
        for (delay, circles, lines) in [(0.1, 1, 0), (0.11, 0, 2)] {
            let c = controller(Drawing(options: DrawingOptions(circles: true)))
            send(c, 1, .began, 200, 200, 1)
            send(c, 2, .began, 300, 300, 1 + delay)
            send(c, 1, .moved, 100, 100, 1.2)
            send(c, 2, .moved, 400, 400, 1.2)
            send(c, 1, .ended, 100, 100, 1.3)
            send(c, 2, .ended, 400, 400, 1.3)
            #expect(c.drawingView.shapes.circleCount == circles, "delay \(delay)")
            #expect(c.drawingView.shapes.lineCount == lines, "delay \(delay)")
        }
    }

    @Test("the circle's first finger leaves no line, even when it had already moved beyond the slop")
    func firstFingerLeavesNoLine() {
        let c = controller(Drawing(options: DrawingOptions(circles: true)))
        send(c, 1, .began, 200, 200, 0)
        send(c, 1, .moved, 170, 170, 0.05)
        #expect(c.drawingView.visibleLinesInProgress.count == 1)
        send(c, 2, .began, 300, 300, 0.08)
        #expect(c.drawingView.visibleLinesInProgress.isEmpty)
        #expect(
            c.drawingView.visibleCirclesInProgress == [
                Circle(corner: Point(x: 170, y: 170), opposite: Point(x: 300, y: 300))
            ])
        #expect(Array(c.drawingView.tracker.circlesInProgress.keys) == [TouchPair(first: 1, second: 2)])
        send(c, 1, .ended, 170, 170, 0.2)
        send(c, 2, .ended, 300, 300, 0.2)
        #expect(c.drawingView.shapes.lineCount == 0)
        #expect(c.drawingView.drawing.circles == [Circle(frame: Rect(x: 170, y: 170, width: 130, height: 130))])
    }

    @Test("while three fingers swipe up, their lines vanish when the swipe is recognized, before they lift")
    func swipeDiscardsLinesInProgress() {
        let c = controller(Drawing(lines: [Line(begin: Point(x: 100, y: 300), end: Point(x: 700, y: 300))]))
        for (index, x) in [300.0, 350, 400].enumerated() {
            send(c, UInt64(index + 1), .began, x, 500, Double(index) * 0.02)
        }
        for (index, x) in [300.0, 350, 400].enumerated() { send(c, UInt64(index + 1), .moved, x, 480, 0.06) }
        #expect(c.drawingView.visibleLinesInProgress.count == 3)
        #expect(c.menu == nil)
        for (index, x) in [300.0, 350, 400].enumerated() { send(c, UInt64(index + 1), .moved, x, 430, 0.1) }
        #expect(c.drawingView.visibleLinesInProgress.isEmpty)
        #expect(c.menu?.items == MenuItem.colorMenu)
        for (index, x) in [300.0, 350, 400].enumerated() { send(c, UInt64(index + 1), .ended, x, 400, 0.2) }
        c.window.clock.runUntilIdle()
        #expect(c.drawingView.shapes.lineCount == 1)
        #expect(c.drawingView.undoStack.undoEdits.isEmpty)
        #expect(c.recognizers.allSatisfy { $0.state == .possible })
    }

    @Test("option toggles save the document through onEdit but are not undoable edits")
    func togglesSave() {
        let c = controller()
        var saved: [Drawing] = []
        c.onEdit = { saved.append($0.drawing) }
        for key in ["o", "a", "w"] { c.handleKey(KeyCommand(key: key)) }
        #expect(saved.last?.options == DrawingOptions(circles: true, colorByAngle: true, widthBySpeed: true))
        #expect(saved.count == 3)
        #expect(c.drawingView.undoStack.undoEdits.isEmpty)
        #expect(c.notice == "Width by Speed: on")
        c.handleKey(KeyCommand(key: "W", shift: true))
        #expect(c.drawingView.options.widthBySpeed == false)
        #expect(c.handleKey(KeyCommand(key: "a", control: true)) == false)
    }

    @Test("a right click on another line while one is held and dragged ends the drag first: undo puts each back")
    func contextClickDuringADragEndsIt() {
        let l = Line(begin: Point(x: 50, y: 100), end: Point(x: 350, y: 100))
        let m = Line(begin: Point(x: 50, y: 300), end: Point(x: 350, y: 300))
        let c = controller(Drawing(lines: [l, m]))
        send(c, 1, .began, 100, 100, 0)
        c.advanceTime(to: 0.6)
        send(c, 1, .moved, 100, 120, 0.7)
        c.contextClick(at: Point(x: 100, y: 300))
        send(c, 1, .moved, 100, 150, 0.8)
        send(c, 1, .ended, 100, 150, 0.9)
        c.window.clock.runUntilIdle()
        #expect(c.drawingView.drawing.lines[1] == m)
        c.handleKey(KeyCommand(key: "z", control: true))
        #expect(c.drawingView.drawing.lines == [l, m])
    }

    @Test("a right click on the empty canvas opens the settings menu there, the options that are on checked")
    func contextClickOnEmptyCanvas() {
        let c = controller(Drawing(options: DrawingOptions(widthBySpeed: true)))
        c.contextClick(at: Point(x: 50, y: 60))
        #expect(c.menu?.items == MenuItem.settingsMenu(offeringPalmRejection: false))
        #expect(c.menu?.checkedItems == [MenuItem.toggle(.widthBySpeed)])
        #expect(c.menu?.anchor == Point(x: 50, y: 60))
    }

    @Test("selecting a line drops a selected circle and the other way round; clear and undo bring both back")
    func selectionAndClear() {
        let line = Line(begin: Point(x: 100, y: 500), end: Point(x: 700, y: 500))
        let circle = Circle(frame: Rect(x: 100, y: 100, width: 200, height: 200))
        let c = controller(Drawing(lines: [line], circles: [circle]))
        let view = c.drawingView
        view.select(view.shape(at: Point(x: 300, y: 200)))
        #expect(view.document.selectionPosition?.kind == .circle && view.document.selectionPosition?.index == 0)
        view.select(view.shape(at: Point(x: 400, y: 505)))
        #expect(view.document.selectionPosition?.kind == .line && view.document.selectionPosition?.index == 0)
        view.clearAll()
        #expect(view.drawing.lines.isEmpty && view.drawing.circles.isEmpty)
        view.undo()
        #expect(view.drawing.lines == [line] && view.drawing.circles == [circle])
        view.redo()
        #expect(view.drawing.circles.isEmpty)
    }

    @Test("with colour by angle a line in progress already shows its hue; a chosen colour applies at completion")
    func inProgressColour() {
        let c = controller(Drawing(options: DrawingOptions(colorByAngle: true)))
        send(c, 1, .began, 100, 400, 0)
        send(c, 1, .moved, 300, 200, 0.1)
        #expect(c.drawingView.visibleLinesInProgress.first?.color == LineColor.hue(45))
        send(c, 1, .ended, 300, 200, 0.2)
        c.handleKey(KeyCommand(key: "c"))
        c.activate(.color(.yellow))
        #expect(c.drawingView.options.colorByAngle == false && c.drawingView.options.color == .yellow)
        send(c, 2, .began, 100, 100, 1)
        send(c, 2, .moved, 300, 100, 1.1)
        #expect(c.drawingView.visibleLinesInProgress.first?.color == nil)
        send(c, 2, .ended, 300, 100, 1.2)
        #expect(c.drawingView.drawing.lines.map(\.color) == [LineColor.hue(45), .yellow])
    }
}
