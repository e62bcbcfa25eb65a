import Foundation

/// Turns SIGTERM and SIGINT into a readable file descriptor, so the event loop's `poll` wakes up and the app can
/// save and exit normally instead of dying inside a signal handler.
final class SignalPipe {
    let readFD: Int32

    init() {
        var fds: [Int32] = [0, 0]
        pipe(&fds)
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        }
        readFD = fds[0]
        signalPipeWriteFD = fds[1]
        signal(SIGTERM, signalPipeHandler)
        signal(SIGINT, signalPipeHandler)
        // A parent may hand down a mask that blocks these (test runners do); unblock them so they arrive.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether a signal arrived since the last call.
    func drain() -> Bool {
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
