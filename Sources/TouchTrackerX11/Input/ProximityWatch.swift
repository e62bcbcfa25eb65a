import CX11

/// Tells when a tablet's pen or eraser leaves the tablet's reach. XI 2 has no proximity events, so the tool devices
/// are opened through XI 1 and their ProximityOut selected on the root window (where it arrives wherever on the
/// screen the pen leaves). It owns the opened devices and closes them in one place.
final class ProximityWatch {
    private let display: X11Display
    private var devices: [UnsafeMutablePointer<XDevice>] = []
    /// The XI 1 event types the devices' ProximityOut arrives as (the server numbers them per device class).
    private(set) var leftEventTypes: Set<Int32> = []
    /// The devices whose ProximityOut is selected.
    private(set) var watchedDevices: Set<Int32> = []

    /// Opens each of `deviceIDs` and selects its ProximityOut; a device without a proximity class is closed again
    /// and left out.
    init(display: X11Display, deviceIDs: [Int32]) {
        self.display = display
        for id in deviceIDs {
            guard let device = XOpenDevice(display.pointer, XID(UInt32(bitPattern: id))) else { continue }
            let type = cx11_select_proximity_out(display.pointer, display.rootWindow, device)
            if type != 0 {
                devices.append(device)
                leftEventTypes.insert(type)
                watchedDevices.insert(id)
            } else {
                XCloseDevice(display.pointer, device)
            }
        }
    }

    deinit {
        for device in devices { XCloseDevice(display.pointer, device) }
    }
}
