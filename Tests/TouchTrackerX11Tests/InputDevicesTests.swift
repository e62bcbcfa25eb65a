import CX11
import Testing

@testable import TouchTrackerX11

/// What the app makes of XI2's devices, from device facts built in memory as `XIQueryDevice` reports them.
@Suite struct InputDevicesTests {
    typealias Device = InputDevices.Device
    typealias Valuator = Device.Valuator

    static func valuator(_ number: Int32, _ label: String, _ maximum: Double = 1000) -> Valuator {
        Valuator(number: number, label: label, minimum: 0, maximum: maximum)
    }

    static let devices = InputDevices(devices: [
        Device(id: 2, name: "Virtual core pointer", use: XIMasterPointer, isEnabled: true, valuators: []),
        Device(
            id: 10, name: "Wacom Intuos Pro M Pen stylus", use: XISlavePointer, isEnabled: true,
            valuators: [
                valuator(0, "Abs X"), valuator(1, "Abs Y"), valuator(2, "Abs Pressure", 65535),
                valuator(3, "Abs Tilt X", 64), valuator(4, "Abs Tilt Y", 64),
            ]),
        Device(
            id: 11, name: "Wacom Intuos Pro M Pen eraser", use: XISlavePointer, isEnabled: true,
            valuators: [valuator(2, "Abs Pressure", 65535)]),
        Device(id: 12, name: "Wacom Intuos Pro M Pad pad", use: XISlavePointer, isEnabled: true, valuators: []),
        Device(
            id: 13, name: "ELAN Touchscreen", use: XISlavePointer, isEnabled: true, touch: (true, 10),
            valuators: [valuator(5, "Abs MT Pressure", 255)]),
        Device(id: 14, name: "Logitech USB Mouse", use: XISlavePointer, isEnabled: false, valuators: []),
        Device(
            id: 15, name: "Huion Tablet", use: XISlavePointer, isEnabled: true,
            valuators: [valuator(0, "Abs X"), valuator(1, "Abs Y"), valuator(2, "Abs Pressure", 8191)]),
    ])

    @Test(
        "a pen, its eraser and a pressure-only pointer are tablet tools; the pad, the mouse and a touch screen are not")
    func tools() {
        #expect(Self.devices.tabletTools == [10: .pen, 11: .eraser, 15: .pen])
    }

    @Test("pressure axes come from a pen's Abs Pressure and a touch screen's Abs MT Pressure, with their ranges")
    func pressure() {
        let axes = Self.devices.pressureAxes
        #expect(axes.keys.sorted() == [10, 11, 13, 15])
        #expect(axes[13]?.number == 5 && axes[13]?.maximum == 255)
    }

    @Test("tilt axes are found where a device has both Abs Tilt X and Abs Tilt Y")
    func tilt() {
        let axes = Self.devices.tiltAxes
        #expect(axes.keys.sorted() == [10])
        #expect(axes[10]?.x == 3 && axes[10]?.y == 4)
    }

    @Test("--verbose names each device's use, touch class and tablet tool, and which are disabled")
    func description() {
        let lines = Self.devices.description
        #expect(lines.contains("device 10 \"Wacom Intuos Pro M Pen stylus\": pointer, tablet pen"))
        #expect(lines.contains("device 13 \"ELAN Touchscreen\": pointer, direct touch, up to 10 touches"))
        #expect(lines.contains("device 14 \"Logitech USB Mouse\": pointer, disabled"))
    }

    @Test(
        """
        devices with scroll valuators scroll: a touchpad (its driver's type, a gesture class, or a dependent touch \
        class) by travel, a mouse by wheel clicks; the master pointer and devices without scroll valuators do not
        """)
    func scrolling() {
        let wheel = [
            ScrollValuators.Axis(number: 2, isVertical: false, increment: 15),
            ScrollValuators.Axis(number: 3, isVertical: true, increment: 15),
        ]
        var master = Device(id: 2, name: "Virtual core pointer", use: XIMasterPointer, isEnabled: true, valuators: [])
        master.scrollAxes = wheel
        var mouse = Device(id: 6, name: "Logitech USB Mouse", use: XISlavePointer, isEnabled: true, valuators: [])
        mouse.scrollAxes = wheel
        var touchpad = Device(id: 7, name: "SYNA Touchpad", use: XISlavePointer, isEnabled: true, valuators: [])
        touchpad.hasGestures = true
        touchpad.scrollAxes = wheel
        var synaptics = Device(
            id: 8, name: "SynPS/2 Touchpad", use: XISlavePointer, isEnabled: true, touch: (false, 2), valuators: [])
        synaptics.scrollAxes = [ScrollValuators.Axis(number: 3, isVertical: true, increment: 100)]
        let pen = Device(id: 9, name: "Pen", use: XISlavePointer, isEnabled: true, valuators: [])
        var olderServer = Device(id: 10, name: "ELAN Touchpad", use: XISlavePointer, isEnabled: true, valuators: [])
        olderServer.isTouchpadType = true
        olderServer.scrollAxes = wheel
        let devices = InputDevices(devices: [master, mouse, touchpad, synaptics, pen, olderServer])
        #expect(devices.scrollDevices.keys.sorted() == [6, 7, 8, 10])
        #expect(devices.scrollDevices[10]?.isTouchpad == true)
        #expect(devices.scrollDevices[6] == ScrollValuators.Device(axes: wheel, isTouchpad: false))
        #expect(devices.scrollDevices[7]?.isTouchpad == true)
        #expect(devices.scrollDevices[8]?.isTouchpad == true)
        #expect(
            devices.description.contains(
                "device 6: scrolls by wheel clicks on valuators 2 (horizontal, 15.0 a click), "
                    + "3 (vertical, 15.0 a click)"))
    }
}
