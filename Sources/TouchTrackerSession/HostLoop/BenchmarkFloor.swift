import Foundation
import Synchronization

/// For `touchtracker-bench`'s long-line row only: whether frames present their region without drawing into it
/// (`DrawingRenderer.drawsNothingForBenchmarkFloor`), what presenting alone costs, against which the app's drawing
/// is measured. Set from `TOUCHTRACKER_BENCH_FLOOR`, which only the benchmark sets.
public enum BenchmarkFloor: Sendable, Equatable {
    /// Frames draw as they always do.
    case off
    /// Each SIGUSR1 turns the floor on or off, starting off (`TOUCHTRACKER_BENCH_FLOOR=toggle`): the benchmark
    /// takes turns between the app and the floor in runs of moves within one session, so a slow moment of the machine
    /// falls on both alike (from one session to the next, the same app's median moves by up to 2× on a shared
    /// machine). A signal sent before an input event is handled before it, as a rule: the kernel hands it to the
    /// main thread, asleep in `poll`, which runs the handler as it wakes, before it reads the event. Each frame's
    /// trace line says whether the floor was on, so the benchmark checks.
    case toggledBySignal

    public init(environment value: String?) {
        self = value == "toggle" ? .toggledBySignal : .off
    }

    /// Whether the floor is on now. Installs the handler the first time it is asked (the session asks as it
    /// starts, before the window is shown).
    public var isOn: Bool {
        switch self {
        case .off: false
        case .toggledBySignal: BenchmarkFloorSignal.isOn
        }
    }
}

/// The SIGUSR1 handler's flag: an atomic, which the handler only flips (async-signal-safe). It is made before the
/// handler is installed, so the handler never runs its lazy initialisation (an optimised build lays it out
/// statically anyway).
private let benchmarkFloorFlag = Atomic<Bool>(false)

private enum BenchmarkFloorSignal {
    /// Installed the first time the floor is asked about.
    static let installed: Void = {
        _ = benchmarkFloorFlag.load(ordering: .relaxed)
        signal(SIGUSR1, benchmarkFloorHandler)
        // A parent may hand down a mask that blocks it (test runners do).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }()

    static var isOn: Bool {
        _ = installed
        return benchmarkFloorFlag.load(ordering: .relaxed)
    }
}

private func benchmarkFloorHandler(_ signal: Int32) {
    benchmarkFloorFlag.logicalXor(true, ordering: .relaxed)
}
