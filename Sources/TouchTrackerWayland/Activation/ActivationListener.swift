internal import CWayland
import Glibc

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
