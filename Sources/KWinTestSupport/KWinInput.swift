import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to the tests' fake-input client of a `KWinServer` (`InputClient/touchtracker-kwin-input.c`): each
/// call sends one text command that the client turns into a request of KWin's `org_kde_kwin_fake_input`, which KWin
/// injects as input of its own and delivers to the window under the touch or the pointer, or with keyboard focus.
/// Shaped like `WestonInput`, so the tests of both compositors read alike.
///
/// Coordinates are KWin's GLOBAL LOGICAL coordinates (at scale 1.5 a 1024x768 output is 1024x768 of them, 1536x1152
/// pixels): add the window's client position (`KWinServer.windows()`) to a point in the window. Nothing adds frames:
/// end a group of touch events with `touchFrame()`. KWin's fake pointer has no frame request of its own (KWin frames
/// each pointer event), so `pointerFrame()` only keeps the tests' sequences shaped like the weston ones.
///
/// Commands that fail answer with an error; `sync()` reads up to its own answer and throws those. Blocking I/O,
/// serialized by a lock.
public final class KWinInput: Sendable {
    /// Errors the client answered for commands sent since the last `sync()`, or a broken connection.
    public struct CommandError: Error, CustomStringConvertible {
        public let messages: [String]
        public let description: String
    }

    public enum PointerButton: String, Sendable {
        case left, right, middle
    }

    public enum Axis: String, Sendable {
        case vertical, horizontal
    }

    private struct Connection {
        /// The socket; -1 once closed.
        var fd: Int32
        /// Bytes received after the last complete line read.
        var pending: [UInt8] = []
    }
    private let connection: Mutex<Connection>

    /// Connects to the client's socket, retrying while it has not made it yet; `alive` says whether the client
    /// still runs (a client that exited will never listen).
    init(socketPath: String, timeout: Duration, alive: () -> Bool) throws {
        connection = Mutex(Connection(fd: try LineSocket.connect(path: socketPath, timeout: timeout, alive: alive)))
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

    /// A new touch point `id` (any integer ≥ 0 not down already) at global logical point (x, y).
    public func touchDown(id: Int, x: Double, y: Double) throws {
        try send("touch down \(id) \(x) \(y)")
    }

    public func touchMotion(id: Int, x: Double, y: Double) throws {
        try send("touch motion \(id) \(x) \(y)")
    }

    public func touchUp(id: Int) throws {
        try send("touch up \(id)")
    }

    /// The touch events since the last frame belong together (KWin sends the client its wl_touch.frame).
    public func touchFrame() throws {
        try send("touch frame")
    }

    /// Every touch point is gone: KWin cancels the touch sequence (wl_touch.cancel for the client).
    public func touchCancel() throws {
        try send("touch cancel")
    }

    // MARK: Pointer

    /// Moves the pointer to global logical point (x, y); the surface under it gets pointer focus.
    public func pointerMotion(x: Double, y: Double) throws {
        try send("pointer motion \(x) \(y)")
    }

    public func pointerButton(_ button: PointerButton, pressed: Bool) throws {
        try send("pointer button \(button.rawValue) \(pressed ? "press" : "release")")
    }

    /// A scroll of `value` (wl_pointer.axis units: 10 is about one wheel click).
    public func pointerAxis(_ axis: Axis, value: Double) throws {
        try send("pointer axis \(axis.rawValue) \(value)")
    }

    /// Nothing to send: KWin ends each fake pointer event with a frame of its own.
    public func pointerFrame() throws {}

    // MARK: Keyboard

    /// Presses or releases the key with Linux evdev code `code`; KWin keeps the modifier state and sends the key to
    /// the window with keyboard focus (the active one).
    public func key(_ code: Int, pressed: Bool) throws {
        try send("key \(code) \(pressed ? "press" : "release")")
    }

    // MARK: Requests with answers

    /// An xdg-activation token KWin itself issues to the client (privileged by its .desktop file, so KWin grants it
    /// with no surface and honours it whatever window is active), for `appID` when given.
    public func activationToken(appID: String? = nil, timeout: Duration = .seconds(5)) throws -> String {
        let answer = try request("token" + (appID.map { " \($0)" } ?? ""), answerPrefix: "token ", timeout: timeout)
        return String(answer.dropFirst("token ".count))
    }

    /// The pixels of the logical area (x, y, width, height) as KWin's ScreenShot2 captures them at the output's
    /// native resolution.
    func screenshot(x: Int, y: Int, width: Int, height: Int, file: String, timeout: Duration) throws -> KWinScreenshot {
        let answer = try request(
            "screenshot \(x) \(y) \(width) \(height) \(file)", answerPrefix: "screenshot ", timeout: timeout)
        let fields = Array(answer.split(separator: " ").dropFirst())
        guard fields.count == 5, let width = Int(fields[0]), let height = Int(fields[1]), let stride = Int(fields[2]),
            let format = Int(fields[3]), let scale = Double(fields[4])
        else { throw CommandError(messages: [answer], description: "unexpected screenshot answer: \(answer)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        try? FileManager.default.removeItem(atPath: file)
        return KWinScreenshot(width: width, height: height, stride: stride, format: format, scale: scale, bytes: bytes)
    }

    // MARK: Commands

    /// Sends one command line (without its newline) as it is. An error it causes surfaces at the next `sync()`.
    public func send(_ command: String) throws {
        precondition(!command.contains("\n"), "one command per line")
        try connection.withLock { connection in
            // Take in the answers already there first (errors of earlier commands), so they never pile up.
            if connection.fd >= 0 { connection.pending += try LineSocket.readAvailable(connection.fd) }
            try Self.writeAll(connection, Array((command + "\n").utf8))
        }
    }

    /// Returns once KWin has handled every request sent before (a Wayland roundtrip of the client). Throws
    /// `CommandError` with the client's answers if any of those commands failed.
    public func sync(timeout: Duration = .seconds(5)) throws {
        _ = try request("sync", answerPrefix: "ok", timeout: timeout)
    }

    // MARK: Private

    /// Sends `command` and reads answers up to the first that starts with `answerPrefix`, which it returns; errors
    /// answered before it are thrown. A request that gets no answer closes the connection (a late answer would
    /// otherwise answer the next one).
    private func request(_ command: String, answerPrefix: String, timeout: Duration) throws -> String {
        try connection.withLock { connection in
            try Self.writeAll(connection, Array((command + "\n").utf8))
            var errors: [String] = []
            var answer: String?
            let deadline = ContinuousClock.now.advanced(by: timeout)
            while answer == nil {
                for line in LineSocket.takeLines(&connection.pending) {
                    if answer == nil, line.hasPrefix(answerPrefix) {
                        answer = line
                    } else {
                        errors.append(
                            line.hasPrefix("error ") ? String(line.dropFirst(6)) : "unexpected answer: \(line)")
                    }
                }
                if answer != nil { break }
                do {
                    connection.pending += try LineSocket.read(connection.fd, deadline: deadline)
                } catch {
                    _ = Glibc.close(connection.fd)
                    connection.fd = -1
                    throw CommandError(messages: errors, description: (["\(error)"] + errors).joined(separator: "\n"))
                }
            }
            guard errors.isEmpty, let answer else {
                throw CommandError(messages: errors, description: "KWin fake input: " + errors.joined(separator: "; "))
            }
            return answer
        }
    }

    private static func writeAll(_ connection: Connection, _ bytes: [UInt8]) throws {
        guard connection.fd >= 0 else {
            throw LineSocket.Failure(description: "the KWin fake-input connection is closed")
        }
        try LineSocket.writeAll(connection.fd, bytes)
    }
}

/// A screenshot KWin's ScreenShot2 took: pixels in QImage's 32-bit formats (RGB32, ARGB32 or its premultiplied
/// form: bytes blue, green, red, alpha in memory), `scale` pixels to a logical unit.
public struct KWinScreenshot: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    /// The QImage::Format number (4 RGB32, 5 ARGB32, 6 ARGB32_Premultiplied).
    public let format: Int
    public let scale: Double
    public let bytes: [UInt8]

    /// The colour of pixel (x, y) (in pixels of the image, not logical units), nil outside it.
    public func pixel(x: Int, y: Int) -> (red: Int, green: Int, blue: Int)? {
        guard (0..<width).contains(x), (0..<height).contains(y), [4, 5, 6].contains(format) else { return nil }
        let offset = y * stride + x * 4
        return (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
    }
}

/// Blocking Unix stream socket calls for the harness's side of the fake-input client's socket.
enum LineSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A connected socket to `path`, retrying while it does not exist yet or refuses and `alive()` holds.
    static func connect(path: String, timeout: Duration, alive: () -> Bool) throws -> Int32 {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            let (fd, error) = attempt(path)
            if fd >= 0 { return fd }
            guard error == ENOENT || error == ECONNREFUSED, ContinuousClock.now < deadline, alive() else {
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

    /// Whatever has arrived, without waiting.
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
            let milliseconds =
                remaining.seconds * 1000 + (remaining.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Int32(clamping: max(0, milliseconds)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "poll(): \(String(cString: strerror(errno)))")
            }
            if ready == 0 { throw Failure(description: "no answer from the KWin fake-input client in time") }
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if received < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "recv(): \(String(cString: strerror(errno)))")
            }
            if received == 0 { throw Failure(description: "the KWin fake-input client closed the connection") }
            return Array(buffer[..<received])
        }
    }

    /// The complete lines in `pending`, without their newlines, taken out of it.
    static func takeLines(_ pending: inout [UInt8]) -> [String] {
        guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let lines = pending[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        pending.removeSubrange(...last)
        return lines
    }
}
