import Testing
import TouchKit
import TouchTracker
import TouchTrackerSession

@testable import TouchTrackerWayland

/// A tablet's pen and eraser on Wayland (tablet-unstable-v2), fed as the protocol events a compositor sends, built in
/// memory: no compositor the tests can run has tablets (Debian 12's weston 10 exports no `notify_tablet_*`), so
/// these stand in for the end-to-end tests the X11 pen has.
@Suite("Wayland tablet tools, fed protocol events (no compositor here has tablets)")
struct TabletToolTranslationTests {
    static let pen: UInt32 = 0x140
    static let eraser: UInt32 = 0x141

    /// Sends `events` of tool 1 (announced as `type`), returning the session events they make.
    static func feed(
        _ translator: inout WaylandInputTranslator, _ events: [TabletToolEvent], now: Double = 1
    ) -> [SessionEvent] {
        events.flatMap { translator.translate(.tablet(tool: 1, $0), now: now) }
    }

    static func touches(_ events: [SessionEvent]) -> [TouchInput] {
        events.compactMap { event in
            if case .touch(let input) = event { return input }
            return nil
        }
    }

    @Test("a pen's tip down, motion and up, each group ended by frame, is one pen touch with its pressure and tilt")
    func penStrokeIsAPenTouch() {
        var translator = WaylandInputTranslator()
        _ = Self.feed(&translator, [.type(Self.pen), .proximityIn, .motion(x: 10, y: 20), .frame(time: 100)])
        let began = Self.touches(
            Self.feed(&translator, [.down, .pressure(32768), .tilt(x: 30, y: 0), .frame(time: 110)]))
        #expect(began.map(\.phase) == [.began])
        #expect(began.first?.type == .pencil)
        #expect(began.first?.location == Point(x: 10, y: 20))
        #expect(abs((began.first?.force ?? 0) - 0.5) < 0.001)
        #expect(began.first?.tilt == StylusTilt(x: 30, y: 0))
        let moved = Self.touches(Self.feed(&translator, [.motion(x: 60, y: 20), .frame(time: 120)]))
        #expect(moved.map(\.phase) == [.moved] && moved.first?.location == Point(x: 60, y: 20))
        let ended = Self.touches(Self.feed(&translator, [.up, .frame(time: 130)]))
        #expect(ended.map(\.phase) == [.ended] && ended.first?.location == Point(x: 60, y: 20))
    }

    @Test("a tool moving within reach without touching hovers; leaving the tablet's reach says the stylus left")
    func hoverAndLeave() {
        var translator = WaylandInputTranslator()
        let hover = Self.feed(
            &translator, [.type(Self.eraser), .proximityIn, .motion(x: 5, y: 6), .frame(time: 100)])
        guard hover.count == 1, case .stylusHover(let point, let tool) = hover[0] else {
            Issue.record("expected a hover, got \(hover)")
            return
        }
        #expect(point == Point(x: 5, y: 6) && tool == .eraser)
        let left = Self.feed(&translator, [.proximityOut, .frame(time: 110)])
        guard left.count == 1, case .stylusLeft = left[0] else {
            Issue.record("expected the stylus to leave, got \(left)")
            return
        }
    }

    @Test("a tool that leaves the tablet's reach while touching ends its touch first")
    func leavingWhileTouchingEnds() {
        var translator = WaylandInputTranslator()
        _ = Self.feed(&translator, [.type(Self.pen), .proximityIn, .motion(x: 1, y: 1), .down, .frame(time: 1)])
        let events = Self.feed(&translator, [.proximityOut, .frame(time: 2)])
        #expect(Self.touches(events).map(\.phase) == [.ended])
        if case .stylusLeft? = events.last {} else { Issue.record("expected the stylus to leave last: \(events)") }
    }

    @Test("surface coordinates are drawing units, passed on exactly at any buffer scale")
    func surfaceCoordinatesAreDrawingUnits() {
        var translator = WaylandInputTranslator()
        _ = Self.feed(&translator, [.type(Self.pen), .proximityIn, .motion(x: 10.25, y: 20.5), .frame(time: 1)])
        let began = Self.touches(Self.feed(&translator, [.down, .frame(time: 2)]))
        #expect(began.first?.location == Point(x: 10.25, y: 20.5))
    }

    @Test("a removed tool's touch is taken away by the system, its work kept")
    func removedToolCancels() {
        var translator = WaylandInputTranslator()
        _ = Self.feed(&translator, [.type(Self.pen), .proximityIn, .motion(x: 1, y: 1), .down, .frame(time: 1)])
        #expect(Self.touches(Self.feed(&translator, [.removed])).map(\.phase) == [.cancelled])
    }

    @Test("tool types: pen, pencil, brush and airbrush draw; the eraser erases; a tablet's mouse is a pointer")
    func toolTypes() {
        #expect(
            [0x140, 0x142, 0x143, 0x144].map { TabletToolTranslator.touchType($0) }
                == Array(repeating: .pencil, count: 4))
        #expect(TabletToolTranslator.touchType(0x141) == .eraser)
        #expect(TabletToolTranslator.touchType(0x146) == .indirectPointer)
    }

    /// The session events applied to a controller, as `DrawingSession.handle` does.
    static func apply(_ events: [SessionEvent], to controller: DrawingController) {
        for event in events {
            switch event {
            case .touch(let input): controller.send(input)
            case .stylusHover(let point, let tool): controller.stylusHovered(at: point, tool: tool)
            case .stylusLeft: controller.stylusLeft(at: controller.window.clock.now)
            default: break
            }
        }
    }

    @Test("the eraser's protocol events erase the line they cross, as one undoable edit")
    func eraserErasesThroughTheController() {
        let controller = DrawingController(
            size: Size(width: 800, height: 600),
            drawing: Drawing(lines: [Line(begin: Point(x: 100, y: 300), end: Point(x: 700, y: 300))]))
        var translator = WaylandInputTranslator()
        var events = Self.feed(
            &translator, [.type(Self.eraser), .proximityIn, .motion(x: 400, y: 200), .frame(time: 10)])
        events += Self.feed(&translator, [.down, .pressure(20000), .frame(time: 20)])
        events += Self.feed(&translator, [.motion(x: 400, y: 400), .frame(time: 30)])
        events += Self.feed(&translator, [.up, .frame(time: 40)])
        Self.apply(events, to: controller)
        #expect(controller.drawingView.shapes.isEmpty)
        #expect(controller.drawingView.undoStack.undoEdits.map(\.name) == ["erase"])
    }

    @Test("a finger that goes down while the Wayland pen hovers draws nothing")
    func palmRejectedThroughTheController() {
        let controller = DrawingController(size: Size(width: 800, height: 600))
        var translator = WaylandInputTranslator()
        Self.apply(
            Self.feed(&translator, [.type(Self.pen), .proximityIn, .motion(x: 600, y: 500), .frame(time: 10)]),
            to: controller)
        var fingers: [SessionEvent] = []
        for event in [
            SeatEvent.touchDown(time: 20, id: 0, x: 100, y: 100), .touchFrame,
            .touchMotion(time: 30, id: 0, x: 300, y: 100), .touchFrame, .touchUp(time: 40, id: 0), .touchFrame,
        ] {
            fingers += translator.translate(event, now: 1)
        }
        Self.apply(fingers, to: controller)
        #expect(controller.drawingView.shapes.isEmpty)
    }

    @Test("a tablet's mouse moving within reach hovers as a pointer and never counts as a stylus near the screen")
    func tabletMouseIsAPointer() {
        var translator = WaylandInputTranslator()
        let events = Self.feed(&translator, [.type(0x146), .proximityIn, .motion(x: 5, y: 6), .frame(time: 1)])
        guard events.count == 1, case .hover = events[0] else {
            Issue.record("expected a pointer's hover, got \(events)")
            return
        }
        #expect(Self.feed(&translator, [.proximityOut, .frame(time: 2)]).isEmpty)
    }

    @Test("a tablet tool's touch ids are apart from the touchpad's virtual fingers and the pointer's")
    func toolIDsAreApart() {
        var translator = WaylandInputTranslator()
        _ = Self.feed(&translator, [.type(Self.pen), .proximityIn, .motion(x: 1, y: 1), .frame(time: 1)])
        let id = Self.touches(Self.feed(&translator, [.down, .frame(time: 2)])).first?.id ?? 0
        #expect(id < TouchpadGestureBridge.identifierBase && id > UInt64(UInt32.max))
    }
}
