import Foundation

/// Lets another thread wake the event loop out of `poll`: a tile painter that finished a tile writes a byte, the
/// loop sees its read end readable, drains it and draws the next frame.
public final class WakePipe: Sendable {
    public let readFD: Int32
    private let writeFD: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
            }
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    deinit {
        close(readFD)
        close(writeFD)
    }

    /// A closure any thread may call to wake the loop. A full pipe already means "wake up", so a failed write is
    /// fine. The closure holds the pipe, so its descriptors stay open for as long as any worker may still call it:
    /// a worker that outlives the loop never writes into a closed descriptor, or one reused for something else.
    public var wakeUp: @Sendable () -> Void {
        { [self] in
            var byte: UInt8 = 1
            _ = write(writeFD, &byte, 1)
        }
    }

    /// Empties the pipe (the loop is awake now).
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readFD, &buffer, buffer.count) > 0 {}
    }
}
