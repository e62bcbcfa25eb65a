internal import CWayland
import Glibc
import TouchTracker

/// The seat's touchscreen, pointer and keyboard: takes each device when the seat says it has one, reads its events
/// into `SeatEvent`s (keys through the compositor's keymap) for the host's loop, and owns the device proxies.
///
/// Only events for the window's surface count; a device the seat loses is released, and its touches or drag end
/// through the events the compositor sends before that.
final class WaylandSeat {
    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    let seat: OpaquePointer
    private var touch: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    private let keyboardState = XkbKeyboard()
    private let seatListener: WaylandListener<wl_seat_listener>
    private let touchListener: WaylandListener<wl_touch_listener>
    private let pointerListener: WaylandListener<wl_pointer_listener>
    private let keyboardListener: WaylandListener<wl_keyboard_listener>
    private let swipeListener: WaylandListener<zwp_pointer_gesture_swipe_v1_listener>
    private let pinchListener: WaylandListener<zwp_pointer_gesture_pinch_v1_listener>
    /// The arrow to show when the pointer enters the window (nil: none could be loaded).
    var cursor: WaylandCursor?
    /// The compositor's pointer-gestures global, when it offers one (asked when the pointer comes).
    private let pointerGesturesGlobal: () -> OpaquePointer?
    /// The compositor's tablet manager, when it offers one (asked when the seat's devices come).
    private let tabletManagerGlobal: () -> OpaquePointer?
    /// The seat's tablets and their tools, once taken.
    private var tablets: WaylandTabletSeat?
    /// The window's surface, whose tablet events are the window's (`WaylandTabletSeat.windowSurface`).
    var windowSurface: OpaquePointer? {
        didSet { tablets?.windowSurface = windowSurface }
    }
    private var swipe: OpaquePointer?
    private var pinch: OpaquePointer?
    /// Whether the pointer is over another surface of this client's than the window's canvas: the title bar and
    /// borders libdecor draws. Its events reach this seat's pointer too, and are not the canvas's.
    private var pointerElsewhere = false
    /// Touches that went down on another surface (the decorations), followed to their end and not passed on.
    private var touchesElsewhere: Set<Int32> = []
    /// Whether the touchpad gesture under way began over another surface.
    private var gestureElsewhere = false
    /// Events since the loop last took them.
    private var events: [SeatEvent] = []
    /// Whether scroll events came since the pointer's last frame.
    private var scrollPending = false
    /// The serial of the last press (a key, a button or a touch): clipboard and activation requests must carry
    /// one, to prove they answer the person.
    private(set) var lastInputSerial: UInt32 = 0
    /// The compositor's `repeat_info`, for `KeyRepeat`.
    private(set) var repeatInfo: (rate: Int32, delay: Int32)?
    /// What the seat has, for `--verbose`.
    private(set) var capabilities: [String] = []
    /// The seat's name, for `--verbose`.
    private(set) var name = ""

    init(
        connection: WaylandConnection, seat: OpaquePointer, pointerGestures: @escaping () -> OpaquePointer?,
        tabletManager: @escaping () -> OpaquePointer? = { nil }
    ) {
        self.connection = connection
        self.seat = seat
        pointerGesturesGlobal = pointerGestures
        tabletManagerGlobal = tabletManager
        swipeListener = WaylandListener(
            zwp_pointer_gesture_swipe_v1_listener(
                begin: { data, _, _, time, surface, fingers in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    seat.gestureElsewhere = seat.isElsewhere(surface)
                    seat.appendFromGesture(.swipe(.began, time: time, fingers: Int(fingers), dx: 0, dy: 0))
                },
                update: { data, _, time, dx, dy in
                    listenerOwner(data, as: WaylandSeat.self).appendFromGesture(
                        .swipe(.changed, time: time, fingers: 0, dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy))
                    )
                },
                end: { data, _, _, time, cancelled in
                    listenerOwner(data, as: WaylandSeat.self).appendFromGesture(
                        .swipe(cancelled != 0 ? .cancelled : .ended, time: time, fingers: 0, dx: 0, dy: 0))
                }))
        pinchListener = WaylandListener(
            zwp_pointer_gesture_pinch_v1_listener(
                begin: { data, _, _, time, surface, _ in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    seat.gestureElsewhere = seat.isElsewhere(surface)
                    seat.appendFromGesture(.pinch(.began, time: time, dx: 0, dy: 0, scale: 1, rotation: 0))
                },
                update: { data, _, time, dx, dy, scale, rotation in
                    listenerOwner(data, as: WaylandSeat.self).appendFromGesture(
                        .pinch(
                            .changed, time: time, dx: wl_fixed_to_double(dx), dy: wl_fixed_to_double(dy),
                            scale: wl_fixed_to_double(scale), rotation: wl_fixed_to_double(rotation)))
                },
                end: { data, _, _, time, cancelled in
                    listenerOwner(data, as: WaylandSeat.self).appendFromGesture(
                        .pinch(cancelled != 0 ? .cancelled : .ended, time: time, dx: 0, dy: 0, scale: .nan, rotation: 0)
                    )
                }))
        seatListener = WaylandListener(
            wl_seat_listener(
                capabilities: { data, _, capabilities in
                    listenerOwner(data, as: WaylandSeat.self).update(capabilities: capabilities)
                },
                name: { data, _, name in
                    listenerOwner(data, as: WaylandSeat.self).name = name.map { String(cString: $0) } ?? ""
                }))
        touchListener = WaylandListener(
            wl_touch_listener(
                down: { data, _, serial, time, surface, id, x, y in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard !seat.isElsewhere(surface) else {
                        seat.touchesElsewhere.insert(id)
                        return
                    }
                    seat.lastInputSerial = serial
                    seat.events.append(
                        .touchDown(time: time, id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
                },
                up: { data, _, _, time, id in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard seat.touchesElsewhere.remove(id) == nil else { return }
                    seat.events.append(.touchUp(time: time, id: id))
                },
                motion: { data, _, time, id, x, y in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard !seat.touchesElsewhere.contains(id) else { return }
                    seat.events.append(
                        .touchMotion(time: time, id: id, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
                },
                frame: { data, _ in listenerOwner(data, as: WaylandSeat.self).events.append(.touchFrame) },
                cancel: { data, _ in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    seat.touchesElsewhere.removeAll()
                    seat.events.append(.touchCancel)
                },
                shape: { _, _, _, _, _ in }, orientation: { _, _, _, _ in }))
        pointerListener = WaylandListener(
            wl_pointer_listener(
                enter: { data, pointer, serial, surface, x, y in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    // Over the decorations their own pointer sets the cursor (a resize arrow, say).
                    seat.pointerElsewhere = seat.isElsewhere(surface)
                    guard !seat.pointerElsewhere else { return }
                    if let pointer { seat.cursor?.show(on: pointer, serial: serial) }
                    seat.events.append(.pointerEnter(x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
                },
                leave: { data, _, _, _ in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard !seat.pointerElsewhere else {
                        seat.pointerElsewhere = false
                        return
                    }
                    seat.events.append(.pointerLeave)
                },
                motion: { data, _, time, x, y in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard !seat.pointerElsewhere else { return }
                    seat.events.append(.pointerMotion(time: time, x: wl_fixed_to_double(x), y: wl_fixed_to_double(y)))
                },
                button: { data, _, serial, time, button, state in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard !seat.pointerElsewhere else { return }
                    let pressed = state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue
                    if pressed { seat.lastInputSerial = serial }
                    seat.events.append(.pointerButton(time: time, button: button, pressed: pressed))
                },
                // Scroll events wait for their frame (`ScrollFrame`); the other pointer events need no grouping, so
                // a frame is passed on only after a scroll.
                axis: { data, _, time, axis, value in
                    guard let axis = ScrollFrame.Axis(rawValue: axis) else { return }
                    listenerOwner(data, as: WaylandSeat.self).appendScroll(
                        .axis(time: time, axis, value: wl_fixed_to_double(value)))
                },
                frame: { data, _ in listenerOwner(data, as: WaylandSeat.self).endPointerFrame() },
                axis_source: { data, _, source in
                    guard let source = ScrollFrame.Source(rawValue: source) else { return }
                    listenerOwner(data, as: WaylandSeat.self).appendScroll(.axisSource(source))
                },
                axis_stop: { data, _, time, axis in
                    guard let axis = ScrollFrame.Axis(rawValue: axis) else { return }
                    listenerOwner(data, as: WaylandSeat.self).appendScroll(.axisStop(time: time, axis))
                },
                axis_discrete: { data, _, axis, discrete in
                    guard let axis = ScrollFrame.Axis(rawValue: axis) else { return }
                    listenerOwner(data, as: WaylandSeat.self).appendScroll(.axisDiscrete(axis, steps: discrete))
                },
                axis_value120: { data, _, axis, value120 in
                    guard let axis = ScrollFrame.Axis(rawValue: axis) else { return }
                    listenerOwner(data, as: WaylandSeat.self).appendScroll(.axisValue120(axis, value120: value120))
                }))
        keyboardListener = WaylandListener(
            wl_keyboard_listener(
                keymap: { data, _, format, fd, size in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, let state = seat.keyboardState else {
                        close(fd)
                        return
                    }
                    state.useKeymap(fd: fd, size: Int(size))
                },
                enter: { data, _, _, _, _ in
                    listenerOwner(data, as: WaylandSeat.self).events.append(.keyboardEntered)
                },
                leave: { data, _, _, _ in listenerOwner(data, as: WaylandSeat.self).events.append(.keyboardLeft) },
                key: { data, _, serial, time, key, state in
                    listenerOwner(data, as: WaylandSeat.self).key(
                        key, pressed: state == WL_KEYBOARD_KEY_STATE_PRESSED.rawValue, serial: serial, time: time)
                },
                modifiers: { data, _, _, depressed, latched, locked, group in
                    let seat = listenerOwner(data, as: WaylandSeat.self)
                    guard let state = seat.keyboardState else { return }
                    state.updateModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
                    let held = state.controlAndShift
                    seat.events.append(.modifiers(control: held.control, shift: held.shift))
                },
                repeat_info: { data, _, rate, delay in
                    listenerOwner(data, as: WaylandSeat.self).repeatInfo = (rate, delay)
                }))
        wl_seat_add_listener(seat, seatListener.pointer, listenerData(self))
    }

    /// Whether `surface` is another surface of this client's than the window's canvas (its decorations): their
    /// pointer and touch events are theirs. Everything counts as the window's until it has a surface.
    private func isElsewhere(_ surface: OpaquePointer?) -> Bool {
        guard let windowSurface, let surface else { return false }
        return surface != windowSurface
    }

    /// A scroll event of the pointer's, unless the pointer is over the decorations. Before seat version 5 the
    /// pointer has no frames: each axis event is a frame of its own.
    private func appendScroll(_ event: SeatEvent) {
        guard !pointerElsewhere else { return }
        events.append(event)
        scrollPending = true
        if wl_seat_get_version(seat) < 5 { endPointerFrame() }
    }

    /// The pointer's frame ended: a scroll in it is complete.
    private func endPointerFrame() {
        guard scrollPending else { return }
        scrollPending = false
        events.append(.pointerFrame)
    }

    /// A touchpad gesture's event, unless the gesture began over the decorations.
    private func appendFromGesture(_ event: SeatEvent) {
        if !gestureElsewhere { events.append(event) }
    }

    deinit {
        tablets = nil
        if let swipe { zwp_pointer_gesture_swipe_v1_destroy(swipe) }
        if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
        if let touch { wl_touch_release(touch) }
        defer { wl_seat_destroy(seat) }
        if let pointer { wl_pointer_release(pointer) }
        if let keyboard { wl_keyboard_release(keyboard) }
    }

    var hasEvents: Bool { !events.isEmpty }

    /// The events since the last call, oldest first.
    func takeEvents() -> [SeatEvent] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// What key `code` means with the modifiers held now (for a repeat, read at the time it repeats).
    func keyCommand(forKey code: UInt32) -> KeyCommand? { keyboardState?.command(forKey: code)?.command }

    /// Key `code` pressed again by the key's repeat, at `time` (the compositor's milliseconds), as the registry is
    /// told of it.
    func repeatReport(forKey code: UInt32, time: UInt32) -> KeyEventReport? {
        keyboardState?.report(forKey: code, pressed: true, time: time)
    }

    private func key(_ code: UInt32, pressed: Bool, serial: UInt32, time: UInt32) {
        let report = keyboardState?.report(forKey: code, pressed: pressed, time: time)
        guard pressed else {
            events.append(.keyReleased(code: code, report: report))
            return
        }
        lastInputSerial = serial
        guard let (command, repeats) = keyboardState?.command(forKey: code), let report else { return }
        events.append(.keyPressed(code: code, command: command, repeats: repeats, report: report))
    }

    private func update(capabilities: UInt32) {
        let data = listenerData(self)
        // Tablets are not a seat capability: their manager says which the seat has, from when it is asked.
        if tablets == nil, let manager = tabletManagerGlobal() {
            tablets = WaylandTabletSeat(connection: connection, manager: manager, seat: seat) { [unowned self] in
                self.events.append($0)
            }
            tablets?.windowSurface = windowSurface
        }
        func has(_ capability: wl_seat_capability) -> Bool { capabilities & capability.rawValue != 0 }
        if has(WL_SEAT_CAPABILITY_TOUCH), touch == nil {
            touch = wl_seat_get_touch(seat)
            wl_touch_add_listener(touch, touchListener.pointer, data)
        } else if !has(WL_SEAT_CAPABILITY_TOUCH), let touch {
            wl_touch_release(touch)
            self.touch = nil
        }
        if has(WL_SEAT_CAPABILITY_POINTER), pointer == nil {
            pointer = wl_seat_get_pointer(seat)
            wl_pointer_add_listener(pointer, pointerListener.pointer, data)
            if let gestures = pointerGesturesGlobal() {
                swipe = zwp_pointer_gestures_v1_get_swipe_gesture(gestures, pointer)
                pinch = zwp_pointer_gestures_v1_get_pinch_gesture(gestures, pointer)
                zwp_pointer_gesture_swipe_v1_add_listener(swipe, swipeListener.pointer, data)
                zwp_pointer_gesture_pinch_v1_add_listener(pinch, pinchListener.pointer, data)
            }
        } else if !has(WL_SEAT_CAPABILITY_POINTER), let pointer {
            if let swipe { zwp_pointer_gesture_swipe_v1_destroy(swipe) }
            if let pinch { zwp_pointer_gesture_pinch_v1_destroy(pinch) }
            (swipe, pinch) = (nil, nil)
            wl_pointer_release(pointer)
            self.pointer = nil
        }
        if has(WL_SEAT_CAPABILITY_KEYBOARD), keyboard == nil {
            keyboard = wl_seat_get_keyboard(seat)
            wl_keyboard_add_listener(keyboard, keyboardListener.pointer, data)
        } else if !has(WL_SEAT_CAPABILITY_KEYBOARD), let keyboard {
            wl_keyboard_release(keyboard)
            self.keyboard = nil
        }
        self.capabilities =
            [(touch, "touch"), (pointer, "pointer"), (keyboard, "keyboard")].compactMap { $0.0 == nil ? nil : $0.1 }
    }
}
