import CX11
import Foundation

/// Owns the connection to the X server (`Display*`). Closing happens here and nowhere else.
final class X11Display {
    let pointer: OpaquePointer
    let name: String

    /// Opens `name`, or `$DISPLAY` when nil.
    init(name: String? = nil, environment: [String: String]) throws(X11Error) {
        let resolved = name ?? environment["DISPLAY"] ?? ""
        guard !resolved.isEmpty else { throw X11Error.noDisplayVariable }
        guard let display = XOpenDisplay(resolved) else {
            throw X11Error.cannotOpenDisplay(resolved, byOption: name != nil)
        }
        X11Display.installErrorHandlers()
        self.pointer = display
        self.name = resolved
    }

    deinit {
        XCloseDisplay(pointer)
    }

    /// Xlib's default handlers print several lines and exit on any protocol error. A protocol error (a request
    /// the server refused) is logged in one line and the app goes on; losing the connection exits with status 1
    /// and one line. (The drawing window installs its own handler, which saves first and says whether it could.)
    private static func installErrorHandlers() {
        XSetErrorHandler { display, event in
            guard let event else { return 0 }
            if errorTrap.isTrapping {
                errorTrap.errors += 1
                return 0
            }
            var text = [CChar](repeating: 0, count: 256)
            XGetErrorText(display, Int32(event.pointee.error_code), &text, Int32(text.count))
            let detail = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            writeStandardError(
                "touchtracker: X error: \(detail) (request \(event.pointee.request_code)); continuing\n")
            return 0
        }
        XSetIOErrorHandler { _ in
            writeStandardError("touchtracker: lost the connection to the X server; exiting\n")
            exit(1)
        }
    }

    /// Runs `body` (which must end with a round trip, such as `sync()`, so the server's answer has arrived) and
    /// returns whether the server refused none of its requests. Errors it causes are expected, so they are not
    /// logged.
    func withErrorsTrapped(_ body: () -> Void) -> Bool {
        errorTrap = ErrorTrap(isTrapping: true, errors: 0)
        body()
        let clean = errorTrap.errors == 0
        errorTrap = ErrorTrap()
        return clean
    }

    var screen: Int32 { XDefaultScreen(pointer) }
    var rootWindow: Window { XDefaultRootWindow(pointer) }
    /// The connection's file descriptor, for `poll`.
    var fileDescriptor: Int32 { XConnectionNumber(pointer) }

    /// Events already read into Xlib's queue or waiting on the socket.
    var pendingEventCount: Int32 { XPending(pointer) }

    func nextEvent() -> XEvent {
        var event = XEvent()
        XNextEvent(pointer, &event)
        return event
    }

    func flush() {
        XFlush(pointer)
    }

    func sync() {
        XSync(pointer, 0)
    }

    func atom(_ name: String) -> Atom {
        XInternAtom(pointer, name, 0)
    }
}

/// Whether protocol errors are being counted rather than logged (`withErrorsTrapped`). Xlib's error callback is a
/// C function without context; it runs on the thread that reads the connection, the main thread, as does every
/// use of this.
private struct ErrorTrap {
    var isTrapping = false
    var errors = 0
}
nonisolated(unsafe) private var errorTrap = ErrorTrap()

/// Writes straight to file descriptor 2 (safe from inside Xlib's error callbacks).
private func writeStandardError(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}
