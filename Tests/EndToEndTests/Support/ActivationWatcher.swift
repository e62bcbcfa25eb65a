import CX11
import Foundation
import XorgTestSupport

/// Stands in for a window manager (the test servers run none) as far as activation goes: it selects
/// `SubstructureRedirectMask` on the root window, as a window manager does, so it receives the
/// `_NET_ACTIVE_WINDOW` client messages programs send there to bring a window forward. Start it after the
/// windows under test are mapped (while it runs, other clients' map requests would come to it instead).
/// Not thread-safe; use it from one test.
final class ActivationWatcher {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    private let connection: OpaquePointer
    private let activeWindowAtom: Atom

    init(display: String) throws {
        guard let connection = TestDisplayConnection.open(display) else {
            throw SetupError(description: "cannot open display \(display)")
        }
        self.connection = connection
        activeWindowAtom = XInternAtom(connection, "_NET_ACTIVE_WINDOW", 0)
        XSelectInput(connection, XDefaultRootWindow(connection), SubstructureRedirectMask | SubstructureNotifyMask)
        XSync(connection, 0)
    }

    deinit {
        XCloseDisplay(connection)
    }

    /// The windows asked to come forward (in order) within `timeout`, stopping at the first.
    func nextActivation(timeout: Duration) -> UInt? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            while XPending(connection) > 0 {
                var event = XEvent()
                XNextEvent(connection, &event)
                if event.type == ClientMessage, event.xclient.message_type == activeWindowAtom {
                    return UInt(event.xclient.window)
                }
            }
            var descriptor = pollfd(fd: XConnectionNumber(connection), events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 50)
        }
        return nil
    }
}
