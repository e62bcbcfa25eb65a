/// Keeps `PointerDevices` true as devices come and go: reads XI2's devices and watches the tablet tools' proximity
/// (`ProximityWatch`), and does both again when the device hierarchy changes. It owns the current proximity watch.
final class DeviceWatch {
    private let display: X11Display
    private var proximity: ProximityWatch?

    init(display: X11Display) {
        self.display = display
    }

    /// Reads the devices now and watches the tools among them (the previous watch's devices closed first: closing
    /// a device drops this client's selections of its events, old and new).
    func load() -> PointerDevices {
        var devices = InputDevices(devices: [])
        // A device unplugged a moment ago is refused when it is closed or opened (BadDevice): expected, not logged.
        _ = display.withErrorsTrapped {
            proximity = nil
            devices = InputDevices(display: display)
            let tools = devices.tabletTools
            proximity = tools.isEmpty ? nil : ProximityWatch(display: display, deviceIDs: tools.keys.sorted())
            display.sync()
        }
        return PointerDevices(devices, proximity: proximity)
    }
}
