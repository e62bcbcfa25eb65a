import CX11
import TouchKit
import TouchTracker
import TouchTrackerSession

/// Turns Xlib events into `PlatformEvent`s: XI2 touches and pointer (or core pointer events without XI2), scrolls
/// (`ScrollValuators`), window life-cycle and keys. The mouse's button 1 becomes one more touch, and so does a
/// tablet pen's tip (a pen or an eraser touch, by the device: `TabletTool`); a pen moving without its tip down
/// hovers, and its XI 1 ProximityOut says it left.
///
/// It knows the window by its id and `WM_DELETE_WINDOW` atom and asks the X connection only through `Connection`,
/// so tests can feed it events built in memory.
struct EventTranslator {
    /// What the translator asks of the X connection.
    struct Connection {
        /// Fetches an XI2 cookie's data (`XGetEventData`); false when there is none.
        var fetchCookieData: (inout XGenericEventCookie) -> Bool
        /// Frees what `fetchCookieData` fetched (`XFreeEventData`).
        var freeCookieData: (inout XGenericEventCookie) -> Void
        /// The keysym of a key event (`XLookupString`, which reads the display's keyboard mapping).
        var keysym: (inout XKeyEvent) -> KeySym
        /// The text a key event types (`XLookupString`), empty for none.
        var typed: (inout XKeyEvent) -> String = { _ in "" }
        /// The pointing devices as they are now, read again when devices came or went (nil: keep what is known).
        var reloadDevices: () -> PointerDevices? = { nil }
        /// Where every device's valuators stand now, by device id and valuator number (nil: not known).
        var valuatorValues: () -> [Int32: [Int32: Double]]? = { nil }

        /// The real connection of `display`.
        static func live(_ display: X11Display) -> Connection {
            Connection(
                fetchCookieData: { XGetEventData(display.pointer, &$0) != 0 },
                freeCookieData: { XFreeEventData(display.pointer, &$0) },
                keysym: { key in
                    var keysym: KeySym = 0
                    var buffer = [CChar](repeating: 0, count: 8)
                    XLookupString(&key, &buffer, Int32(buffer.count), &keysym, nil)
                    return keysym
                },
                typed: { key in
                    var buffer = [CChar](repeating: 0, count: 16)
                    let count = Int(XLookupString(&key, &buffer, Int32(buffer.count), nil, nil))
                    guard count > 0, count < buffer.count else { return "" }
                    return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                }, valuatorValues: { InputDevices.valuatorValues(display: display) })
        }
    }

    let windowID: CX11.Window
    let deleteWindowAtom: Atom
    /// XInput2's opcode, which marks its events; nil without XI2 (core events only).
    let xiOpcode: Int32?
    private let connection: Connection
    private var timeline = ServerTimeline()
    /// Touch ids with the slave device that produced them, so a removed device cancels exactly its touches.
    private var touchSources: [UInt64: Int32] = [:]
    /// The pointing devices (a mouse, a pen, an eraser) whose button 1 is down, by source device, each with where
    /// its touch was at its press or last move. Each source's touch is its own: another device's motion does not
    /// move it. A release is reported where the master pointer is, which another device (a finger's emulated
    /// pointer) may have moved meanwhile; the touch ends where its own device last was.
    private var pointerTouches: [Int32: Point] = [:]
    /// The master pointer each of `pointerTouches` was pressed through: each master keeps its own button 1.
    private var pointerTouchMasters: [Int32: Int32] = [:]
    /// The tool that last hovered or touched, for a leave the server reports for the master device (when a stroke
    /// that went out of the window lifts, its grab ends with a leave of the master's).
    private var lastStylusSource: Int32?
    /// Touchpad pinches and swipes become virtual touches.
    private var gestures = TouchpadGestureBridge()
    /// Pressure and tilt axes and tablet tools, by device id; read again when devices come and go.
    private var devices: PointerDevices

    /// Platform ids of mouse "touches" live above every XI2 (device, touch id) pair.
    private static let mouseIDBase: UInt64 = 1 << 62

    /// The root window, whose RESOURCE_MANAGER property holds the X resources (`Xft.dpi`); 0: not watched.
    let rootWindow: CX11.Window

    init(
        windowID: CX11.Window, deleteWindowAtom: Atom, xiOpcode: Int32?, devices: PointerDevices = PointerDevices(),
        connection: Connection, rootWindow: CX11.Window = 0
    ) {
        self.windowID = windowID
        self.rootWindow = rootWindow
        self.deleteWindowAtom = deleteWindowAtom
        self.xiOpcode = xiOpcode
        self.devices = devices
        self.connection = connection
    }

    /// A translator for `window`; with XI2, `deviceWatch` reads the devices now and whenever they change.
    init(display: X11Display, window: X11Window, xi: XInput2?, deviceWatch: DeviceWatch?) {
        var connection = Connection.live(display)
        if let deviceWatch { connection.reloadDevices = { deviceWatch.load() } }
        self.init(
            windowID: window.id, deleteWindowAtom: window.deleteWindowAtom, xiOpcode: xi?.opcode,
            devices: connection.reloadDevices() ?? PointerDevices(), connection: connection,
            rootWindow: display.rootWindow)
        // Xlib fetches the keyboard mapping and builds its table of keysym names the first time a key is looked up
        // (about 10 ms, a round trip and a large reply): done now, before the window shows, so the first key press
        // (a Ctrl+Z while a finger draws, say) does not hold up a frame.
        _ = XKeysymToKeycode(display.pointer, KeySym(0x7A))  // XK_z
        _ = XKeysymToString(KeySym(0x7A))
    }

    mutating func translate(_ event: inout XEvent, now: Double) -> [PlatformEvent] {
        switch event.type {
        case GenericEvent:
            return translateGeneric(&event, now: now)
        case Expose:
            let e = event.xexpose
            guard e.window == windowID else { return [] }
            let rect = Rect(x: Double(e.x), y: Double(e.y), width: Double(e.width), height: Double(e.height))
            return [.expose(rect, isLast: e.count == 0)]
        case ConfigureNotify:
            let e = event.xconfigure
            guard e.window == windowID else { return [] }
            return [.resized(width: Int(e.width), height: Int(e.height))]
        case MapNotify:
            return event.xmap.window == windowID ? [.mapped] : []
        case UnmapNotify:
            // An unmapped window gets no more input for its touches: the system takes them away.
            return liveTouchesCancelled(now: now)
        case ClientMessage:
            let e = event.xclient
            guard e.window == windowID else { return [] }
            guard Atom(e.data.l.0) == deleteWindowAtom else { return [.clientMessage(ClientMessageData(e))] }
            return [.closeRequested]
        case KeyPress:
            return [.key(keyStroke(&event.xkey))]
        case KeyRelease:
            return [.keyReleased(report(&event.xkey, pressed: false))]
        case FocusIn, FocusOut:
            let e = event.xfocus
            // A grab's focus changes (a window manager's Alt+Tab holds the keyboard for a moment) and the focus
            // moving inside the window are not the window's own gaining or losing it. With the focus following the
            // pointer (PointerRoot, no window manager), the pointer coming in or going out is (NotifyPointer).
            guard e.window == windowID, e.mode == NotifyNormal || e.mode == NotifyWhileGrabbed,
                e.detail != NotifyInferior
            else { return [] }
            return [.focusChanged(event.type == FocusIn)]
        case SelectionRequest:
            let e = event.xselectionrequest
            guard e.owner == windowID else { return [] }
            return [
                .clipboard(
                    .request(
                        ConversionRequest(
                            requestor: e.requestor, selection: e.selection, target: e.target, property: e.property,
                            time: e.time)))
            ]
        case SelectionClear:
            let e = event.xselectionclear
            guard e.window == windowID else { return [] }
            return [.clipboard(.cleared(selection: e.selection))]
        case SelectionNotify:
            let e = event.xselection
            guard e.requestor == windowID else { return [] }
            return [.clipboard(.converted(selection: e.selection, target: e.target, property: e.property))]
        case PropertyNotify:
            let e = event.xproperty
            // The root window's properties are watched for the X resources alone.
            if rootWindow != 0, e.window == rootWindow {
                return e.atom == Atom(XA_RESOURCE_MANAGER) ? [.resourcesChanged] : []
            }
            return [
                .clipboard(.propertyChanged(window: e.window, property: e.atom, deleted: e.state == PropertyDelete))
            ]
        case ButtonPress, ButtonRelease, MotionNotify:
            return translateCorePointer(&event, now: now)
        case let type where devices.proximityLeftTypes.contains(type):
            lastStylusSource = nil
            return [.stylusLeft]
        default:
            return []
        }
    }

    private mutating func translateGeneric(_ event: inout XEvent, now: Double) -> [PlatformEvent] {
        guard let xiOpcode, event.xcookie.extension == xiOpcode else { return [] }
        guard connection.fetchCookieData(&event.xcookie), let data = event.xcookie.data else { return [] }
        defer { connection.freeCookieData(&event.xcookie) }
        let type = event.xcookie.evtype
        if type == XI_HierarchyChanged {
            return hierarchyChanged(data.assumingMemoryBound(to: XIHierarchyEvent.self).pointee, now: now)
        }
        switch type {
        case XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd:
            return pinch(data.assumingMemoryBound(to: XIGesturePinchEvent.self).pointee, type: type, now: now)
        case XI_GestureSwipeBegin, XI_GestureSwipeUpdate, XI_GestureSwipeEnd:
            return swipe(data.assumingMemoryBound(to: XIGestureSwipeEvent.self).pointee, type: type, now: now)
        case XI_Leave:
            return left(data.assumingMemoryBound(to: XILeaveEvent.self).pointee)
        case XI_Enter:
            // Scrolls over other windows moved the scroll valuators: where they stand now is where scrolls here
            // start from.
            let entered = data.assumingMemoryBound(to: XIEnterEvent.self).pointee
            if entered.event == windowID, let values = connection.valuatorValues() { devices.scrolling.rebase(values) }
            return []
        default:
            break
        }
        let e = data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
        guard e.event == windowID else { return [] }
        let time = eventTime(e.time, now: now)
        let location = Point(x: e.event_x, y: e.event_y)
        switch type {
        case XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            // The touch id is a C int holding an unsigned 32-bit value; ids are per device, so key by both.
            let id = UInt64(UInt32(bitPattern: e.sourceid)) << 32 | UInt64(UInt32(bitPattern: e.detail))
            let phase: TouchInput.Phase
            switch type {
            case XI_TouchBegin:
                phase = .began
                touchSources[id] = e.sourceid
            case XI_TouchUpdate: phase = .moved
            default:
                phase = .ended
                touchSources[id] = nil
            }
            return [
                .touch(TouchInput(id: id, phase: phase, location: location, timestamp: time, force: pressure(of: e)))
            ]
        case XI_ButtonPress, XI_ButtonRelease, XI_Motion:
            // A scroll moves scroll valuators (in motion the server may have emulated from a driver's buttons 4 to
            // 7); a device without them scrolls with those buttons.
            let modifiers = UInt32(bitPattern: e.mods.effective)
            var scrolled: [PlatformEvent] = []
            if type == XI_Motion, let travel = devices.scrolling.travel(in: e.valuators, of: e.sourceid) {
                scrolled = [
                    .scroll(
                        ScrollValuators.input(
                            at: location, notches: travel.notches, distance: travel.distance, state: modifiers))
                ]
            }
            // The server also emulates pointer events from touches, and buttons 4 to 7 from scroll valuators; a
            // finger must never draw twice, nor a wheel scroll twice.
            if e.flags & XIPointerEmulated != 0 { return scrolled }
            if type == XI_ButtonPress, let notches = devices.scrolling.buttonNotches(e.detail, of: e.sourceid) {
                return [.scroll(ScrollValuators.input(at: location, notches: notches, state: modifiers))]
            }
            // X keeps one button 1 for a master pointer and all its devices: a second device pressing while another
            // holds it sends nothing, and the one release comes when the last lets go. So a release of button 1,
            // or any event saying it is no longer held, ends every device's line, each at its last point (none is
            // left drawing for good, following a pointer whose button is up).
            var ended: [PlatformEvent] = []
            if (type == XI_ButtonRelease && e.detail == 1) || (type == XI_Motion && holdsButton1(e) == false) {
                for source in pointerTouches.keys.sorted()
                where pointerTouchMasters[source] == e.deviceid && (source != e.sourceid || type == XI_Motion) {
                    ended += endPointerTouch(of: source, at: time)
                }
            }
            if type == XI_ButtonPress, e.detail == 1 { pointerTouchMasters[e.sourceid] = e.deviceid }
            // A pen is a pointer whose tip is button 1 and whose "Abs Pressure" axis says how hard it presses.
            return scrolled + ended
                + mouse(
                    type: type, button: e.detail, location: location, time: time, sourceID: e.sourceid,
                    force: pressure(of: e), tilt: tilt(of: e))
        default:
            return []
        }
    }

    /// The event's pressure as TouchKit's force, when its device has a pressure axis and the event carries it.
    private func pressure(of event: XIDeviceEvent) -> Double? {
        devices.pressureAxes[event.sourceid].flatMap { axis in
            event.valuators.value(ofValuator: axis.number).flatMap(axis.force)
        }
    }

    /// The event's tilt, when its device has tilt axes and the event carries both.
    private func tilt(of event: XIDeviceEvent) -> StylusTilt? {
        guard let axes = devices.tiltAxes[event.sourceid], let x = event.valuators.value(ofValuator: axes.x),
            let y = event.valuators.value(ofValuator: axes.y)
        else { return nil }
        return StylusTilt(x: Swift.max(-90, Swift.min(90, x)), y: Swift.max(-90, Swift.min(90, y)))
    }

    /// An X server timestamp (milliseconds, a C `Time`) on the app's monotonic time line.
    private mutating func eventTime(_ time: Time, now: Double) -> Double {
        timeline.seconds(forServerTime: UInt32(truncatingIfNeeded: time), now: now)
    }

    private static func gesturePhase(_ type: Int32, begin: Int32, end: Int32, flags: Int32, cancelled: Int32)
        -> TouchpadGestureBridge.Phase
    {
        if type == begin { return .began }
        if type == end { return flags & cancelled != 0 ? .cancelled : .ended }
        return .changed
    }

    private mutating func pinch(_ e: XIGesturePinchEvent, type: Int32, now: Double) -> [PlatformEvent] {
        guard e.event == windowID else { return [] }
        let phase = Self.gesturePhase(
            type, begin: XI_GesturePinchBegin, end: XI_GesturePinchEnd, flags: e.flags,
            cancelled: XIGesturePinchEventCancelled)
        let time = eventTime(e.time, now: now)
        return gestures.pinch(
            phase, focus: Point(x: e.event_x, y: e.event_y), delta: Point(x: e.delta_x, y: e.delta_y),
            scale: e.scale, deltaAngle: e.delta_angle, timestamp: time
        ).map { .touch($0) }
    }

    private mutating func swipe(_ e: XIGestureSwipeEvent, type: Int32, now: Double) -> [PlatformEvent] {
        guard e.event == windowID else { return [] }
        let phase = Self.gesturePhase(
            type, begin: XI_GestureSwipeBegin, end: XI_GestureSwipeEnd, flags: e.flags,
            cancelled: XIGestureSwipeEventCancelled)
        let time = eventTime(e.time, now: now)
        return gestures.swipe(
            phase, focus: Point(x: e.event_x, y: e.event_y), delta: Point(x: e.delta_x, y: e.delta_y),
            fingerCount: Int(e.detail), timestamp: time
        ).map { .touch($0) }
    }

    private mutating func translateCorePointer(_ event: inout XEvent, now: Double) -> [PlatformEvent] {
        let type = event.type
        let button = event.xbutton
        guard button.window == windowID else { return [] }
        let time = eventTime(button.time, now: now)
        let location = Point(x: Double(button.x), y: Double(button.y))
        switch type {
        case ButtonPress where ScrollValuators.notches(forButton: Int32(button.button)) != nil:
            let notches = ScrollValuators.notches(forButton: Int32(button.button)) ?? .zero
            return [.scroll(ScrollValuators.input(at: location, notches: notches, state: button.state))]
        case ButtonPress:
            return mouse(
                type: XI_ButtonPress, button: Int32(button.button), location: location, time: time, sourceID: 0)
        case ButtonRelease:
            return mouse(
                type: XI_ButtonRelease, button: Int32(button.button), location: location, time: time, sourceID: 0)
        default:
            let motion = event.xmotion
            let point = Point(x: Double(motion.x), y: Double(motion.y))
            return mouse(type: XI_Motion, button: 0, location: point, time: time, sourceID: 0)
        }
    }

    /// Whether the event says button 1 is held (its button state, as it was just before the event); nil when it
    /// carries no button state.
    private func holdsButton1(_ event: XIDeviceEvent) -> Bool? {
        guard event.buttons.mask_len > 0, let mask = event.buttons.mask else { return nil }
        return mask[0] & (1 << 1) != 0
    }

    /// The touch id of a pointing device's button 1: the device's id above `mouseIDBase`.
    private static func pointerTouchID(of source: Int32) -> UInt64 { mouseIDBase | UInt64(UInt32(bitPattern: source)) }

    /// What kind of touch a pointing device's button 1 makes: a pen's tip, an eraser, or a mouse's.
    private func touchType(of source: Int32) -> TouchType {
        switch devices.tools[source] {
        case .pen: .pencil
        case .eraser: .eraser
        case nil: .indirectPointer
        }
    }

    /// Ends the line `source`'s button 1 draws, at its last point: its release, whether X reported it or not.
    private mutating func endPointerTouch(
        of source: Int32, at time: Double, force: Double? = nil, tilt: StylusTilt? = nil
    ) -> [PlatformEvent] {
        guard let last = pointerTouches.removeValue(forKey: source) else { return [] }
        pointerTouchMasters[source] = nil
        let type = touchType(of: source)
        let id = Self.pointerTouchID(of: source)
        touchSources[id] = nil
        let ended = PlatformEvent.touch(
            TouchInput(id: id, phase: .ended, location: last, timestamp: time, force: force, type: type, tilt: tilt))
        // A pen that cannot tell when it leaves the tablet's reach counts as leaving when it lifts.
        let leaves = type.isStylus && !devices.toolsTellingProximity.contains(source)
        return leaves ? [ended, .stylusLeft] : [ended]
    }

    private mutating func mouse(
        type: Int32, button: Int32, location: Point, time: Double, sourceID: Int32, force: Double? = nil,
        tilt: StylusTilt? = nil
    ) -> [PlatformEvent] {
        let touchType = touchType(of: sourceID)
        let id = Self.pointerTouchID(of: sourceID)
        func touch(_ phase: TouchInput.Phase, at location: Point) -> PlatformEvent {
            .touch(
                TouchInput(
                    id: id, phase: phase, location: location, timestamp: time, force: force, type: touchType,
                    tilt: tilt))
        }
        switch type {
        case XI_ButtonPress where button == 1:
            var events: [PlatformEvent] = []
            if let stale = pointerTouches[sourceID] {
                // A press without a release (the release went to another client): close the old one first.
                events.append(touch(.cancelled, at: stale))
            }
            pointerTouches[sourceID] = location
            touchSources[id] = sourceID
            if touchType.isStylus { lastStylusSource = sourceID }
            events.append(touch(.began, at: location))
            return events
        case XI_ButtonPress where button == 3:
            return [.contextClick(location)]
        case XI_Motion:
            guard pointerTouches[sourceID] != nil else {
                // A pen moving with its tip up hovers within the tablet's reach (a pen that cannot say when it
                // leaves is a stylus only while it touches).
                guard touchType.isStylus, devices.toolsTellingProximity.contains(sourceID) else {
                    return [.hover(location)]
                }
                lastStylusSource = sourceID
                return [.stylusHover(location, tool: touchType)]
            }
            pointerTouches[sourceID] = location
            return [touch(.moved, at: location)]
        case XI_ButtonRelease where button == 1:
            return endPointerTouch(of: sourceID, at: time, force: force, tilt: tilt)
        default:
            return []
        }
    }

    /// The pointer left the window. A hovering stylus that leaves it has left, as Wayland's `proximity_out` says
    /// when a tool leaves a surface: its ring goes, and fingers draw again in this window half a second later. (Not
    /// while its tip is down: the window keeps its events until it lifts, and then the grab's end is reported as
    /// the master device leaving, which stands for the tool that last hovered or touched.)
    private mutating func left(_ event: XILeaveEvent) -> [PlatformEvent] {
        guard event.event == windowID, event.mode == XINotifyNormal || event.mode == XINotifyUngrab else { return [] }
        let source = devices.tools[event.sourceid] != nil ? event.sourceid : lastStylusSource
        guard let source, devices.toolsTellingProximity.contains(source), pointerTouches[source] == nil else {
            return []
        }
        lastStylusSource = nil
        return [.stylusLeft]
    }

    private mutating func hierarchyChanged(_ event: XIHierarchyEvent, now: Double) -> [PlatformEvent] {
        // A device came or went: the next one plugged in may take a removed one's id, so what each id is (a pen, a
        // mouse, which axes) is read again.
        let changes = XISlaveAdded | XISlaveRemoved | XIDeviceEnabled | XIDeviceDisabled | XISlaveAttached
        let before = devices
        if event.flags & changes != 0, let reloaded = connection.reloadDevices() { devices = reloaded }
        var removed: [Int32] = []
        for index in 0..<Int(event.num_info) {
            let info = event.info[index]
            if info.flags & (XISlaveRemoved | XIDeviceDisabled | XIMasterRemoved | XISlaveDetached) != 0 {
                removed.append(info.deviceid)
            }
        }
        var events: [PlatformEvent] = []
        // A tool that goes away while near sends no ProximityOut: it has left.
        if removed.contains(where: { before.toolsTellingProximity.contains($0) }) {
            events.append(.stylusLeft)
            lastStylusSource = nil
        }
        for source in removed {
            events.append(.deviceRemoved(sourceID: source))
            for (id, owner) in touchSources where owner == source {
                touchSources[id] = nil
                pointerTouches[source] = nil
                events.append(.touch(TouchInput(id: id, phase: .cancelled, location: .zero, timestamp: now)))
            }
        }
        return events
    }

    private mutating func liveTouchesCancelled(now: Double) -> [PlatformEvent] {
        let ids = touchSources.keys.sorted()
        touchSources.removeAll()
        pointerTouches.removeAll()
        return ids.map { .touch(TouchInput(id: $0, phase: .cancelled, location: .zero, timestamp: now)) }
    }

    private func keyStroke(_ key: inout XKeyEvent) -> KeyStroke {
        let shift = key.state & UInt32(ShiftMask) != 0
        let control = key.state & UInt32(ControlMask) != 0
        let alt = key.state & UInt32(Mod1Mask | Mod4Mask) != 0
        let keysym = connection.keysym(&key)
        let name = XKeysymToString(keysym).map { String(cString: $0) } ?? ""
        return KeyStroke(
            name: name, control: control, shift: shift, alt: alt, serverTime: key.time,
            report: report(&key, pressed: true))
    }

    /// A key event as the accessibility registry is told of it: its text when it types some (not a control
    /// character), else its keysym's name.
    private func report(_ key: inout XKeyEvent, pressed: Bool) -> KeyEventReport {
        let keysym = connection.keysym(&key)
        let typed = connection.typed(&key)
        let isText = !typed.isEmpty && typed.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        let text = isText ? typed : XKeysymToString(keysym).map { String(cString: $0) } ?? ""
        return KeyEventReport(
            pressed: pressed, keysym: UInt32(truncatingIfNeeded: keysym), keycode: key.keycode, modifiers: key.state,
            time: UInt32(truncatingIfNeeded: key.time), text: text, isText: isText)
    }
}
