import CX11
import Foundation
import XorgTestSupport

/// What a window manager does when the user clicks a window's close button: a `WM_PROTOCOLS` client message
/// carrying `WM_DELETE_WINDOW`, sent to the window (there is no window manager on the test servers).
enum WindowManagerClose {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func send(display name: String, window: UInt) throws {
        guard let display = TestDisplayConnection.open(name) else {
            throw Failure(description: "cannot open display \(name)")
        }
        defer { XCloseDisplay(display) }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = Window(window)
        event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", 0)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(XInternAtom(display, "WM_DELETE_WINDOW", 0))
        event.xclient.data.l.1 = Int(CurrentTime)
        guard XSendEvent(display, Window(window), 0, NoEventMask, &event) != 0 else {
            throw Failure(description: "XSendEvent to 0x\(String(window, radix: 16)) failed")
        }
        XSync(display, 0)
    }
}
