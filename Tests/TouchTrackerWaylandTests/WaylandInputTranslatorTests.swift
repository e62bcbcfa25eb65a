import Testing
import TouchKit
import TouchTracker
import TouchTrackerSession

@testable import TouchTrackerWayland

/// The seat's protocol events, built in memory as a compositor sends them, turned into the session's input.
@Suite("Wayland input translation")
struct WaylandInputTranslatorTests {
    private func touches(_ events: [SessionEvent]) -> [TouchInput] {
        events.compactMap { event in
            if case .touch(let input) = event { return input }
            return nil
        }
    }

    @Test("the keyboard's enter and leave are the window gaining and losing the focus")
    func keyboardEnterAndLeaveAreFocus() {
        var translator = WaylandInputTranslator()
        let events = [SeatEvent.keyboardEntered, .keyboardLeft].flatMap { translator.translate($0, now: 1) }
        let focus = events.compactMap { event -> Bool? in
            if case .focusChanged(let active) = event { return active }
            return nil
        }
        #expect(focus == [true, false])
    }

    @Test("touch events wait for their frame and then arrive together, in order")
    func touchEventsAreGroupedByFrame() {
        var translator = WaylandInputTranslator()
        #expect(translator.translate(.touchDown(time: 10, id: 0, x: 5, y: 6), now: 1).isEmpty)
        #expect(translator.translate(.touchDown(time: 10, id: 1, x: 50, y: 60), now: 1).isEmpty)
        let frame = touches(translator.translate(.touchFrame, now: 1))
        #expect(frame.map(\.phase) == [.began, .began])
        #expect(frame.map(\.location) == [Point(x: 5, y: 6), Point(x: 50, y: 60)])
        #expect(Set(frame.map(\.id)).count == 2)
    }

    @Test(
        "touch events still waiting for a frame at the end of a batch are delivered (weston sends no frame after the last up)"
    )
    func unframedTouchesGoAtTheEndOfTheBatch() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.touchDown(time: 10, id: 0, x: 5, y: 6), now: 1)
        _ = translator.translate(.touchFrame, now: 1)
        _ = translator.translate(.touchUp(time: 20, id: 0), now: 1)
        #expect(touches(translator.endOfBatch()).map(\.phase) == [.ended])
        #expect(translator.endOfBatch().isEmpty)
    }

    @Test("a touch's up ends it where its last motion was")
    func upEndsAtTheLastMotion() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.touchDown(time: 10, id: 3, x: 5, y: 6), now: 1)
        _ = translator.translate(.touchMotion(time: 20, id: 3, x: 30, y: 40), now: 1)
        _ = translator.translate(.touchUp(time: 30, id: 3), now: 1)
        let frame = touches(translator.translate(.touchFrame, now: 1))
        #expect(frame.map(\.phase) == [.began, .moved, .ended])
        #expect(frame.last?.location == Point(x: 30, y: 40))
    }

    @Test("a touch cancel claims every touch still down, so no half-drawn line is kept")
    func cancelClaimsEveryLiveTouch() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.touchDown(time: 10, id: 0, x: 5, y: 6), now: 1)
        _ = translator.translate(.touchDown(time: 10, id: 1, x: 7, y: 8), now: 1)
        _ = translator.translate(.touchFrame, now: 1)
        _ = translator.translate(.touchUp(time: 20, id: 0), now: 1)
        _ = translator.translate(.touchFrame, now: 1)
        let cancelled = touches(translator.translate(.touchCancel, now: 2))
        #expect(cancelled.map(\.phase) == [.claimed])
        #expect(cancelled.first?.id == 1)
        // After a cancel the compositor sends nothing more for those touches; a stray motion is ignored.
        _ = translator.translate(.touchMotion(time: 30, id: 1, x: 9, y: 9), now: 2)
        #expect(touches(translator.translate(.touchFrame, now: 2)).isEmpty)
    }

    @Test("touch coordinates are surface coordinates, which are drawing units: passed on exactly")
    func touchesAreInDrawingUnits() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.touchDown(time: 10, id: 0, x: 5.25, y: 6.5), now: 1)
        #expect(touches(translator.translate(.touchFrame, now: 1)).first?.location == Point(x: 5.25, y: 6.5))
    }

    @Test("the left button draws like a touch: pressed, dragged, released")
    func leftButtonIsATouch() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.pointerEnter(x: 10, y: 10), now: 1)
        let began = touches(
            translator.translate(
                .pointerButton(time: 5, button: WaylandInputTranslator.leftButton, pressed: true), now: 1))
        let moved = touches(translator.translate(.pointerMotion(time: 6, x: 40, y: 10), now: 1))
        let ended = touches(
            translator.translate(
                .pointerButton(time: 7, button: WaylandInputTranslator.leftButton, pressed: false), now: 1))
        #expect(began.map(\.phase) == [.began])
        #expect(began.first?.location == Point(x: 10, y: 10))
        #expect(moved.map(\.phase) == [.moved])
        #expect(ended.map(\.phase) == [.ended])
        #expect(ended.first?.location == Point(x: 40, y: 10))
    }

    @Test("moving the pointer with no button held is a hover, and the right button opens the menu where it is")
    func hoverAndContextClick() {
        var translator = WaylandInputTranslator()
        guard case .hover(let point)? = translator.translate(.pointerMotion(time: 1, x: 3, y: 4), now: 1).first else {
            Issue.record("no hover")
            return
        }
        #expect(point == Point(x: 3, y: 4))
        let click = translator.translate(
            .pointerButton(time: 2, button: WaylandInputTranslator.rightButton, pressed: true), now: 1)
        guard case .contextClick(let clicked)? = click.first else {
            Issue.record("no context click")
            return
        }
        #expect(clicked == Point(x: 3, y: 4))
    }

    @Test("losing the pointer mid-drag ends the drag as a device taken away, keeping the line")
    func pointerLeaveMidDragCancelsAsSystem() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.pointerEnter(x: 10, y: 10), now: 1)
        _ = translator.translate(
            .pointerButton(time: 5, button: WaylandInputTranslator.leftButton, pressed: true), now: 1)
        let left = touches(translator.translate(.pointerLeave, now: 1))
        #expect(left.map(\.phase) == [.cancelled])
        #expect(translator.pointerLocation == nil)
    }

    @Test(
        "a touchpad pinch (pointer-gestures events) becomes two virtual fingers around the pointer that spread by its scale"
    )
    func pinchBecomesTwoFingers() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.pointerEnter(x: 200, y: 100), now: 1)
        let began = touches(translator.translate(.pinch(.began, time: 1, dx: 0, dy: 0, scale: 1, rotation: 0), now: 1))
        let spread = touches(
            translator.translate(.pinch(.changed, time: 2, dx: 0, dy: 0, scale: 2, rotation: 0), now: 1))
        let ended = touches(
            translator.translate(.pinch(.ended, time: 3, dx: 0, dy: 0, scale: .nan, rotation: 0), now: 1))
        #expect(began.map(\.phase) == [.began, .began])
        #expect(
            abs(
                began[0].location.distance(to: began[1].location) * 2
                    - spread[0].location.distance(to: spread[1].location)) < 1e-9)
        #expect(
            Point(x: (spread[0].location.x + spread[1].location.x) / 2, y: spread[0].location.y)
                == Point(x: 200, y: 100))
        #expect(ended.map(\.phase).suffix(2) == [.ended, .ended])
    }

    @Test("a three-finger touchpad swipe becomes three virtual fingers that travel with it")
    func swipeBecomesFingers() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.pointerEnter(x: 200, y: 100), now: 1)
        let began = touches(translator.translate(.swipe(.began, time: 1, fingers: 3, dx: 0, dy: 0), now: 1))
        let moved = touches(translator.translate(.swipe(.changed, time: 2, fingers: 0, dx: 40, dy: 0), now: 1))
        #expect(began.count == 3 && began.allSatisfy { $0.phase == .began })
        #expect(moved.count == 3)
        #expect(zip(began, moved).allSatisfy { abs($1.location.x - $0.location.x - 40) < 1e-9 })
    }

    @Test("event times keep their spacing on the monotonic time line")
    func timesKeepTheirSpacing() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.touchDown(time: 1000, id: 0, x: 0, y: 0), now: 50)
        _ = translator.translate(.touchMotion(time: 1250, id: 0, x: 1, y: 0), now: 50.3)
        let frame = touches(translator.translate(.touchFrame, now: 50.3))
        #expect(abs((frame[1].timestamp - frame[0].timestamp) - 0.25) < 1e-9)
    }

    @Test("the pointer's left button is a pointer's touch, never a finger (palm rejection leaves the mouse alone)")
    func mouseIsAPointerTouch() {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.pointerEnter(x: 5, y: 5), now: 1)
        let began = touches(translator.translate(.pointerButton(time: 1, button: 0x110, pressed: true), now: 1))
        #expect(began.map(\.type) == [.indirectPointer])
    }
}
