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
        var events = [XI_ButtonPress, XI_ButtonRelease, XI_Motion]
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

    /// The tilt axes of every device that has both, by device id.
    func tiltAxes(display: X11Display) -> [Int32: TiltAxes] {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display.pointer, XIAllDevices, &count) else { return [:] }
        defer { XIFreeDeviceInfo(devices) }
        var axes: [Int32: TiltAxes] = [:]
        for index in 0..<Int(count) {
            let device = devices[index]
            var x: Int32?
            var y: Int32?
            for classIndex in 0..<Int(device.num_classes) {
                guard let info = device.classes[classIndex], info.pointee.type == XIValuatorClass else { continue }
                let valuator = UnsafeRawPointer(info).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                guard valuator.label != 0, let name = XGetAtomName(display.pointer, valuator.label) else { continue }
                defer { XFree(name) }
                switch String(cString: name) {
                case "Abs Tilt X": x = valuator.number
                case "Abs Tilt Y": y = valuator.number
                default: break
                }
            }
            if let x, let y { axes[device.deviceid] = TiltAxes(x: x, y: y) }
        }
        return axes
    }

    /// The pressure axis of every device that has one (labelled "Abs MT Pressure" or "Abs Pressure"), by device id.
    func pressureAxes(display: X11Display) -> [Int32: PressureAxis] {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display.pointer, XIAllDevices, &count) else { return [:] }
        defer { XIFreeDeviceInfo(devices) }
        var axes: [Int32: PressureAxis] = [:]
        for index in 0..<Int(count) {
            let device = devices[index]
            for classIndex in 0..<Int(device.num_classes) {
                guard let info = device.classes[classIndex], info.pointee.type == XIValuatorClass else { continue }
                let valuator = UnsafeRawPointer(info).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                guard valuator.label != 0, let name = XGetAtomName(display.pointer, valuator.label) else { continue }
                defer { XFree(name) }
                let label = String(cString: name)
                if label == "Abs MT Pressure" || label == "Abs Pressure" {
                    axes[device.deviceid] = PressureAxis(
                        number: valuator.number, minimum: valuator.min, maximum: valuator.max)
                }
            }
        }
        return axes
    }

    /// The tablet tools among the slave pointers (a pointer without a touch class that `TabletTool` recognizes by
    /// its name or its "Abs Pressure" axis), by device id.
    func tabletTools(display: X11Display) -> [Int32: TabletTool] {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display.pointer, XIAllDevices, &count) else { return [:] }
        defer { XIFreeDeviceInfo(devices) }
        var tools: [Int32: TabletTool] = [:]
        for index in 0..<Int(count) {
            let device = devices[index]
            guard device.use == XISlavePointer else { continue }
            var hasTouch = false
            var hasPressure = false
            for classIndex in 0..<Int(device.num_classes) {
                guard let info = device.classes[classIndex] else { continue }
                if info.pointee.type == XITouchClass { hasTouch = true }
                guard info.pointee.type == XIValuatorClass else { continue }
                let valuator = UnsafeRawPointer(info).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                guard valuator.label != 0, let label = XGetAtomName(display.pointer, valuator.label) else { continue }
                defer { XFree(label) }
                if String(cString: label) == "Abs Pressure" { hasPressure = true }
            }
            guard !hasTouch else { continue }
            tools[device.deviceid] = TabletTool(deviceName: String(cString: device.name), hasPressure: hasPressure)
        }
        return tools
    }

    /// One line per enabled input device, for `--verbose`.
    func describeDevices(display: X11Display) -> [String] {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display.pointer, XIAllDevices, &count) else { return [] }
        defer { XIFreeDeviceInfo(devices) }
        let tools = tabletTools(display: display)
        var lines: [String] = []
        for index in 0..<Int(count) {
            let device = devices[index]
            let name = String(cString: device.name)
            let use: String
            switch device.use {
            case XIMasterPointer: use = "master pointer"
            case XIMasterKeyboard: use = "master keyboard"
            case XISlavePointer: use = "pointer"
            case XISlaveKeyboard: use = "keyboard"
            default: use = "floating"
            }
            var touch = ""
            for classIndex in 0..<Int(device.num_classes) {
                guard let info = device.classes[classIndex], info.pointee.type == XITouchClass else { continue }
                let touchInfo = UnsafeRawPointer(info).assumingMemoryBound(to: XITouchClassInfo.self).pointee
                let mode = touchInfo.mode == XIDirectTouch ? "direct touch" : "dependent touch"
                touch = ", \(mode), up to \(touchInfo.num_touches) touches"
            }
            let tool = tools[device.deviceid].map { ", tablet \($0.rawValue)" } ?? ""
            lines.append(
                "device \(device.deviceid) \"\(name)\": \(use)\(touch)\(tool)\(device.enabled != 0 ? "" : ", disabled")"
            )
        }
        for (device, axis) in pressureAxes(display: display).sorted(by: { $0.key < $1.key }) {
            lines.append("device \(device): pressure on valuator \(axis.number), \(axis.minimum)...\(axis.maximum)")
        }
        return lines
    }
}
