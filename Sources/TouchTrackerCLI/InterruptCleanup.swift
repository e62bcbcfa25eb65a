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
        for number in signals { sigaddset(&set, number) }
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
}
