import CX11

/// The XInput2 extension on one display: the version the server granted and event selection.
struct XInput2 {
    /// The extension's major opcode, which marks its events (`xcookie.extension`).
    let opcode: Int32
    let major: Int32
    let minor: Int32

    /// Negotiates XI2, asking for 2.4. Nil when the server has no XI2 (use core events then).
    init?(display: X11Display) {
        var opcode: Int32 = 0
        var firstEvent: Int32 = 0
        var firstError: Int32 = 0
        guard XQueryExtension(display.pointer, "XInputExtension", &opcode, &firstEvent, &firstError) != 0 else {
            return nil
        }
        var major: Int32 = 2
        var minor: Int32 = 4
        guard XIQueryVersion(display.pointer, &major, &minor) == Success, major >= 2 else { return nil }
        self.opcode = opcode
        self.major = major
        self.minor = minor
    }

    /// XI 2.2 added touch events.
    var supportsTouch: Bool { major > 2 || (major == 2 && minor >= 2) }

    /// XI 2.4 added touchpad gestures (pinch and swipe).
    var supportsGestures: Bool { major > 2 || (major == 2 && minor >= 4) }

    var versionText: String { "\(major).\(minor)" }

    /// Selects touch (when supported) and pointer events from master devices on `window`, one copy per event.
    func selectInput(display: X11Display, window: CX11.Window) {
        // Leave: a hovering pen that leaves the window has left it (`EventTranslator`). Enter: where the scroll
        // valuators stand is read again (`ScrollValuators`).
        var events = [XI_ButtonPress, XI_ButtonRelease, XI_Motion, XI_Leave, XI_Enter]
        // TouchBegin, TouchUpdate and TouchEnd must be selected together, or the server answers BadValue.
        if supportsTouch { events += [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd] }
        if supportsGestures {
            events += [
                XI_GesturePinchBegin, XI_GesturePinchUpdate, XI_GesturePinchEnd, XI_GestureSwipeBegin,
                XI_GestureSwipeUpdate, XI_GestureSwipeEnd,
            ]
        }
        select(events, device: XIAllMasterDevices, window: window, display: display)
        // Device hot-plug is reported per slave device, on the root window.
        select([XI_HierarchyChanged], device: XIAllDevices, window: display.rootWindow, display: display)
    }

    private func select(_ events: [Int32], device: Int32, window: CX11.Window, display: X11Display) {
        var mask = [UInt8](repeating: 0, count: Int(cx11_xi_mask_len()))
        for event in events { cx11_xi_set_mask(&mask, event) }
        mask.withUnsafeMutableBufferPointer { buffer in
            var eventMask = XIEventMask(deviceid: device, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            _ = XISelectEvents(display.pointer, window, &eventMask, 1)
        }
    }

    /// A device's pressure axis: which valuator it is and its range.
    struct PressureAxis {
        var number: Int32
        var minimum: Double
        var maximum: Double

        /// The raw value as TouchKit's force: 0 at the bottom of the range, 1/3 a third of the way up (a normal press
        /// on most devices), 1 at the top.
        func force(_ value: Double) -> Double? {
            guard maximum > minimum, value.isFinite else { return nil }
            return Swift.min(1, Swift.max(0, (value - minimum) / (maximum - minimum)))
        }
    }

    /// A pen's tilt axes ("Abs Tilt X" and "Abs Tilt Y"): which valuators they are. libinput's and wacom's X
    /// drivers report them in degrees from upright.
    struct TiltAxes {
        var x: Int32
        var y: Int32
    }
}
