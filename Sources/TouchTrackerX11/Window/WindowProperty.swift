import CX11

/// Reading and writing window properties (the selection protocol moves all its data through them).
///
/// Format 32 data is an array of C `long`s in Xlib (8 bytes each on 64-bit systems), whatever the wire carries.
extension X11Display {
    /// A property's type, format and bytes (for format 32, its values as `UInt`s in `longs`), or nil when it does
    /// not exist. `delete` removes it in the same request (the reader's part of an INCR transfer).
    func readProperty(_ property: Atom, of window: CX11.Window, delete: Bool = false) -> PropertyValue? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        // The length is in 32-bit units: this asks for everything the server holds (up to 8 GB).
        let status = XGetWindowProperty(
            pointer, window, property, 0, 0x7FFF_FFFF, delete ? 1 : 0, Atom(AnyPropertyType), &type, &format, &count,
            &remaining, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type != 0 else { return nil }
        var value = PropertyValue(type: type, format: Int(format))
        guard let data, count > 0 else { return value }
        switch format {
        case 32:
            value.longs = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self), count: Int(count)))
        case 16:
            value.bytes = Array(UnsafeBufferPointer(start: data, count: Int(count) * 2))
        default:
            value.bytes = Array(UnsafeBufferPointer(start: data, count: Int(count)))
        }
        return value
    }

    /// Replaces a property with bytes (format 8).
    func writeProperty(_ property: Atom, of window: CX11.Window, type: Atom, bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBytes {
            writeProperty(property, of: window, type: type, format: 8, items: $0, count: bytes.count)
        }
    }

    /// Replaces a property with 32-bit values (atoms, a timestamp, INCR's size), handed to Xlib as C longs.
    func writeProperty(_ property: Atom, of window: CX11.Window, type: Atom, longs: [UInt]) {
        longs.withUnsafeBytes {
            writeProperty(property, of: window, type: type, format: 32, items: $0, count: longs.count)
        }
    }

    private func writeProperty(
        _ property: Atom, of window: CX11.Window, type: Atom, format: Int32, items: UnsafeRawBufferPointer, count: Int
    ) {
        // Xlib reads nothing from the pointer when the count is 0, but it must not be nil.
        var zero: UInt = 0
        withUnsafeBytes(of: &zero) { empty in
            let base = (count > 0 ? items.baseAddress : nil) ?? empty.baseAddress!
            _ = XChangeProperty(
                pointer, window, property, type, format, PropModeReplace, base.assumingMemoryBound(to: UInt8.self),
                Int32(count))
        }
    }

    /// Tells `requestor` that its conversion of `selection` to `target` is in `property` (0: refused).
    func sendSelectionNotify(
        requestor: CX11.Window, selection: Atom, target: Atom, property: Atom, time: Time
    ) {
        var event = XEvent()
        event.xselection.type = SelectionNotify
        event.xselection.display = pointer
        event.xselection.requestor = requestor
        event.xselection.selection = selection
        event.xselection.target = target
        event.xselection.property = property
        event.xselection.time = time
        XSendEvent(pointer, requestor, 0, 0, &event)
    }
}

/// One property as read: its type and format, and its data (bytes for formats 8 and 16, longs for 32).
struct PropertyValue {
    var type: Atom
    var format: Int
    var bytes: [UInt8] = []
    var longs: [UInt] = []
}
