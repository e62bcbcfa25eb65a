import CX11
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerX11

/// Wheel and touchpad scrolls through `EventTranslator`, from XI2 events built in memory as the server sends them:
/// motion carrying the absolute values of a device's scroll valuators (XI 2.1), and buttons 4 to 7.
@Suite struct ScrollTranslationTests {
    typealias Axis = ScrollValuators.Axis

    static let mouse: Int32 = 12
    static let touchpad: Int32 = 13
    static let oldMouse: Int32 = 14
    /// Valuator 2 scrolls sideways and 3 up and down, as xf86-input-libinput and inputtest number them.
    static let horizontal: UInt8 = 1 << 2
    static let vertical: UInt8 = 1 << 3

    /// A mouse wheel (120 a click, as the inputtest driver has it), a touchpad (15, as xf86-input-libinput has it)
    /// and a mouse without scroll valuators, every valuator standing at 0.
    static func translator(valuatorValues: [Int32: [Int32: Double]]? = nil) -> EventTranslator {
        let wheelAxes = [
            Axis(number: 2, isVertical: false, increment: 120), Axis(number: 3, isVertical: true, increment: 120),
        ]
        let padAxes = [
            Axis(number: 2, isVertical: false, increment: 15), Axis(number: 3, isVertical: true, increment: 15),
        ]
        let scrolling = ScrollValuators(
            devices: [
                mouse: .init(axes: wheelAxes, isTouchpad: false), touchpad: .init(axes: padAxes, isTouchpad: true),
            ],
            positions: [mouse: [2: 0, 3: 0], touchpad: [2: 0, 3: 0]])
        return EventTranslator(
            windowID: EventTranslatorTests.windowID, deleteWindowAtom: EventTranslatorTests.deleteWindowAtom,
            xiOpcode: EventTranslatorTests.xiOpcode, devices: PointerDevices(scrolling: scrolling),
            connection: EventTranslator.Connection(
                fetchCookieData: { $0.data != nil }, freeCookieData: { _ in }, keysym: { _ in 0 },
                valuatorValues: { valuatorValues }))
    }

    /// XI_Motion of `source` at window pixel (`x`, `y`) carrying the valuators `mask` says, at `values`.
    static func motion(
        _ translator: inout EventTranslator, source: Int32 = mouse, mask: UInt8, values: [Double], x: Double = 50,
        y: Double = 60, flags: Int32 = 0, modifiers: Int32 = 0
    ) -> [PlatformEvent] {
        EventTranslatorTests.translateXI(
            &translator, evtype: XI_Motion, sourceID: source, detail: 0, x: x, y: y, time: 0, flags: flags,
            mask: mask, values: values, modifiers: modifiers, now: 1)
    }

    /// XI_ButtonPress of `button` by `source`.
    static func press(
        _ translator: inout EventTranslator, _ button: Int32, source: Int32, flags: Int32 = 0, modifiers: Int32 = 0
    ) -> [PlatformEvent] {
        EventTranslatorTests.translateXI(
            &translator, evtype: XI_ButtonPress, sourceID: source, detail: button, x: 50, y: 60, time: 0,
            flags: flags, modifiers: modifiers, now: 1)
    }

    /// The scrolls among `events`.
    static func scrolls(_ events: [PlatformEvent]) -> [ScrollInput] {
        events.compactMap { event in
            if case .scroll(let input) = event { return input }
            return nil
        }
    }

    @Test("a wheel click down (the vertical valuator up by one increment) is one notch down, where the pointer is")
    func wheelClickIsOneNotch() {
        var translator = Self.translator()
        let scrolls = Self.scrolls(Self.motion(&translator, mask: Self.vertical, values: [120], x: 200, y: 100))
        #expect(scrolls == [ScrollInput(location: Point(x: 200, y: 100), notches: Point(x: 0, y: 1))])
    }

    @Test("clicks follow one another: each is the change since the last value, up and down, left and right")
    func clicksAreChanges() {
        var translator = Self.translator()
        let values: [(UInt8, Double)] = [(Self.vertical, 120), (Self.vertical, 0), (Self.horizontal, 240)]
        let notches = values.flatMap { mask, value in
            Self.scrolls(Self.motion(&translator, mask: mask, values: [value])).map(\.notches)
        }
        #expect(notches == [Point(x: 0, y: 1), Point(x: 0, y: -1), Point(x: 2, y: 0)])
    }

    @Test("a high-resolution wheel's half click is half a notch")
    func hiResHalfClick() {
        var translator = Self.translator()
        #expect(
            Self.scrolls(Self.motion(&translator, mask: Self.vertical, values: [60])).map(\.notches) == [
                Point(x: 0, y: 0.5)
            ])
    }

    @Test(
        "Ctrl and Shift held with the wheel are carried; without them neither is",
        arguments: [
            (ControlMask, true, false), (ShiftMask, false, true), (ControlMask | ShiftMask, true, true),
            (0, false, false),
            (LockMask, false, false),
        ])
    func modifiersAreCarried(mask: Int32, control: Bool, shift: Bool) throws {
        var translator = Self.translator()
        let scroll = try #require(
            Self.scrolls(Self.motion(&translator, mask: Self.vertical, values: [120], modifiers: mask)).first)
        #expect(scroll.control == control)
        #expect(scroll.shift == shift)
    }

    @Test(
        "the buttons 4 to 7 the server emulates from scroll valuators scroll nothing, nor do a scrolling device's own")
    func emulatedButtonsAreIgnored() {
        var translator = Self.translator()
        for button: Int32 in 4...7 {
            #expect(Self.press(&translator, button, source: Self.mouse, flags: XIPointerEmulated).isEmpty)
            #expect(Self.press(&translator, button, source: Self.mouse).isEmpty)
        }
    }

    @Test(
        "a device without scroll valuators scrolls one notch a press: 4 up, 5 down, 6 left, 7 right, with Ctrl",
        arguments: [(4, Point(x: 0, y: -1)), (5, Point(x: 0, y: 1)), (6, Point(x: -1, y: 0)), (7, Point(x: 1, y: 0))])
    func buttonsWithoutValuators(button: Int, notches: Point) {
        var translator = Self.translator()
        let scrolls = Self.scrolls(
            Self.press(&translator, Int32(button), source: Self.oldMouse, modifiers: ControlMask))
        #expect(scrolls == [ScrollInput(location: Point(x: 50, y: 60), notches: notches, control: true)])
    }

    @Test("motion the server made from a driver's button 4 (marked emulated) scrolls once")
    func emulatedValuatorMotionScrolls() {
        var translator = Self.translator()
        let events = Self.motion(&translator, mask: Self.vertical, values: [-120], flags: XIPointerEmulated)
        #expect(Self.scrolls(events).map(\.notches) == [Point(x: 0, y: -1)])
        #expect(events.count == 1, "an emulated motion is no hover: \(events)")
    }

    @Test("a touchpad's smooth scroll is distance: one valuator unit a pixel at libinput's increment of 15")
    func touchpadScrollIsDistance() {
        var translator = Self.translator()
        let scrolls = Self.scrolls(
            Self.motion(&translator, source: Self.touchpad, mask: Self.horizontal | Self.vertical, values: [-4.5, 30]))
        #expect(scrolls == [ScrollInput(location: Point(x: 50, y: 60), distance: Point(x: -4.5, y: 30))])
    }

    @Test("at scale 2 a scroll's place and a touchpad's travel are window pixels halved; notches stay clicks")
    func unitsAtScaleTwo() throws {
        var translator = Self.translator()
        let wheel = try #require(
            Self.scrolls(Self.motion(&translator, mask: Self.vertical, values: [120], x: 200, y: 100)).first)
        #expect(wheel.inUnits(scale: 2) == ScrollInput(location: Point(x: 100, y: 50), notches: Point(x: 0, y: 1)))
        let pad = try #require(
            Self.scrolls(Self.motion(&translator, source: Self.touchpad, mask: Self.vertical, values: [30])).first)
        #expect(pad.inUnits(scale: 2).distance == Point(x: 0, y: 15))
    }

    @Test("entering the window reads where the valuators stand: scrolls over other windows are not counted here")
    func enterRebases() {
        var translator = Self.translator(valuatorValues: [Self.mouse: [2: 0, 3: 1200]])
        var enter = XIEnterEvent()
        enter.type = GenericEvent
        enter.extension = EventTranslatorTests.xiOpcode
        enter.evtype = XI_Enter
        enter.sourceid = Self.mouse
        enter.event = EventTranslatorTests.windowID
        #expect(EventTranslatorTests.translateCookie(&translator, evtype: XI_Enter, data: &enter, now: 1).isEmpty)
        #expect(
            Self.scrolls(Self.motion(&translator, mask: Self.vertical, values: [1320])).map(\.notches) == [
                Point(x: 0, y: 1)
            ])
    }

    /// `scrolling`'s travel for valuators `mask` of `source` at `values`.
    static func travel(
        _ scrolling: inout ScrollValuators, of source: Int32, mask: UInt8, values: [Double]
    ) -> (notches: Point, distance: Point)? {
        var mask = [mask]
        var values = values
        return mask.withUnsafeMutableBufferPointer { mask in
            values.withUnsafeMutableBufferPointer { values in
                scrolling.travel(
                    in: XIValuatorState(mask_len: 1, mask: mask.baseAddress, values: values.baseAddress), of: source)
            }
        }
    }

    @Test("a valuator never seen before only says where it stands; a device that does not scroll scrolls nothing")
    func firstValueIsTheBaseline() {
        var scrolling = ScrollValuators(
            devices: [3: .init(axes: [Axis(number: 1, isVertical: true, increment: 15)], isTouchpad: false)])
        #expect(Self.travel(&scrolling, of: 3, mask: 1 << 1, values: [450]) == nil)
        #expect(Self.travel(&scrolling, of: 3, mask: 1 << 1, values: [480])?.notches == Point(x: 0, y: 2))
        #expect(Self.travel(&scrolling, of: 4, mask: 1 << 1, values: [15]) == nil)
    }

    @Test("a negative increment (a driver's natural scrolling) turns the direction round")
    func negativeIncrement() {
        var scrolling = ScrollValuators(
            devices: [3: .init(axes: [Axis(number: 1, isVertical: true, increment: -15)], isTouchpad: false)],
            positions: [3: [1: 0]])
        #expect(Self.travel(&scrolling, of: 3, mask: 1 << 1, values: [15])?.notches == Point(x: 0, y: -1))
    }

    @Test("core button 5 (no XI2) is a notch down, carrying Shift from the event's state")
    func coreButtonScrolls() {
        var translator = EventTranslatorTests.translator(xi: false)
        var event = XEvent()
        event.xbutton.type = ButtonPress
        event.xbutton.window = EventTranslatorTests.windowID
        event.xbutton.button = 5
        event.xbutton.state = UInt32(ShiftMask)
        event.xbutton.x = 30
        event.xbutton.y = 40
        #expect(
            Self.scrolls(translator.translate(&event, now: 1)) == [
                ScrollInput(location: Point(x: 30, y: 40), notches: Point(x: 0, y: 1), shift: true)
            ])
    }

    @Test("a scroll over another window is not this window's")
    func otherWindow() {
        var translator = Self.translator()
        let events = EventTranslatorTests.translateXI(
            &translator, evtype: XI_Motion, window: EventTranslatorTests.otherWindowID, sourceID: Self.mouse, detail: 0,
            x: 1, y: 1, time: 0, mask: Self.vertical, values: [120], now: 1)
        #expect(events.isEmpty)
    }
}
