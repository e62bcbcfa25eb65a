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
