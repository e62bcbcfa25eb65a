import Glibc

/// Background work (painting tiles, reading and saving the document) runs at a lower priority than the event loop,
/// so on a machine with as many busy threads as cores the loop still gets the processor the moment a touch arrives:
/// the kernel's scheduler gives a thread of niceness 10 about a tenth of the share of one at 0.
public enum BackgroundPriority {
    public static let niceness: Int32 = 10

    /// Lowers the calling thread's priority. On Linux the niceness belongs to each thread, and `who` 0 names the
    /// calling one (setpriority(2), NOTES). A failure leaves it as it was.
    public static func lowerForThisThread() {
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
    }

    /// Puts the calling thread in the idle class (SCHED_IDLE): it runs only on a processor nothing else wants, and
    /// any other thread that wakes takes the processor from it at once. For spare hands that speed work up but that
    /// nothing waits for, such as the save's encoding helpers (`ParallelEncoding`). A failure leaves it as it was.
    public static func idleForThisThread() {
        var parameters = sched_param()
        _ = sched_setscheduler(0, idleSchedulingPolicy, &parameters)
    }

    /// SCHED_IDLE from <sched.h>, which Swift's Glibc module leaves out (it sits behind _GNU_SOURCE).
    private static let idleSchedulingPolicy: Int32 = 5
}
