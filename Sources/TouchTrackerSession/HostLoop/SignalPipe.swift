import Foundation

/// Turns the signals that ask the app to end (SIGTERM, SIGINT, SIGHUP when its terminal closes, SIGQUIT) into a
/// readable file descriptor, so the event loop's `poll` wakes up and the app ends as it does when its window is
/// closed, instead of dying inside a signal handler: the line in progress finished, the last save made or a
/// recovery file written. (SIGQUIT's core dump is no use to a person who asked the app to quit.)
public final class SignalPipe {
    public static let endingSignals = [SIGTERM, SIGINT, SIGHUP, SIGQUIT]

    /// -1 when no pipe could be made: the signals then keep their default action.
    public let readFD: Int32

    public init() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            // Without a pipe the handler would write to whatever descriptor -1 or 0 is; the signals are left to
            // end the app as they would by default (poll ignores a negative descriptor).
            readFD = -1
            return
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        readFD = fds[0]
        signalPipeWriteFD = fds[1]
        for number in Self.endingSignals { signal(number, signalPipeHandler) }
        // A parent may hand down a mask that blocks these (test runners do); unblock them so they arrive.
        var set = sigset_t()
        sigemptyset(&set)
        for number in Self.endingSignals { sigaddset(&set, number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether a signal arrived since the last call.
    public func drain() -> Bool {
        guard readFD >= 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        return read(readFD, &buffer, buffer.count) > 0
    }
}

/// Written once before the handler is installed and only read by it afterwards, so the handler never runs lazy
/// initialisation (which is not async-signal-safe).
nonisolated(unsafe) private var signalPipeWriteFD: Int32 = -1

private func signalPipeHandler(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteFD, &byte, 1)
}
