import Foundation

/// Timing helpers: monotonic nanoseconds, medians, and percentiles of repeated runs.
enum Measure {
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Seconds taken by each of `runs` calls of `body`.
    static func samples(runs: Int, _ body: (Int) -> Void) -> [Double] {
        (0..<runs).map { run in
            let start = now()
            body(run)
            return Double(now() - start) / 1e9
        }
    }

    static func median(_ values: [Double]) -> Double {
        percentile(values, 0.5)
    }

    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }
}

/// A seeded generator (SplitMix64) so every run draws the same lines.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
