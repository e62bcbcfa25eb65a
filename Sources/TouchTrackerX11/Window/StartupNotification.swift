import CX11
import Glibc

/// The desktop's startup notification (freedesktop.org's startup-notification spec): a launcher that starts the app
/// with `DESKTOP_STARTUP_ID` shows that it is starting (a busy cursor, a spinner) until the app says it is up, and
/// the window manager ties the new window to that launch (its focus stealing prevention uses the launch's time).
/// The window carries the launch's id in `_NET_STARTUP_ID` before it is mapped, and once it is, a `remove` message
/// ends the launch.
struct StartupNotification {
    let id: String

    /// The launch's id, taken out of the environment so no program started later inherits it; nil without one.
    static func take() -> StartupNotification? {
        guard let value = getenv("DESKTOP_STARTUP_ID") else { return nil }
        let bytes = UnsafeRawBufferPointer(start: value, count: strlen(value))
        let id = String(decoding: bytes, as: UTF8.self)
        unsetenv("DESKTOP_STARTUP_ID")
        return id.isEmpty ? nil : StartupNotification(id: id)
    }

    /// Sets `_NET_STARTUP_ID` on `window`, before it is mapped.
    func mark(_ window: Window, on display: X11Display) {
        let bytes = Array(id.utf8)
        XChangeProperty(
            display.pointer, window, display.atom("_NET_STARTUP_ID"), display.atom("UTF8_STRING"), 8, PropModeReplace,
            bytes, Int32(bytes.count))
    }

    /// Ends the launch: `remove: ID=…` to the root window, as the spec sends text, 20 bytes a client message (the
    /// first `_NET_STARTUP_INFO_BEGIN`, the rest `_NET_STARTUP_INFO`), the text ending in a zero byte. `window` is
    /// one of this client's, as the spec asks.
    func complete(from window: Window, on display: X11Display) {
        var message = Array("remove: ID=".utf8) + Self.quoted(id) + [0]
        let chunk = 20
        while message.count % chunk != 0 { message.append(0) }
        let begin = display.atom("_NET_STARTUP_INFO_BEGIN")
        let more = display.atom("_NET_STARTUP_INFO")
        for start in stride(from: 0, to: message.count, by: chunk) {
            var event = XEvent()
            event.xclient.type = ClientMessage
            event.xclient.send_event = 1
            event.xclient.display = display.pointer
            event.xclient.window = window
            event.xclient.message_type = start == 0 ? begin : more
            event.xclient.format = 8
            withUnsafeMutableBytes(of: &event.xclient.data) { data in
                for index in 0..<chunk { data[index] = message[start + index] }
            }
            XSendEvent(display.pointer, display.rootWindow, 0, PropertyChangeMask, &event)
        }
        display.flush()
    }

    /// A value as the spec writes it: in double quotes, with `"` and `\` escaped, when it holds a space or either.
    private static func quoted(_ value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        guard bytes.contains(where: { $0 == 0x20 || $0 == 0x22 || $0 == 0x5C }) else { return bytes }
        var out: [UInt8] = [0x22]
        for byte in bytes {
            if byte == 0x22 || byte == 0x5C { out.append(0x5C) }
            out.append(byte)
        }
        return out + [0x22]
    }
}
