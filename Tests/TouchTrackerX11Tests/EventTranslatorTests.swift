import CX11
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerX11

/// `EventTranslator` fed events built in memory: core `XEvent`s and XInput2 cookies whose data (an `XIDeviceEvent`)
/// is already in place, as `XGetEventData` leaves it. No X server: the translator's `Connection` hands the cookie's
/// data through as it is and gives keys a keysym of the test's choosing.
@Suite struct EventTranslatorTests {
    static let windowID: CX11.Window = 0x0040_0001
    static let otherWindowID: CX11.Window = 0x0050_0001
    static let deleteWindowAtom: Atom = 321
    static let xiOpcode: Int32 = 131
    /// Platform ids of mouse "touches" (`EventTranslator.mouseIDBase`, the core pointer's source id 0).
    static let mouseID: UInt64 = 1 << 62

    /// A translator for `windowID`, with XI2 (`xiOpcode`) or core events only, every key looked up as `keysym`.
    static func translator(
        xi: Bool = true, keysym: KeySym = 0x7A, devices: PointerDevices = PointerDevices(),
        reloadDevices: @escaping () -> PointerDevices? = { nil }
    ) -> EventTranslator {
        EventTranslator(
            windowID: windowID, deleteWindowAtom: deleteWindowAtom, xiOpcode: xi ? xiOpcode : nil, devices: devices,
            connection: EventTranslator.Connection(
                fetchCookieData: { $0.data != nil }, freeCookieData: { _ in }, keysym: { _ in keysym },
                reloadDevices: reloadDevices))
    }

    /// A coordinate as the XI2 wire carries it (FP16.16: 16 integer and 16 fraction bits), as Xlib converts it.
    static func fp1616(_ raw: Int32) -> Double { Double(raw) / 65536 }

    /// Translates an XI2 device event of type `evtype` (touch, button or motion) built in memory; `mask`'s set bits
    /// say which valuators it carries, `values` are theirs in mask order (packed, as the wire carries them);
    /// `modifiers` is the X modifier state in effect (`ControlMask`, `ShiftMask`).
    static func translateXI(
        _ translator: inout EventTranslator, evtype: Int32, window: CX11.Window = windowID, sourceID: Int32 = 12,
        detail: Int32, x: Double, y: Double, time: Time, flags: Int32 = 0, mask: UInt8 = 0, values: [Double] = [],
        buttons: UInt8? = nil, master: Int32 = 2, modifiers: Int32 = 0, now: Double
    ) -> [PlatformEvent] {
        var maskBytes = [mask]
        var values = values
        var buttonBytes = [buttons ?? 0]
        return maskBytes.withUnsafeMutableBufferPointer { maskPointer in
            values.withUnsafeMutableBufferPointer { valuePointer in
                buttonBytes.withUnsafeMutableBufferPointer { buttonPointer in
                    var device = XIDeviceEvent()
                    device.type = GenericEvent
                    device.extension = xiOpcode
                    device.evtype = evtype
                    device.time = time
                    device.deviceid = master
                    device.sourceid = sourceID
                    device.detail = detail
                    device.event = window
                    device.event_x = x
                    device.event_y = y
                    device.flags = flags
                    device.mods.effective = modifiers
                    device.valuators = XIValuatorState(
                        mask_len: 1, mask: maskPointer.baseAddress, values: valuePointer.baseAddress)
                    if buttons != nil { device.buttons = XIButtonState(mask_len: 1, mask: buttonPointer.baseAddress) }
                    return translateCookie(&translator, evtype: evtype, data: &device, now: now)
                }
            }
        }
    }

    /// A pen's event at window point (50, 60) carrying valuators (`translateXI`).
    static func translateValuators(
        _ translator: inout EventTranslator, evtype: Int32, sourceID: Int32, detail: Int32, mask: UInt8,
        values: [Double]
    ) -> [PlatformEvent] {
        translateXI(
            &translator, evtype: evtype, sourceID: sourceID, detail: detail, x: 50, y: 60, time: 0, mask: mask,
            values: values, now: 1)
    }

    /// Translates a generic XI2 event of `evtype` whose cookie data is `data`, built in memory.
    static func translateCookie<Data>(
        _ translator: inout EventTranslator, evtype: Int32, data: inout Data, now: Double
    ) -> [PlatformEvent] {
        withUnsafeMutablePointer(to: &data) { pointer in
            var event = XEvent()
            event.xcookie.type = GenericEvent
            event.xcookie.extension = xiOpcode
            event.xcookie.evtype = evtype
            event.xcookie.data = UnsafeMutableRawPointer(pointer)
            return translator.translate(&event, now: now)
        }
    }

    /// Translates XI_Leave of the window by `source` in `mode`.
    static func translateLeave(
        _ translator: inout EventTranslator, source: Int32, mode: Int32 = XINotifyNormal
    ) -> [PlatformEvent] {
        var leave = XILeaveEvent()
        leave.type = GenericEvent
        leave.extension = xiOpcode
        leave.evtype = XI_Leave
        leave.sourceid = source
        leave.event = windowID
        leave.mode = mode
        return translateCookie(&translator, evtype: XI_Leave, data: &leave, now: 1)
    }

    /// Translates XI_HierarchyChanged with one device's `flags` (`XISlaveAdded`, `XISlaveRemoved`, …).
    static func translateHierarchy(_ translator: inout EventTranslator, device: Int32, flags: Int32) -> [PlatformEvent]
    {
        var info = XIHierarchyInfo()
        info.deviceid = device
        info.flags = flags
        var hierarchy = XIHierarchyEvent()
        hierarchy.type = GenericEvent
        hierarchy.extension = xiOpcode
        hierarchy.evtype = XI_HierarchyChanged
        hierarchy.flags = flags
        hierarchy.num_info = 1
        return withUnsafeMutablePointer(to: &info) { infoPointer in
            hierarchy.info = infoPointer
            return translateCookie(&translator, evtype: XI_HierarchyChanged, data: &hierarchy, now: 1)
        }
    }

    /// The single touch input in `events` (fails the test when there is not exactly one).
    static func onlyTouch(_ events: [PlatformEvent]) -> TouchInput? {
        guard events.count == 1, case .touch(let input) = events[0] else {
            Issue.record("expected one touch, got \(events)")
            return nil
        }
        return input
    }

    @Test("an XI2 touch begins, moves and ends at its FP16.16 coordinates, keyed by device and touch id")
    func touchBeginUpdateEnd() throws {
        var translator = Self.translator()
        let id = UInt64(12) << 32 | 7
        // 120.5, 75.25 and then 130.75, 80.125: fractions FP16.16 holds exactly.
        let begin = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_TouchBegin, detail: 7, x: Self.fp1616(0x0078_8000),
                    y: Self.fp1616(0x004B_4000), time: 5_000, now: 100)))
        #expect(begin == TouchInput(id: id, phase: .began, location: Point(x: 120.5, y: 75.25), timestamp: 100))
        let update = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_TouchUpdate, detail: 7, x: Self.fp1616(0x0082_C000),
                    y: Self.fp1616(0x0050_2000), time: 5_016, now: 100.5)))
        #expect(update.id == id && update.phase == .moved)
        #expect(update.location == Point(x: 130.75, y: 80.125))
        // Server times keep their spacing: 16 ms after the begin.
        #expect(abs(update.timestamp - 100.016) < 1e-9)
        let end = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_TouchEnd, detail: 7, x: 130.75, y: 80.125, time: 5_032, now: 101)))
        #expect(end.id == id && end.phase == .ended && end.location == Point(x: 130.75, y: 80.125))
    }

    @Test("a touch on another window is not the app's")
    func touchOnAnotherWindowIsIgnored() {
        var translator = Self.translator()
        let events = Self.translateXI(
            &translator, evtype: XI_TouchBegin, window: Self.otherWindowID, detail: 1, x: 10, y: 10, time: 1, now: 1)
        #expect(events.isEmpty)
    }

    @Test("two fingers down at once are two touches")
    func twoFingersAreTwoTouches() throws {
        var translator = Self.translator()
        let first = try #require(
            Self.onlyTouch(
                Self.translateXI(&translator, evtype: XI_TouchBegin, detail: 1, x: 10, y: 10, time: 1, now: 1)))
        let second = try #require(
            Self.onlyTouch(
                Self.translateXI(&translator, evtype: XI_TouchBegin, detail: 2, x: 50, y: 50, time: 2, now: 1)))
        #expect(first.id != second.id)
        #expect(first.phase == .began && second.phase == .began)
    }

    @Test("the mouse's button 1 without XI2 is one more touch: press begins it, motion moves it, release ends it")
    func corePointerButtonOneIsATouch() throws {
        var translator = Self.translator(xi: false)
        var press = XEvent()
        press.xbutton.type = ButtonPress
        press.xbutton.window = Self.windowID
        press.xbutton.button = 1
        press.xbutton.x = 40
        press.xbutton.y = 60
        press.xbutton.time = 1_000
        let began = try #require(Self.onlyTouch(translator.translate(&press, now: 50)))
        #expect(
            began
                == TouchInput(
                    id: Self.mouseID, phase: .began, location: Point(x: 40, y: 60), timestamp: 50,
                    type: .indirectPointer))

        var motion = XEvent()
        motion.xmotion.type = MotionNotify
        motion.xmotion.window = Self.windowID
        motion.xmotion.x = 45
        motion.xmotion.y = 66
        motion.xmotion.time = 1_010
        let moved = try #require(Self.onlyTouch(translator.translate(&motion, now: 50.5)))
        #expect(moved.id == Self.mouseID && moved.phase == .moved && moved.location == Point(x: 45, y: 66))
        #expect(abs(moved.timestamp - 50.010) < 1e-9)

        var release = XEvent()
        release.xbutton.type = ButtonRelease
        release.xbutton.window = Self.windowID
        release.xbutton.button = 1
        release.xbutton.x = 45
        release.xbutton.y = 66
        release.xbutton.time = 1_020
        let ended = try #require(Self.onlyTouch(translator.translate(&release, now: 51)))
        #expect(ended.id == Self.mouseID && ended.phase == .ended && ended.location == Point(x: 45, y: 66))
    }

    @Test("pointer motion with no button held is a hover")
    func corePointerMotionWithoutButtonHovers() {
        var translator = Self.translator(xi: false)
        var motion = XEvent()
        motion.xmotion.type = MotionNotify
        motion.xmotion.window = Self.windowID
        motion.xmotion.x = 12
        motion.xmotion.y = 34
        let events = translator.translate(&motion, now: 1)
        guard events.count == 1, case .hover(let point) = events[0] else {
            Issue.record("expected a hover, got \(events)")
            return
        }
        #expect(point == Point(x: 12, y: 34))
    }

    @Test("button 3 opens the context menu at the pointer")
    func buttonThreeIsAContextClick() {
        var translator = Self.translator(xi: false)
        var press = XEvent()
        press.xbutton.type = ButtonPress
        press.xbutton.window = Self.windowID
        press.xbutton.button = 3
        press.xbutton.x = 7
        press.xbutton.y = 9
        let events = translator.translate(&press, now: 1)
        guard events.count == 1, case .contextClick(let point) = events[0] else {
            Issue.record("expected a context click, got \(events)")
            return
        }
        #expect(point == Point(x: 7, y: 9))
    }

    @Test("XI2 button 1 on a mouse is a touch too, keyed by the mouse's device")
    func xiButtonOneIsATouch() throws {
        var translator = Self.translator()
        let began = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_ButtonPress, sourceID: 9, detail: 1, x: 3.5, y: 4.5, time: 1, now: 1)))
        #expect(began.id == Self.mouseID | 9 && began.phase == .began && began.location == Point(x: 3.5, y: 4.5))
        let ended = try #require(
            Self.onlyTouch(
                Self.translateXI(
                    &translator, evtype: XI_ButtonRelease, sourceID: 9, detail: 1, x: 5, y: 6, time: 2, now: 1)))
        #expect(ended.id == began.id && ended.phase == .ended)
    }

    @Test(
        """
        two devices' button 1 held at once: the one release X sends, or a motion with button 1 up, ends every \
        device's line at its last point
        """,
        arguments: [XI_ButtonRelease, XI_Motion])
    func oneReleaseEndsEveryPointingDevicesLine(ending: Int32) throws {
        var translator = Self.translator()
        _ = Self.translateXI(&translator, evtype: XI_ButtonPress, sourceID: 9, detail: 1, x: 10, y: 10, time: 1, now: 1)
        _ = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 9, detail: 0, x: 30, y: 10, time: 2, buttons: 0x02, now: 1)
        // A second mouse (device 11) pressed meanwhile: X sends it no press of its own; only its motion.
        _ = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 11, detail: 0, x: 200, y: 200, time: 3, buttons: 0x02, now: 1)
        let events = Self.translateXI(
            &translator, evtype: ending, sourceID: 11, detail: ending == XI_ButtonRelease ? 1 : 0, x: 210, y: 200,
            time: 4, buttons: ending == XI_ButtonRelease ? 0x02 : 0, now: 1)
        let ended = events.compactMap { event -> TouchInput? in
            guard case .touch(let touch) = event, touch.phase == .ended else { return nil }
            return touch
        }
        #expect(ended.map(\.id) == [Self.mouseID | 9], "\(events)")
        #expect(ended.first?.location == Point(x: 30, y: 10))
        // Nothing is left drawing: the first mouse's next motion hovers.
        let after = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 9, detail: 0, x: 50, y: 50, time: 5, buttons: 0, now: 1)
        #expect(
            !after.contains {
                if case .touch = $0 { true } else { false }
            }, "\(after)")
    }

    @Test("a second master pointer keeps its own button 1: its release and its motions end none of the first's lines")
    func eachMasterPointerKeepsItsOwnButton() throws {
        var translator = Self.translator()
        _ = Self.translateXI(&translator, evtype: XI_ButtonPress, sourceID: 9, detail: 1, x: 10, y: 10, time: 1, now: 1)
        _ = Self.translateXI(
            &translator, evtype: XI_ButtonPress, sourceID: 11, detail: 1, x: 100, y: 100, time: 2, master: 4, now: 1)
        let released = Self.translateXI(
            &translator, evtype: XI_ButtonRelease, sourceID: 11, detail: 1, x: 110, y: 100, time: 3, master: 4, now: 1)
        let moved = Self.translateXI(
            &translator, evtype: XI_Motion, sourceID: 13, detail: 0, x: 300, y: 300, time: 4, buttons: 0, master: 4,
            now: 1)
        let ended = (released + moved).compactMap { event -> UInt64? in
            guard case .touch(let touch) = event, touch.phase == .ended else { return nil }
            return touch.id
        }
        #expect(ended == [Self.mouseID | 11], "\(released + moved)")
    }

    @Test("pointer events the server emulates from a touch are dropped: a finger never draws twice")
    func pointerEmulatedFromTouchIsIgnored() {
        var translator = Self.translator()
        let events = Self.translateXI(
            &translator, evtype: XI_ButtonPress, detail: 1, x: 1, y: 1, time: 1, flags: XIPointerEmulated, now: 1)
        #expect(events.isEmpty)
    }

    @Test("WM_DELETE_WINDOW from the window manager asks to close")
    func deleteWindowMessageRequestsClose() {
        var translator = Self.translator()
        var message = XEvent()
        message.xclient.type = ClientMessage
        message.xclient.window = Self.windowID
        message.xclient.format = 32
        message.xclient.data.l.0 = Int(Self.deleteWindowAtom)
        let events = translator.translate(&message, now: 1)
        guard events.count == 1, case .closeRequested = events[0] else {
            Issue.record("expected a close request, got \(events)")
            return
        }
    }

    @Test("an event the translator does not know is ignored")
    func unknownEventIsIgnored() {
        var translator = Self.translator()
        var event = XEvent()
        event.xcirculate.type = CirculateNotify
        event.xcirculate.window = Self.windowID
        #expect(translator.translate(&event, now: 1).isEmpty)
    }

    @Test("a SelectionRequest to the window's own selection becomes a clipboard request; one to another owner does not")
    func selectionRequestForTheWindow() {
        var translator = Self.translator()
        var event = XEvent()
        event.xselectionrequest.type = SelectionRequest
        event.xselectionrequest.owner = Self.windowID
        event.xselectionrequest.requestor = 77
        event.xselectionrequest.selection = 5
        event.xselectionrequest.target = 6
        event.xselectionrequest.property = 7
        event.xselectionrequest.time = 1234
        let events = translator.translate(&event, now: 1)
        guard events.count == 1, case .clipboard(let clipboardEvent) = events[0] else {
            Issue.record("expected a clipboard event, got \(events)")
            return
        }
        #expect(
            clipboardEvent
                == .request(ConversionRequest(requestor: 77, selection: 5, target: 6, property: 7, time: 1234)))
        event.xselectionrequest.owner = 99
        #expect(translator.translate(&event, now: 1).isEmpty)
    }

    @Test("a PropertyNotify of any window is passed on (INCR transfers watch the requestor's properties)")
    func propertyNotifyOfAnyWindow() {
        var translator = Self.translator()
        var event = XEvent()
        event.xproperty.type = PropertyNotify
        event.xproperty.window = 77
        event.xproperty.atom = 9
        event.xproperty.state = PropertyDelete
        let events = translator.translate(&event, now: 1)
        guard events.count == 1, case .clipboard(let clipboardEvent) = events[0] else {
            Issue.record("expected a clipboard event, got \(events)")
            return
        }
        #expect(clipboardEvent == .propertyChanged(window: 77, property: 9, deleted: true))
    }

    @Test("the root window's RESOURCE_MANAGER changing says the X resources changed; its other properties say nothing")
    func rootResourcesChange() {
        var translator = EventTranslator(
            windowID: Self.windowID, deleteWindowAtom: Self.deleteWindowAtom, xiOpcode: Self.xiOpcode,
            connection: EventTranslator.Connection(
                fetchCookieData: { $0.data != nil }, freeCookieData: { _ in }, keysym: { _ in 0x7A },
                reloadDevices: { nil }),
            rootWindow: 1)
        var event = XEvent()
        event.xproperty.type = PropertyNotify
        event.xproperty.window = 1
        event.xproperty.atom = Atom(XA_RESOURCE_MANAGER)
        let resources = translator.translate(&event, now: 1)
        guard resources.count == 1, case .resourcesChanged = resources[0] else {
            Issue.record("expected the resources to change, got \(resources)")
            return
        }
        event.xproperty.atom = 300
        #expect(translator.translate(&event, now: 1).isEmpty)
    }

    @Test("a generic event of another extension is ignored without fetching its data")
    func otherExtensionIsIgnored() {
        var fetched = false
        var translator = EventTranslator(
            windowID: Self.windowID, deleteWindowAtom: Self.deleteWindowAtom, xiOpcode: Self.xiOpcode,
            connection: EventTranslator.Connection(
                fetchCookieData: { _ in
                    fetched = true
                    return false
                }, freeCookieData: { _ in }, keysym: { _ in 0 }))
        var event = XEvent()
        event.xcookie.type = GenericEvent
        event.xcookie.extension = Self.xiOpcode + 1
        event.xcookie.evtype = XI_TouchBegin
        #expect(translator.translate(&event, now: 1).isEmpty)
        #expect(!fetched)
    }

}
