import BackgroundWork
import Glibc
import TouchTrackerStore

/// For the commands that write files and end (export, replay): Ctrl+C, SIGTERM or a closed terminal removes the
/// temporary file an output is being written through (`TemporaryFiles`), then ends the process by the signal as it
/// would have ended anyway. The output named is never half-written (it is renamed into place whole); without this
/// an interrupted export would leave its hidden temporary file, truncated, beside it.
enum InterruptCleanup {
    static let signals = [SIGINT, SIGTERM, SIGHUP]

    /// Call before any other thread starts: the signals are blocked here, and so in every thread made after, and
    /// one worker waits for them.
    static func install() {
        var set = sigset_t()
        sigemptyset(&set)
        // A signal the command was started ignoring (`nohup`, a script's background job) stays ignored: blocked
        // and waited for, it would end the command after all.
        for number in signals where !isIgnored(number) { sigaddset(&set, number) }
        TemporaryFiles.startNoting()
        guard pthread_sigmask(SIG_BLOCK, &set, nil) == 0 else { return }
        let waited = set
        Worker.run("signal cleanup", priority: .prompt) {
            var set = waited
            var number: Int32 = 0
            guard sigwait(&set, &number) == 0 else { return }
            TemporaryFiles.removeAll()
            // Ended by the signal itself, so the shell sees what ended it (status 128 + N).
            signal(number, SIG_DFL)
            var only = sigset_t()
            sigemptyset(&only)
            sigaddset(&only, number)
            pthread_sigmask(SIG_UNBLOCK, &only, nil)
            raise(number)
        }
    }

    private static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        // Handlers are C function pointers, compared by address (SIG_IGN is the address 1).
        let handler = current.__sigaction_handler.sa_handler.map { unsafeBitCast($0, to: Int.self) }
        return handler == unsafeBitCast(SIG_IGN, to: Int.self)
    }
}
