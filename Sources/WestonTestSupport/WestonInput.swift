import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to the input module of a `WestonServer` (`InputModule/touchtracker-test-input.c`): each call sends
/// one text command that the module turns into a real event of its seat "touchtracker-test", which weston delivers
/// to the client under it (the touch's or the pointer's) or with keyboard focus, as it would a libinput device's.
///
/// Coordinates are GLOBAL compositor pixels: the output sits at 0,0, and the kiosk shell offers every toplevel the
/// output's size, so for a window that takes it they are also the window's own (a smaller one is centred). Nothing
/// adds frames: end a group of touch events with `touchFrame()` and
/// pointer events with `pointerFrame()`, as a real device does (Xwayland acts on a pointer motion only at its frame).
///
/// Commands that fail answer with an error the module sends back; `sync()` reads up to its own answer and throws
/// those. Blocking I/O, serialized by a lock.
public final class WestonInput: Sendable {
    /// Errors the module answered for commands sent since the last `sync()`, or a broken connection.
    public struct CommandError: Error, CustomStringConvertible {
        /// The module's answers, without their "error " prefix.
        public let messages: [String]
        public let description: String
    }

    public enum PointerButton: String, Sendable {
        case left, right, middle
    }

    public enum Axis: String, Sendable {
        case vertical, horizontal
    }

    public let socketPath: String

    private struct Connection {
        /// The socket; -1 once closed.
        var fd: Int32
        /// Bytes received after the last complete line read.
        var pending: [UInt8] = []
    }
    private let connection: Mutex<Connection>

    /// Connects to the module's socket, retrying while weston has not made it yet.
    public init(socketPath: String, connectTimeout: Duration = .seconds(5)) throws {
        self.socketPath = socketPath
        connection = Mutex(Connection(fd: try UnixSocket.connect(path: socketPath, timeout: connectTimeout)))
    }

    deinit {
        close()
    }

    public func close() {
        connection.withLock { connection in
            if connection.fd >= 0 {
                _ = Glibc.close(connection.fd)
                connection.fd = -1
            }
        }
    }

    // MARK: Touch

    /// A new touch point `id` (any integer ≥ 0 not down already) at global pixel (x, y).
    public func touchDown(id: Int, x: Double, y: Double) throws {
        try send("touch down \(id) \(x) \(y)")
    }

    public func touchMotion(id: Int, x: Double, y: Double) throws {
        try send("touch motion \(id) \(x) \(y)")
    }

    public func touchUp(id: Int) throws {
        try send("touch up \(id)")
    }

    /// wl_touch.frame: the touch events since the last frame belong together.
    public func touchFrame() throws {
        try send("touch frame")
    }

    /// wl_touch.cancel: every touch point is gone, its gesture no longer the client's.
    public func touchCancel() throws {
        try send("touch cancel")
    }

    // MARK: Pointer

    /// Moves the pointer to global pixel (x, y); the surface under it gets pointer focus.
    public func pointerMotion(x: Double, y: Double) throws {
        try send("pointer motion \(x) \(y)")
    }

    public func pointerButton(_ button: PointerButton, pressed: Bool) throws {
        try send("pointer button \(button.rawValue) \(pressed ? "press" : "release")")
    }

    /// A scroll of `value` (wl_pointer.axis units: 10 is about one wheel click, positive is down or right); with
    /// `discrete`, a wheel's clicks (axis_source wheel and axis_discrete go with it).
    public func pointerAxis(_ axis: Axis, value: Double, discrete: Int? = nil) throws {
        try send("pointer axis \(axis.rawValue) \(value)" + (discrete.map { " \($0)" } ?? ""))
    }

    public func pointerFrame() throws {
        try send("pointer frame")
    }

    // MARK: Keyboard

    /// Presses or releases the key with Linux evdev code `code` (30 is KEY_A; X keycodes are these plus 8). Weston
    /// keeps the modifier state from these, and sends them to the surface with keyboard focus (under the kiosk
    /// shell, the toplevel mapped last).
    public func key(_ code: Int, pressed: Bool) throws {
        try send("key \(code) \(pressed ? "press" : "release")")
    }

    // MARK: Commands

    /// Sends one command line (without its newline) as it is: the typed calls above, or anything else (to test the
    /// module). An error it causes surfaces at the next `sync()`.
    public func send(_ command: String) throws {
        precondition(!command.contains("\n"), "one command per line")
        try connection.withLock { connection in
            // Take in the answers already there first (errors of earlier commands): the module stops reading a
            // client whose answers pile up, and this one, blocked writing, would then wait for ever.
            if connection.fd >= 0 { connection.pending += try UnixSocket.readAvailable(connection.fd) }
            try Self.writeAll(connection, Array((command + "\n").utf8))
        }
    }

    /// Returns once the module has run every command sent before and weston has written the events they made to
    /// its clients' sockets (not: once a client has read them). Throws `CommandError` with the module's answers if
    /// any of those commands failed. A sync that gets no answer closes the connection (a late "ok" would otherwise
    /// answer the next one).
    public func sync(timeout: Duration = .seconds(5)) throws {
        try connection.withLock { connection in
            try Self.writeAll(connection, Array("sync\n".utf8))
            var errors: [String] = []
            var answered = false
            let deadline = ContinuousClock.now.advanced(by: timeout)
            while true {
                // Nothing follows an "ok" (this lock keeps commands out until it is read).
                for line in Self.takeLines(&connection.pending) {
                    if line == "ok" {
                        answered = true
                    } else {
                        errors.append(
                            line.hasPrefix("error ") ? String(line.dropFirst(6)) : "unexpected answer: \(line)")
                    }
                }
                if answered { break }
                do {
                    connection.pending += try UnixSocket.read(connection.fd, deadline: deadline)
                } catch {
                    _ = Glibc.close(connection.fd)
                    connection.fd = -1
                    throw CommandError(messages: errors, description: (["\(error)"] + errors).joined(separator: "\n"))
                }
            }
            guard errors.isEmpty else {
                throw CommandError(messages: errors, description: "weston input: " + errors.joined(separator: "; "))
            }
        }
    }

    // MARK: Private

    private static func writeAll(_ connection: Connection, _ bytes: [UInt8]) throws {
        guard connection.fd >= 0 else { throw UnixSocket.Failure(description: "the weston input connection is closed") }
        try UnixSocket.writeAll(connection.fd, bytes)
    }

    /// The complete lines in `pending`, without their newlines, taken out of it.
    private static func takeLines(_ pending: inout [UInt8]) -> [String] {
        guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let lines = pending[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        pending.removeSubrange(...last)
        return lines
    }
}

/// Blocking Unix stream socket calls for the harness's side of the module's socket.
enum UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A connected socket to `path`, retrying while it does not exist yet or refuses (weston still starting).
    static func connect(path: String, timeout: Duration) throws -> Int32 {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let (fd, error) = attempt(path)
            if fd >= 0 { return fd }
            guard error == ENOENT || error == ECONNREFUSED, ContinuousClock.now < deadline else {
                throw Failure(description: "connect(\(path)): \(String(cString: strerror(error)))")
            }
            usleep(10_000)
        }
    }

    /// Whether something listens on `path` now (the probe connection is closed at once).
    static func accepts(_ path: String) -> Bool {
        let (fd, _) = attempt(path)
        guard fd >= 0 else { return false }
        _ = Glibc.close(fd)
        return true
    }

    /// One connect: the socket, or -1 and errno.
    private static func attempt(_ path: String) -> (fd: Int32, error: Int32) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return (-1, ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return (-1, errno) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if result == 0 { return (fd, 0) }
        let error = errno
        _ = Glibc.close(fd)
        return (-1, error)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "send(): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Whatever has arrived, without waiting (nothing at end of file: the next write reports the closed socket).
    static func readAvailable(_ fd: Int32) throws -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, Int32(MSG_DONTWAIT)) }
            if received > 0 {
                result += buffer[..<received]
            } else if received == 0 || errno == EAGAIN || errno == EWOULDBLOCK {
                return result
            } else if errno != EINTR {
                throw Failure(description: "recv(): \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Whatever arrives first (at least one byte), waiting until `deadline`.
    static func read(_ fd: Int32, deadline: ContinuousClock.Instant) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline).components
            // Rounded up, so a wait never ends before the deadline.
            let milliseconds =
                remaining.seconds * 1000 + (remaining.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(clamping: max(0, milliseconds)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "poll(): \(String(cString: strerror(errno)))")
            }
            if ready == 0 { throw Failure(description: "no answer from the weston input module in time") }
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if received < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "recv(): \(String(cString: strerror(errno)))")
            }
            if received == 0 { throw Failure(description: "the weston input module closed the connection") }
            return Array(buffer[..<received])
        }
    }
}
