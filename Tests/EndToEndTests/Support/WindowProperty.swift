import CX11
import Foundation
import XorgTestSupport

/// Reads and sends window properties and messages over a fresh connection.
enum WindowProperty {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A format-32 property as numbers (Xlib hands them over as C longs).
    static func cardinals(display: String, window: UInt, name: String) throws -> [UInt] {
        try read(display: display, window: window, name: name, type: XA_CARDINAL, format: 32) { data, count in
            data.withMemoryRebound(to: UInt.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
        }
    }

    /// A format-8 property as text (any type).
    static func text(display: String, window: UInt, name: String) throws -> String {
        try read(display: display, window: window, name: name, type: Atom(AnyPropertyType), format: 8) { data, count in
            String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
        }
    }

    /// Reads property `name` of `type` and `format` over a fresh connection, handing `convert` its data and count.
    private static func read<T>(
        display: String, window: UInt, name: String, type wanted: Atom, format expected: Int32,
        _ convert: (UnsafeMutablePointer<UInt8>, Int) -> T
    ) throws -> T {
        guard let connection = TestDisplayConnection.open(display) else {
            throw Failure(description: "cannot open \(display)")
        }
        defer { XCloseDisplay(connection) }
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            connection, window, XInternAtom(connection, name, 0), 0, 1 << 20, 0, wanted, &type, &format, &count,
            &remaining, &data)
        guard status == Success, let data else { throw Failure(description: "no \(name) on the window") }
        defer { XFree(data) }
        guard format == expected else { throw Failure(description: "\(name) has format \(format)") }
        return convert(data, Int(count))
    }

    /// What a window manager sends when the user clicks the close button.
    static func sendDeleteWindow(display: String, window: UInt) throws {
        guard let connection = TestDisplayConnection.open(display) else {
            throw Failure(description: "cannot open \(display)")
        }
        defer { XCloseDisplay(connection) }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = XInternAtom(connection, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(XInternAtom(connection, "WM_DELETE_WINDOW", 0))
        event.xclient.data.l.1 = Int(CurrentTime)
        XSendEvent(connection, window, 0, NoEventMask, &event)
        XSync(connection, 0)
    }
}
