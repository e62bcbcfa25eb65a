import Testing

@testable import TouchTrackerX11

/// Tablet tools told apart by their XI2 device names and axes, as real drivers name them.
@Suite("Tablet tools")
struct TabletToolTests {
    @Test(
        "pens and erasers are told apart by name, a pointer with Abs Pressure is a pen, a pad is no tool",
        arguments: [
            ("Wacom Intuos Pro M Pen stylus", false, TabletTool.pen),
            ("Wacom Intuos Pro M Pen eraser", false, .eraser),
            ("HID 256c:006d Pen", true, .pen),
            ("touchtracker stylus pen", true, .pen),
            ("ELAN Touchscreen Stylus", false, .pen),
            ("Wacom Intuos Pro M Pad pad", true, nil),
        ] as [(String, Bool, TabletTool?)])
    func tools(name: String, hasPressure: Bool, expected: TabletTool?) {
        #expect(TabletTool(deviceName: name, hasPressure: hasPressure) == expected)
    }

    @Test("a mouse or a keyboard is no tablet tool")
    func otherDevices() {
        #expect(TabletTool(deviceName: "Logitech USB Optical Mouse", hasPressure: false) == nil)
        #expect(TabletTool(deviceName: "AT Translated Set 2 keyboard", hasPressure: false) == nil)
    }
}
