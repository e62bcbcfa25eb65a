internal import CWayland
import Glibc

/// How a second `touchtracker` on the same drawing hands its activation token to the Wayland window that has it:
/// a Unix socket in the abstract namespace named after the user and the window's process
/// (`touchtracker-activate-UID-PID`, found through the pid in the document's lock). Wayland lets only the compositor
/// raise a window, and only for a token the launcher gave (`XDG_ACTIVATION_TOKEN`), so the token travels to the
/// window, which passes it to `xdg_activation_v1.activate`.
///
/// The listener takes tokens only from processes of its own user (`SO_PEERCRED`).
public enum ActivationChannel {
    /// The longest token accepted (compositors make tokens of a few dozen bytes).
    static let maximumTokenLength = 1024

    /// The socket address of process `pid`'s window.
    static func address(pid: Int32) -> (sockaddr_un, socklen_t) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Abstract namespace: a leading NUL, then the name (no file to clean up or to be planted by others).
        let name = Array("\0touchtracker-activate-\(getuid())-\(pid)".utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in name.enumerated() where index < path.count { path[index] = byte }
        }
        let length = MemoryLayout<sa_family_t>.size + name.count
        return (address, socklen_t(length))
    }

    /// Whether `token` is one a compositor could have made: printable ASCII, not empty, not too long.
    static func isPlausible(_ token: [UInt8]) -> Bool {
        !token.isEmpty && token.count <= maximumTokenLength && token.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Sends `token` to process `pid`'s window. Throws a one-line reason when that window does not listen.
    public static func send(token: String, toProcess pid: Int32) throws(WaylandError) {
        let bytes = Array(token.utf8)
        guard isPlausible(bytes) else { throw WaylandError("XDG_ACTIVATION_TOKEN is not a token") }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WaylandError("cannot make a socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var (address, length) = address(pid: pid)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard connected == 0 else {
            throw WaylandError(
                "process \(pid) does not take activation tokens (\(String(cString: strerror(errno))))")
        }
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else {
            throw WaylandError("cannot send the activation token: \(String(cString: strerror(errno)))")
        }
    }
}

/// The window's end of `ActivationChannel`: a listening socket the event loop polls, and the connections whose
/// token has not fully arrived yet. Never blocks: a sender that connects and sends nothing is dropped after a
/// second.
final class ActivationListener {
    let fd: Int32
    private var pending: [(fd: Int32, bytes: [UInt8], since: Double)] = []

    /// Listens for this process's window; nil when the socket cannot be made (a second instance then cannot bring
    /// this window forward, which is said with `--verbose`).
    init?() {
        fd = socket(
            AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return nil }
        var (address, length) = ActivationChannel.address(pid: getpid())
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            close(fd)
            return nil
        }
    }

    deinit {
        for connection in pending { close(connection.fd) }
        close(fd)
    }

    /// The descriptors the loop polls for reading: the listener and every connection still sending.
    var descriptors: [Int32] { [fd] + pending.map(\.fd) }

    /// Accepts new connections and reads what they sent; returns the tokens that arrived whole.
    func takeTokens(now: Double) -> [String] {
        while true {
            let connection = cwayland_accept_nonblocking(fd)
            guard connection >= 0 else { break }
            if Self.peerIsThisUser(connection) {
                pending.append((connection, [], now))
            } else {
                close(connection)
            }
        }
        var tokens: [String] = []
        var kept: [(fd: Int32, bytes: [UInt8], since: Double)] = []
        for var connection in pending {
            var buffer = [UInt8](repeating: 0, count: 512)
            var finished = false
            while true {
                let count = read(connection.fd, &buffer, buffer.count)
                if count > 0 {
                    connection.bytes += buffer[0..<count]
                    if connection.bytes.count > ActivationChannel.maximumTokenLength { finished = true }
                    continue
                }
                // 0: the sender closed, the token is whole. EAGAIN: more may come. Anything else: give up.
                finished = count == 0 || (errno != EAGAIN && errno != EINTR)
                if count == 0, ActivationChannel.isPlausible(connection.bytes) {
                    tokens.append(String(decoding: connection.bytes, as: UTF8.self))
                }
                break
            }
            if finished || now - connection.since > 1 {
                close(connection.fd)
            } else {
                kept.append(connection)
            }
        }
        pending = kept
        return tokens
    }

    private static func peerIsThisUser(_ fd: Int32) -> Bool {
        var uid: uid_t = 0
        return cwayland_peer_uid(fd, &uid) == 0 && uid == getuid()
    }
}
