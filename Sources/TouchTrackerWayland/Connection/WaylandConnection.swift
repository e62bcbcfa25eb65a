internal import CWayland
import Glibc

/// The connection to the Wayland compositor: owns the `wl_display` and disconnects it in one place.
///
/// Events are read the way libwayland asks of a client with its own `poll` loop: `prepareToRead` before sleeping,
/// then `readEvents` (or `cancelRead`) and `dispatchPending`, so another reader of the same socket can never steal
/// the loop's events.
final class WaylandConnection {
    let display: OpaquePointer

    /// Connects to `name` (a socket name in `XDG_RUNTIME_DIR`, or a path), or to `WAYLAND_DISPLAY` when nil.
    init(name: String?) throws(WaylandError) {
        _ = Self.logThroughTouchTracker
        // A socket name is looked for in XDG_RUNTIME_DIR: without one libwayland prints a line of its own and then
        // fails with "No such file or directory". Said once, in words, instead (an inherited WAYLAND_SOCKET or an
        // absolute path needs no folder).
        let socketName = name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        let runtimeFolder = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? ""
        if getenv("WAYLAND_SOCKET") == nil, !socketName.hasPrefix("/"), runtimeFolder.isEmpty {
            throw WaylandError(
                "cannot connect to the Wayland compositor \"\(socketName)\": XDG_RUNTIME_DIR is not set, so its "
                    + "socket cannot be found; set XDG_RUNTIME_DIR (usually /run/user/\(getuid())), or use --backend x11"
            )
        }
        guard let display = wl_display_connect(name) else {
            // What libwayland tried: the name given, else WAYLAND_DISPLAY's, else its default.
            let shown = "\"" + (name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0") + "\""
            throw WaylandError(
                "cannot connect to the Wayland compositor \(shown) (\(String(cString: strerror(errno)))); check "
                    + "WAYLAND_DISPLAY and XDG_RUNTIME_DIR, or use --backend x11")
        }
        self.display = display
    }

    deinit {
        wl_display_disconnect(display)
    }

    /// libwayland's own messages ("error: XDG_RUNTIME_DIR is invalid…") go to stderr as the app's lines do,
    /// prefixed `touchtracker: wayland:` and on one line each, rather than bare beside the app's own. Set once.
    private static let logThroughTouchTracker: Void = {
        wl_log_set_handler_client { format, arguments in
            guard let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            let text = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " ")
            guard !text.isEmpty else { return }
            let line = Array("touchtracker: wayland: \(text)\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
    }()

    var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Sends every request made so far. Returns false when the socket is full (the rest goes at the next flush).
    @discardableResult
    func flush() -> Bool {
        wl_display_flush(display) >= 0
    }

    /// Sends the requests and waits until the compositor has answered them all (start-up only).
    func roundtrip() throws(WaylandError) {
        guard wl_display_roundtrip(display) >= 0 else { throw lostError }
    }

    /// Dispatches events already read, then announces that this thread will read the socket. False when the
    /// connection is broken.
    func prepareToRead() -> Bool {
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return false }
        }
        return true
    }

    /// After `prepareToRead` and `poll`: reads what the socket has.
    func readEvents() -> Bool { wl_display_read_events(display) >= 0 }

    /// After `prepareToRead`, when `poll` found nothing on the socket.
    func cancelRead() { wl_display_cancel_read(display) }

    /// Calls the listeners of every event read. False when the connection is broken.
    func dispatchPending() -> Bool { wl_display_dispatch_pending(display) >= 0 }

    /// Why the connection broke, as a protocol error or the system's.
    var lostError: WaylandError {
        let code = wl_display_get_error(display)
        guard code != 0 else { return WaylandError("lost the connection to the Wayland compositor") }
        if code == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let protocolCode = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "an object"
            return WaylandError(
                "the Wayland compositor reported protocol error \(protocolCode) on \(name) \(id); this is a bug in "
                    + "touchtracker, please report it")
        }
        return WaylandError("lost the connection to the Wayland compositor (\(String(cString: strerror(code))))")
    }
}
