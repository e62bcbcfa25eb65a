import Glibc
import TouchTrackerSession

/// When a commit left for the compositor, for `--trace-frames`: the wall time the send began plus the processor
/// time this thread spent in it. The time after that, until the send returns, is not counted: writing to the
/// compositor's socket wakes it, and on a machine with few cores the kernel often gives it this thread's core at
/// once, so the send returns only once the compositor has handled the commit (a median of 0.3 ms under KWin on two
/// cores, up to 1.5 ms) — time the frame is already the compositor's.
final class SendClock {
    /// The last send's time, in `MonotonicClock` seconds.
    private(set) var lastSent: Double?

    /// Nothing sent yet for the frame being presented.
    func forget() {
        lastSent = nil
    }

    func time(_ send: () -> Void) {
        let began = MonotonicClock.now()
        let processorBefore = Self.threadProcessorTime()
        send()
        lastSent = began + max(0, Self.threadProcessorTime() - processorBefore)
    }

    private static func threadProcessorTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
