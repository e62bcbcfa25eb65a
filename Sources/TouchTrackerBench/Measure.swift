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
