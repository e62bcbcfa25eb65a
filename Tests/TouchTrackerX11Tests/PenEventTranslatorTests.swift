import CX11
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerX11

/// Pens and erasers through the translator: pressure, tilt, hover, proximity and leaving.
extension EventTranslatorTests {
    @Test("a pen's press and moves (a pointer with an Abs Pressure axis, its tip button 1) carry its pressure as force")
    func penPressureIsForce() throws {
        var translator = EventTranslator(
            windowID: Self.windowID, deleteWindowAtom: Self.deleteWindowAtom, xiOpcode: Self.xiOpcode,
            devices: PointerDevices(pressureAxes: [15: XInput2.PressureAxis(number: 2, minimum: 0, maximum: 1000)]),
            connection: EventTranslator.Connection(
                fetchCookieData: { $0.data != nil }, freeCookieData: { _ in }, keysym: { _ in 0 }))
        // Valuators 0, 1 (x, y) and 2 (pressure) set.
        let pressed = try #require(
            Self.onlyTouch(
                Self.translateValuators(
                    &translator, evtype: XI_ButtonPress, sourceID: 15, detail: 1, mask: 0b0000_0111,
                    values: [10, 20, 800])))
        #expect(pressed.phase == .began && pressed.force == 0.8)
        let moved = try #require(
            Self.onlyTouch(
                Self.translateValuators(
                    &translator, evtype: XI_Motion, sourceID: 15, detail: 0, mask: 0b0000_0111, values: [10, 20, 250]))
        )
        #expect(moved.phase == .moved && moved.force == 0.25)
    }

    @Test("a pen's tip is a pen touch and an eraser's an eraser touch; a plain pointer's button 1 is a pointer touch")
    func toolTouchTypes() throws {
        var translator = Self.translator(devices: PointerDevices(tools: [15: .pen, 16: .eraser]))
        for (source, expected) in [(Int32(15), TouchType.pencil), (16, .eraser), (12, .indirectPointer)] {
            let began = try #require(
                Self.onlyTouch(
                    Self.translateXI(
                        &translator, evtype: XI_ButtonPress, sourceID: source, detail: 1, x: 5, y: 5, time: 1, now: 1)))
            #expect(began.type == expected)
            _ = Self.translateXI(
                &translator, evtype: XI_ButtonRelease, sourceID: source, detail: 1, x: 5, y: 5, time: 2, now: 1)
        }
    }

    @Test("a pen moving with its tip up hovers as a stylus; the mouse moving hovers as a pointer")
    func penMotionHovers() {
        var translator = Self.translator(
            devices: PointerDevices(tools: [16: .eraser], proximityLeftTypes: [91], toolsTellingProximity: [16]))
        let pen = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 16, detail: 0, x: 30, y: 40, time: 1, now: 1)
        guard pen.count == 1, case .stylusHover(let point, let tool) = pen[0] else {
            Issue.record("expected a stylus hover, got \(pen)")
            return
        }
        #expect(point == Point(x: 30, y: 40) && tool == .eraser)
        let mouse = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 12, detail: 0, x: 30, y: 40, time: 2, now: 1)
        guard mouse.count == 1, case .hover = mouse[0] else {
            Issue.record("expected a hover, got \(mouse)")
            return
        }
    }

    @Test("an XI 1 ProximityOut of a tool says the stylus left")
    func proximityOutLeaves() {
        var translator = Self.translator(
            devices: PointerDevices(tools: [15: .pen], proximityLeftTypes: [91], toolsTellingProximity: [15]))
        var event = XEvent()
        event.type = 91
        let events = translator.translate(&event, now: 1)
        guard events.count == 1, case .stylusLeft = events[0] else {
            Issue.record("expected the stylus to leave, got \(events)")
            return
        }
    }

    @Test("a pen's Abs Tilt X and Y valuators (degrees, as libinput's and wacom's drivers report) are its tilt")
    func penTilt() throws {
        var translator = EventTranslator(
            windowID: Self.windowID, deleteWindowAtom: Self.deleteWindowAtom, xiOpcode: Self.xiOpcode,
            devices: PointerDevices(tiltAxes: [15: XInput2.TiltAxes(x: 3, y: 4)], tools: [15: .pen]),
            connection: EventTranslator.Connection(
                fetchCookieData: { $0.data != nil }, freeCookieData: { _ in }, keysym: { _ in 0 }))
        // Valuators 0, 1 (x, y), 3 and 4 (tilt) set.
        let events = Self.translateValuators(
            &translator, evtype: XI_ButtonPress, sourceID: 15, detail: 1, mask: 0b0001_1011,
            values: [10, 20, 30, -15])
        let began = try #require(Self.onlyTouch(events))
        #expect(began.tilt == StylusTilt(x: 30, y: -15))
    }

    @Test("a mouse held down keeps its line while a pen hovers: the pen's motion hovers and leaves the line alone")
    func mouseAndPenAreSeparateTouches() throws {
        var translator = Self.translator(
            devices: PointerDevices(tools: [15: .pen], proximityLeftTypes: [91], toolsTellingProximity: [15]))
        _ = Self.translateXI(&translator, evtype: XI_ButtonPress, sourceID: 12, detail: 1, x: 5, y: 5, time: 1, now: 1)
        let pen = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 15, detail: 0, x: 300, y: 300, time: 2, now: 1)
        guard pen.count == 1, case .stylusHover = pen[0] else {
            Issue.record("expected the pen to hover, got \(pen)")
            return
        }
        // The pen's motion does not move the mouse's line; the mouse's release ends it where the mouse last was.
        let ended = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_ButtonRelease, sourceID: 12, detail: 1, x: 300, y: 300, time: 4, now: 1)))
        #expect(ended.phase == .ended && ended.location == Point(x: 5, y: 5) && ended.type == .indirectPointer)
    }

    @Test("a pen that cannot tell when it leaves hovers as a pointer, and counts as leaving when its tip lifts")
    func penWithoutProximityLeavesOnLift() {
        var translator = Self.translator(devices: PointerDevices(tools: [15: .pen]))
        let hover = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 15, detail: 0, x: 30, y: 40, time: 1, now: 1)
        guard hover.count == 1, case .hover = hover[0] else {
            Issue.record("expected a pointer's hover, got \(hover)")
            return
        }
        _ = Self.translateXI(
            &translator, evtype: XI_ButtonPress, sourceID: 15, detail: 1, x: 30, y: 40, time: 2, now: 1)
        let lift = Self.translateXI(
            &translator, evtype: XI_ButtonRelease, sourceID: 15, detail: 1, x: 30, y: 40, time: 3, now: 1)
        guard lift.count == 2, case .touch(let ended) = lift[0], ended.phase == .ended, case .stylusLeft = lift[1]
        else {
            Issue.record("expected the touch to end and the stylus to leave, got \(lift)")
            return
        }
    }

    @Test("when devices come and go they are read again: a mouse given a removed pen's id is a mouse")
    func devicesAreReadAgainOnHierarchyChange() throws {
        var translator = Self.translator(
            devices: PointerDevices(tools: [15: .pen], proximityLeftTypes: [91], toolsTellingProximity: [15]),
            reloadDevices: { PointerDevices() })
        _ = Self.translateHierarchy(&translator, device: 15, flags: XISlaveAdded)
        let began = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_ButtonPress, sourceID: 15, detail: 1, x: 5, y: 5, time: 1, now: 1)))
        #expect(began.type == .indirectPointer)
    }

    @Test(
        "a hovering pen that leaves the window has left it; a mouse leaving, or a pen leaving with its tip down, has not"
    )
    func penLeavingTheWindowLeaves() {
        var translator = Self.translator(
            devices: PointerDevices(tools: [15: .pen], proximityLeftTypes: [91], toolsTellingProximity: [15]))
        func leave(source: Int32) -> [PlatformEvent] { Self.translateLeave(&translator, source: source) }
        let pen = leave(source: 15)
        if pen.count != 1 { Issue.record("expected the pen to leave, got \(pen)") }
        if case .stylusLeft? = pen.first {} else { Issue.record("expected the pen to leave, got \(pen)") }
        #expect(leave(source: 12).isEmpty)
        _ = Self.translateXI(&translator, evtype: XI_ButtonPress, sourceID: 15, detail: 1, x: 5, y: 5, time: 1, now: 1)
        #expect(leave(source: 15).isEmpty)
    }

    @Test("a pen stroke that lifts outside the window has left when its grab ends (a leave of the master device)")
    func strokeEndingOutsideLeaves() {
        var translator = Self.translator(
            devices: PointerDevices(tools: [15: .pen], proximityLeftTypes: [91], toolsTellingProximity: [15]))
        _ = Self.translateXI(&translator, evtype: XI_Motion, sourceID: 15, detail: 0, x: 5, y: 5, time: 1, now: 1)
        _ = Self.translateXI(&translator, evtype: XI_ButtonPress, sourceID: 15, detail: 1, x: 5, y: 5, time: 2, now: 1)
        _ = Self.translateXI(
            &translator, evtype: XI_ButtonRelease, sourceID: 15, detail: 1, x: -40, y: 5, time: 3, now: 1)
        let events = Self.translateLeave(&translator, source: 2, mode: XINotifyUngrab)
        if case .stylusLeft? = events.first, events.count == 1 {
        } else {
            Issue.record("expected the pen to leave, got \(events)")
        }
    }

    @Test("a pen removed or disabled while near has left (it sends no ProximityOut)")
    func removedPenLeaves() {
        var translator = Self.translator(
            devices: PointerDevices(tools: [15: .pen], proximityLeftTypes: [91], toolsTellingProximity: [15]),
            reloadDevices: { PointerDevices() })
        _ = Self.translateXI(&translator, evtype: XI_Motion, sourceID: 15, detail: 0, x: 5, y: 5, time: 1, now: 1)
        let events = Self.translateHierarchy(&translator, device: 15, flags: XISlaveRemoved)
        #expect(events.contains { if case .stylusLeft = $0 { true } else { false } }, "\(events)")
    }
}
