import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Blocking Unix stream socket calls for the harness's side of a helper's socket (`LineConnection`), and a probe
/// for whether a compositor listens yet.
public enum UnixSocket {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A connected socket to `path`, retrying while it does not exist yet or refuses (its server still starting)
    /// and `alive()` holds.
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
    public static func accepts(_ path: String) -> Bool {
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

    /// Whatever arrives first (at least one byte) from `peer`, waiting until `deadline`.
    static func read(_ fd: Int32, deadline: ContinuousClock.Instant, from peer: String) throws -> [UInt8] {
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
            if ready == 0 { throw Failure(description: "no answer from \(peer) in time") }
            let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if received < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "recv(): \(String(cString: strerror(errno)))")
            }
            if received == 0 { throw Failure(description: "\(peer) closed the connection") }
            return Array(buffer[..<received])
        }
    }
}
