import CX11

/// What XI2 says of the input devices (`XIQueryDevice`), read into Swift values in one place: each device's name,
/// use, touch class and valuators by label. What the app wants of them (pressure and tilt axes, tablet tools, the
/// `--verbose` list) is worked out from these values, without C.
struct InputDevices {
    struct Device {
        /// A valuator (an axis) of the device.
        struct Valuator {
            var number: Int32
            /// Its label atom's name ("Abs Pressure", "Abs Tilt X", …), "" when it has none.
            var label: String
            var minimum: Double
            var maximum: Double
        }

        var id: Int32
        var name: String
        /// `XIMasterPointer`, `XISlavePointer`, … .
        var use: Int32
        var isEnabled: Bool
        /// Its touch class, when it has one: direct (a touch screen) or dependent (a touchpad), and how many touches.
        var touch: (isDirect: Bool, maximumTouches: Int)?
        var valuators: [Valuator]

        func valuator(labelled label: String) -> Valuator? { valuators.first { $0.label == label } }
    }

    var devices: [Device]

    init(devices: [Device]) {
        self.devices = devices
    }

    /// Every device of `display`, enabled or not.
    init(display: X11Display) {
        var count: Int32 = 0
        guard let list = XIQueryDevice(display.pointer, XIAllDevices, &count) else {
            devices = []
            return
        }
        defer { XIFreeDeviceInfo(list) }
        devices = (0..<Int(count)).map { index in
            let info = list[index]
            var device = Device(
                id: info.deviceid, name: String(cString: info.name), use: info.use, isEnabled: info.enabled != 0,
                valuators: [])
            for classIndex in 0..<Int(info.num_classes) {
                guard let deviceClass = info.classes[classIndex] else { continue }
                let raw = UnsafeRawPointer(deviceClass)
                switch deviceClass.pointee.type {
                case XITouchClass:
                    let touch = raw.assumingMemoryBound(to: XITouchClassInfo.self).pointee
                    device.touch = (touch.mode == XIDirectTouch, Int(touch.num_touches))
                case XIValuatorClass:
                    let valuator = raw.assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    var label = ""
                    if valuator.label != 0, let name = XGetAtomName(display.pointer, valuator.label) {
                        label = String(cString: name)
                        XFree(name)
                    }
                    device.valuators.append(
                        Device.Valuator(
                            number: valuator.number, label: label, minimum: valuator.min, maximum: valuator.max))
                default:
                    break
                }
            }
            return device
        }
    }

    /// The pressure axis of every device that has one (a touch screen's "Abs MT Pressure", a pen's "Abs
    /// Pressure"), by device id.
    var pressureAxes: [Int32: XInput2.PressureAxis] {
        var axes: [Int32: XInput2.PressureAxis] = [:]
        for device in devices {
            guard
                let valuator = device.valuator(labelled: "Abs MT Pressure") ?? device.valuator(labelled: "Abs Pressure")
            else { continue }
            axes[device.id] = XInput2.PressureAxis(
                number: valuator.number, minimum: valuator.minimum, maximum: valuator.maximum)
        }
        return axes
    }

    /// The tilt axes of every device that has both ("Abs Tilt X" and "Abs Tilt Y"), by device id.
    var tiltAxes: [Int32: XInput2.TiltAxes] {
        var axes: [Int32: XInput2.TiltAxes] = [:]
        for device in devices {
            guard let x = device.valuator(labelled: "Abs Tilt X"), let y = device.valuator(labelled: "Abs Tilt Y")
            else { continue }
            axes[device.id] = XInput2.TiltAxes(x: x.number, y: y.number)
        }
        return axes
    }

    /// The tablet tools among the slave pointers (a pointer without a touch class that `TabletTool` recognizes by
    /// its name or its "Abs Pressure" axis), by device id.
    var tabletTools: [Int32: TabletTool] {
        var tools: [Int32: TabletTool] = [:]
        for device in devices where device.use == XISlavePointer && device.touch == nil {
            tools[device.id] = TabletTool(
                deviceName: device.name, hasPressure: device.valuator(labelled: "Abs Pressure") != nil)
        }
        return tools
    }

    /// One line per device, then one per pressure axis, for `--verbose`.
    var description: [String] {
        let tools = tabletTools
        var lines = devices.map { device in
            let use: String
            switch device.use {
            case XIMasterPointer: use = "master pointer"
            case XIMasterKeyboard: use = "master keyboard"
            case XISlavePointer: use = "pointer"
            case XISlaveKeyboard: use = "keyboard"
            default: use = "floating"
            }
            let touch =
                device.touch.map {
                    ", \($0.isDirect ? "direct" : "dependent") touch, up to \($0.maximumTouches) touches"
                }
                ?? ""
            let tool = tools[device.id].map { ", tablet \($0.rawValue)" } ?? ""
            return
                "device \(device.id) \"\(device.name)\": \(use)\(touch)\(tool)\(device.isEnabled ? "" : ", disabled")"
        }
        for (device, axis) in pressureAxes.sorted(by: { $0.key < $1.key }) {
            lines.append("device \(device): pressure on valuator \(axis.number), \(axis.minimum)...\(axis.maximum)")
        }
        return lines
    }
}
