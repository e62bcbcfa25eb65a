import Glibc

/// Moves clipboard bytes through the pipes Wayland hands over, on a worker: the other end is another program, which
/// may be slow, stop reading or never close, so each wait is bounded.
enum PipeTransfer {
    /// Reads until the writer closes the pipe. Fails when more than `limit` bytes come, or nothing comes for
    /// `timeout` seconds.
    static func readAll(from fd: Int32, limit: Int, timeout: Double) -> Result<[UInt8], TransferProblem> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            guard wait(for: fd, events: POLLIN, timeout: timeout) else {
                return .failure(TransferProblem("the clipboard's owner sent nothing for \(Int(timeout)) s"))
            }
            let count = read(fd, &chunk, chunk.count)
            if count == 0 { return .success(bytes) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(TransferProblem("cannot read the clipboard: \(String(cString: strerror(errno)))"))
            }
            bytes += chunk[0..<count]
            if bytes.count > limit {
                return .failure(TransferProblem("the clipboard holds more than \(limit) bytes, more than a drawing"))
            }
        }
    }

    /// Writes all of `bytes`; nil when done, else why not (the reader went away or stopped reading).
    static func writeAll(_ bytes: [UInt8], to fd: Int32, timeout: Double) -> TransferProblem? {
        var offset = 0
        while offset < bytes.count {
            guard wait(for: fd, events: POLLOUT, timeout: timeout) else {
                return TransferProblem("a program asking for the copy stopped reading it for \(Int(timeout)) s")
            }
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                // EPIPE: the reader closed its end (SIGPIPE is ignored by the app).
                return errno == EPIPE
                    ? nil : TransferProblem("cannot send the copy: \(String(cString: strerror(errno)))")
            }
            offset += count
        }
        return nil
    }

    private static func wait(for fd: Int32, events: Int32, timeout: Double) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(events), revents: 0)
        while true {
            let ready = poll(&entry, 1, Int32(timeout * 1000))
            if ready < 0, errno == EINTR { continue }
            return ready > 0
        }
    }
}

struct TransferProblem: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
