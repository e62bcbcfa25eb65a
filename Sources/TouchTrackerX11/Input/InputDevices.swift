import CX11

/// What XI2 says of the input devices (`XIQueryDevice`), read into Swift values in one place: each device's name,
/// use, touch and gesture classes, valuators by label and scroll valuators. What the app wants of them (pressure and
/// tilt axes, tablet tools, scrolling devices, the `--verbose` list) is worked out from these values, without C.
struct InputDevices {
    struct Device {
        /// A valuator (an axis) of the device.
        struct Valuator {
            var number: Int32
            /// Its label atom's name ("Abs Pressure", "Abs Tilt X", …), "" when it has none.
            var label: String
            var minimum: Double
            var maximum: Double
            /// Where it stands now (a scroll valuator's running total).
            var value: Double = 0
        }

        var id: Int32
        var name: String
        /// `XIMasterPointer`, `XISlavePointer`, … .
        var use: Int32
        var isEnabled: Bool
        /// Its touch class, when it has one: direct (a touch screen) or dependent (a touchpad), and how many touches.
        var touch: (isDirect: Bool, maximumTouches: Int)?
        /// Whether it has an XI 2.4 gesture class (touchpad pinches and swipes).
        var hasGestures = false
        /// Whether its driver calls it a touchpad (XI 1's device type `XI_TOUCHPAD`, as xf86-input-libinput,
        /// synaptics and inputtest name theirs): servers before XI 2.4 give a touchpad no class that says so.
        var isTouchpadType = false
        var valuators: [Valuator]
        /// Its scroll valuators (XI 2.1 smooth scrolling).
        var scrollAxes: [ScrollValuators.Axis] = []

        func valuator(labelled label: String) -> Valuator? { valuators.first { $0.label == label } }
    }

    var devices: [Device]

    init(devices: [Device]) {
        self.devices = devices
    }

    /// Every device of `display`, enabled or not. The valuators' labels are named in one round trip
    /// (`XGetAtomNames`), not one per axis: this runs again whenever a device comes or goes.
    init(display: X11Display) {
        var count: Int32 = 0
        guard let list = XIQueryDevice(display.pointer, XIAllDevices, &count) else {
            devices = []
            return
        }
        defer { XIFreeDeviceInfo(list) }
        var labelAtoms: [Atom] = []
        var devices: [(device: Device, labels: [Atom])] = (0..<Int(count)).map { index in
            let info = list[index]
            var device = Device(
                id: info.deviceid, name: String(cString: info.name), use: info.use, isEnabled: info.enabled != 0,
                valuators: [])
            var labels: [Atom] = []
            for classIndex in 0..<Int(info.num_classes) {
                guard let deviceClass = info.classes[classIndex] else { continue }
                let raw = UnsafeRawPointer(deviceClass)
                switch deviceClass.pointee.type {
                case XITouchClass:
                    let touch = raw.assumingMemoryBound(to: XITouchClassInfo.self).pointee
                    device.touch = (touch.mode == XIDirectTouch, Int(touch.num_touches))
                case XIGestureClass:
                    device.hasGestures = true
                case XIScrollClass:
                    let scroll = raw.assumingMemoryBound(to: XIScrollClassInfo.self).pointee
                    device.scrollAxes.append(
                        ScrollValuators.Axis(
                            number: scroll.number, isVertical: scroll.scroll_type == XIScrollTypeVertical,
                            increment: scroll.increment))
                case XIValuatorClass:
                    let valuator = raw.assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                    device.valuators.append(
                        Device.Valuator(
                            number: valuator.number, label: "", minimum: valuator.min, maximum: valuator.max,
                            value: valuator.value))
                    labels.append(valuator.label)
                    if valuator.label != 0 { labelAtoms.append(valuator.label) }
                default:
                    break
                }
            }
            return (device, labels)
        }
        let names = Self.names(of: Array(Set(labelAtoms)), display: display)
        for index in devices.indices {
            for (valuator, atom) in devices[index].labels.enumerated() {
                devices[index].device.valuators[valuator].label = names[atom] ?? ""
            }
        }
        let touchpads = Self.touchpadIDs(display: display)
        self.devices = devices.map { entry in
            var device = entry.device
            device.isTouchpadType = touchpads.contains(device.id)
            return device
        }
    }

    /// The devices whose XI 1 type is `XI_TOUCHPAD`, in one round trip (`XListInputDevices`); XI2 does not say.
    private static func touchpadIDs(display: X11Display) -> Set<Int32> {
        let touchpad = XInternAtom(display.pointer, XI_TOUCHPAD, 1)
        var count: Int32 = 0
        guard touchpad != 0, let list = XListInputDevices(display.pointer, &count) else { return [] }
        defer { XFreeDeviceList(list) }
        return Set((0..<Int(count)).filter { list[$0].type == touchpad }.map { Int32(truncatingIfNeeded: list[$0].id) })
    }

    /// Where every device's valuators stand now, by device id and valuator number: one `XIQueryDevice`, without
    /// the labels' names (the pointer entering the window asks again, to know where the scroll valuators are).
    static func valuatorValues(display: X11Display) -> [Int32: [Int32: Double]] {
        var count: Int32 = 0
        guard let list = XIQueryDevice(display.pointer, XIAllDevices, &count) else { return [:] }
        defer { XIFreeDeviceInfo(list) }
        var values: [Int32: [Int32: Double]] = [:]
        for index in 0..<Int(count) {
            let info = list[index]
            for classIndex in 0..<Int(info.num_classes) {
                guard let deviceClass = info.classes[classIndex], deviceClass.pointee.type == XIValuatorClass else {
                    continue
                }
                let valuator = UnsafeRawPointer(deviceClass).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                values[info.deviceid, default: [:]][valuator.number] = valuator.value
            }
        }
        return values
    }

    /// The names of `atoms`, in one round trip.
    private static func names(of atoms: [Atom], display: X11Display) -> [Atom: String] {
        guard !atoms.isEmpty else { return [:] }
        var atoms = atoms
        var names = [UnsafeMutablePointer<CChar>?](repeating: nil, count: atoms.count)
        guard XGetAtomNames(display.pointer, &atoms, Int32(atoms.count), &names) != 0 else { return [:] }
        var result: [Atom: String] = [:]
        for (atom, name) in zip(atoms, names) {
            guard let name else { continue }
            result[atom] = String(cString: name)
            XFree(name)
        }
        return result
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

    /// The slave pointers that scroll (they have scroll valuators), by device id: a touchpad (its driver's type, an
    /// XI 2.4 gesture class or a dependent touch class) scrolls by travel, anything else by wheel clicks.
    var scrollDevices: [Int32: ScrollValuators.Device] {
        var scrolling: [Int32: ScrollValuators.Device] = [:]
        for device in devices where device.use == XISlavePointer && !device.scrollAxes.isEmpty {
            scrolling[device.id] = ScrollValuators.Device(
                axes: device.scrollAxes,
                isTouchpad: device.isTouchpadType || device.hasGestures || device.touch?.isDirect == false)
        }
        return scrolling
    }

    /// Where every device's valuators stand, by device id and valuator number.
    var valuatorValues: [Int32: [Int32: Double]] {
        var values: [Int32: [Int32: Double]] = [:]
        for device in devices {
            for valuator in device.valuators { values[device.id, default: [:]][valuator.number] = valuator.value }
        }
        return values
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
        for (device, scrolling) in scrollDevices.sorted(by: { $0.key < $1.key }) {
            let axes = scrolling.axes.map {
                "\($0.number) (\($0.isVertical ? "vertical" : "horizontal"), \($0.increment) a click)"
            }
            let kind = scrolling.isTouchpad ? "touchpad travel" : "wheel clicks"
            lines.append("device \(device): scrolls by \(kind) on valuators " + axes.joined(separator: ", "))
        }
        return lines
    }
}
