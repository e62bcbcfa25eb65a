import Testing
import TouchKit
import TouchTracker

/// The stylus (DESIGN.md §2.18–21) below the replay scenarios: what the eraser's edits save, the rings, the palm
/// rejection switch in the document, and the inspector.
@Suite struct StylusTests {
    let controller = DrawingController(
        size: Size(width: 800, height: 600),
        drawing: Drawing(lines: [
            Line(begin: Point(x: 100, y: 100), end: Point(x: 700, y: 100)),
            Line(begin: Point(x: 100, y: 300), end: Point(x: 700, y: 300)),
        ]))

    func send(_ id: UInt64, _ phase: TouchInput.Phase, _ x: Double, _ y: Double, at time: Double, _ type: TouchType) {
        controller.send(TouchInput(id: id, phase: phase, location: Point(x: x, y: y), timestamp: time, type: type))
    }

    @Test("an eraser stroke is saved once, when it lifts, not at every shape it takes")
    func eraserSavesOnce() {
        var saves: [Int] = []
        controller.onEdit = { saves.append($0.shapes.lineCount) }
        send(1, .began, 400, 50, at: 0, .eraser)
        send(1, .moved, 400, 150, at: 0.05, .eraser)
        send(1, .moved, 400, 350, at: 0.1, .eraser)
        #expect(saves.isEmpty)
        #expect(controller.drawingView.shapes.lineCount == 0)
        send(1, .ended, 400, 350, at: 0.15, .eraser)
        #expect(saves == [0])
        #expect(controller.drawingView.undoStack.undoEdits.map(\.name) == ["erase"])
    }

    @Test("an eraser stroke the window system claims puts back what it took and records nothing")
    func claimedEraserRestores() {
        send(1, .began, 400, 50, at: 0, .eraser)
        send(1, .moved, 400, 350, at: 0.1, .eraser)
        send(1, .claimed, 400, 350, at: 0.15, .eraser)
        #expect(controller.drawingView.shapes.lineCount == 2)
        #expect(!controller.drawingView.undoStack.canUndo)
    }

    @Test("undo in the middle of an eraser stroke takes back what it erased so far")
    func undoDuringErasing() {
        send(1, .began, 400, 50, at: 0, .eraser)
        send(1, .moved, 400, 150, at: 0.05, .eraser)
        controller.handleKey(KeyCommand(key: "z", control: true))
        #expect(controller.drawingView.shapes.lineCount == 2)
        send(1, .ended, 400, 150, at: 0.1, .eraser)
        #expect(controller.drawingView.shapes.lineCount == 2)
    }

    @Test("a pressed eraser shows a ring as wide as the hit radius where it erases; it goes when the eraser lifts")
    func eraserRing() {
        send(1, .began, 400, 200, at: 0, .eraser)
        #expect(
            controller.overlay.stylusRings == [
                StylusRing(center: Point(x: 400, y: 200), radius: controller.drawingView.hitRadius, tool: .eraser)
            ])
        send(1, .ended, 400, 200, at: 0.05, .eraser)
        #expect(controller.overlay.stylusRings.isEmpty)
    }

    @Test("a hovering pen shows a small ring where it would land, hidden while it touches, gone when it leaves")
    func penHoverRing() {
        controller.stylusHovered(at: Point(x: 50, y: 60), tool: .pencil)
        #expect(
            controller.overlay.stylusRings == [
                StylusRing(center: Point(x: 50, y: 60), radius: DrawingController.penRingRadius, tool: .pencil)
            ])
        send(1, .began, 50, 60, at: 0.1, .pencil)
        #expect(controller.overlay.stylusRings.isEmpty)
        send(1, .ended, 50, 60, at: 0.15, .pencil)
        controller.stylusHovered(at: Point(x: 52, y: 60), tool: .pencil)
        controller.stylusLeft(at: 0.3)
        #expect(controller.overlay.stylusRings.isEmpty)
    }

    @Test("a hovering eraser's ring is as wide as the hit radius")
    func eraserHoverRing() {
        controller.stylusHovered(at: Point(x: 50, y: 60), tool: .eraser)
        #expect(controller.overlay.stylusRings.map(\.radius) == [controller.drawingView.hitRadius])
    }

    @Test("the gesture inspector shows a rejected palm, crossed out, until it lifts")
    func inspectorShowsPalm() {
        controller.handleKey(KeyCommand(key: "F1"))
        controller.stylusHovered(at: Point(x: 600, y: 500), tool: .pencil)
        send(9, .began, 200, 200, at: 0.1, .direct)
        let marks = controller.inspector?.touches ?? []
        #expect(marks.map(\.isRejected) == [true])
        #expect(marks.first?.location == Point(x: 200, y: 200))
        send(9, .ended, 200, 200, at: 0.2, .direct)
        #expect(controller.inspector?.touches.isEmpty == true)
    }

    @Test("the mouse is never taken for a palm")
    func mouseIsNotAPalm() {
        controller.stylusHovered(at: Point(x: 600, y: 500), tool: .pencil)
        send(4, .began, 100, 450, at: 0.1, .indirectPointer)
        send(4, .moved, 300, 450, at: 0.15, .indirectPointer)
        send(4, .ended, 300, 450, at: 0.2, .indirectPointer)
        #expect(controller.drawingView.shapes.lineCount == 3)
    }

    @Test("palm rejection turned off is saved as options.palmRejection false and read back; on is the default")
    func palmRejectionSaved() throws {
        var options = DrawingOptions()
        #expect(options.palmRejection)
        #expect(!String(decoding: DocumentCodec.encode(Drawing(options: options)), as: UTF8.self).contains("palm"))
        options.palmRejection = false
        let bytes = DocumentCodec.encode(Drawing(options: options))
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"palmRejection\": false"))
        #expect(try DocumentCodec.decode(bytes).options.palmRejection == false)
    }

    @Test("a replay script's tool and hover lines are read; an unknown tool is refused with a one-line reason")
    func replayTools() throws {
        let events = try ReplayScript.parse(
            """
            {"t": 0, "hover": "eraser", "x": 1, "y": 2}
            {"t": 0.1, "id": 1, "phase": "began", "x": 1, "y": 2, "tool": "mouse"}
            {"t": 0.2, "hover": "out"}
            """)
        #expect(
            events.map(\.event) == [
                .stylusHover(Point(x: 1, y: 2), tool: .eraser),
                .touch(id: 1, phase: .began, location: Point(x: 1, y: 2), force: nil, type: .indirectPointer),
                .stylusLeft,
            ])
        #expect(throws: ReplayScriptError.self) {
            try ReplayScript.parse(#"{"t": 0, "id": 1, "phase": "began", "x": 1, "y": 2, "tool": "brush"}"#)
        }
    }

    @Test("a finger whose reused id begins while the pen hovers ends the old contact, which keeps its line")
    func reusedIDWhileRejecting() {
        send(5, .began, 100, 450, at: 0, .direct)
        send(5, .moved, 300, 450, at: 0.05, .direct)
        controller.stylusHovered(at: Point(x: 600, y: 500), tool: .pencil)
        send(5, .began, 200, 200, at: 0.1, .direct)
        #expect(controller.window.activeTouches.isEmpty)
        #expect(controller.drawingView.shapes.lineCount == 3)
    }

    @Test("an eraser stroke the window system claims after a finger's line was saved saves the drawing again")
    func abandonedErasingSaves() {
        var saves: [Int] = []
        controller.onEdit = { saves.append($0.shapes.lineCount) }
        // The finger is down before the eraser comes, so palm rejection leaves it alone.
        send(2, .began, 100, 450, at: 0, .direct)
        send(1, .began, 400, 50, at: 0.01, .eraser)
        send(1, .moved, 400, 150, at: 0.05, .eraser)
        send(2, .moved, 300, 450, at: 0.07, .direct)
        send(2, .ended, 300, 450, at: 0.08, .direct)
        send(1, .claimed, 400, 150, at: 0.1, .eraser)
        #expect(saves == [2, 3])
    }

    @Test("an eraser's jump across a huge drawing area erases exactly what the jump crosses")
    func longJump() {
        // A platform may report a stylus far outside the window once it has gone down inside it.
        send(1, .began, 50, 300, at: 0, .eraser)
        send(1, .moved, 900_000, 300, at: 0.01, .eraser)
        send(1, .moved, -900_000, 300, at: 0.02, .eraser)
        send(1, .ended, -900_000, 300, at: 0.03, .eraser)
        #expect(controller.drawingView.shapes.lineCount == 1)
    }

    @Test(
        "an eraser crossing a circle's outline erases it; one passing through its middle, clear of the outline, does not"
    )
    func eraserAndCircles() {
        let circles = DrawingController(
            size: Size(width: 800, height: 600),
            drawing: Drawing(circles: [Circle(frame: Rect(x: 200, y: 200, width: 300, height: 300))]))
        for (id, y) in [(UInt64(1), 350.0)] {
            circles.send(TouchInput(id: id, phase: .began, location: Point(x: 300, y: y), timestamp: 0, type: .eraser))
            circles.send(
                TouchInput(id: id, phase: .moved, location: Point(x: 400, y: y), timestamp: 0.01, type: .eraser))
            circles.send(
                TouchInput(id: id, phase: .ended, location: Point(x: 400, y: y), timestamp: 0.02, type: .eraser))
        }
        #expect(circles.drawingView.shapes.circleCount == 1)
        circles.send(TouchInput(id: 2, phase: .began, location: Point(x: 100, y: 350), timestamp: 1, type: .eraser))
        circles.send(TouchInput(id: 2, phase: .moved, location: Point(x: 260, y: 350), timestamp: 1.01, type: .eraser))
        circles.send(TouchInput(id: 2, phase: .ended, location: Point(x: 260, y: 350), timestamp: 1.02, type: .eraser))
        #expect(circles.drawingView.shapes.circleCount == 0)
    }
}
