import Foundation
import Synchronization

/// Runs the codec's independent encoding jobs for a save side by side, one per processor at most (the writer's
/// thread takes one, Dispatch's workers the others), so a 100,000-line save spends about half as long encoding on
/// two cores. The text still reaches the file in order, a few batches at a time.
public enum ParallelEncoding {
    /// How many batches are encoded at once: one per processor, at most four (each holds ~250 KB of text).
    public static let batchesAtOnce = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    /// The results of `jobs`, in their order.
    public static func run(_ jobs: [@Sendable () -> [UInt8]]) -> [[UInt8]] {
        guard jobs.count > 1 else { return jobs.map { $0() } }
        let results = Mutex([[UInt8]](repeating: [], count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let text = jobs[index]()
            results.withLock { $0[index] = text }
        }
        return results.withLock { $0 }
    }
}
