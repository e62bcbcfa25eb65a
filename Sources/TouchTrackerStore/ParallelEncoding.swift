import Foundation
import Synchronization
import TouchTracker

/// Runs the codec's independent encoding jobs for a save side by side: the saving thread takes the first job, and
/// helper threads take the others. On two cores, a 100,000-line save spends about half as long encoding. The text
/// still reaches the file in order, a few batches at a time.
///
/// The helpers are made once, at the first save that needs them, and run at the background priority, as the
/// saving thread does. Dispatch's shared workers run at the event loop's priority, and a save would then compete
/// with the loop for the processor.
public enum ParallelEncoding {
    /// How many batches are encoded at once: one per processor, at most four (each holds ~250 KB of text).
    public static let batchesAtOnce = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    private static let helpers = EncodingHelpers(threads: batchesAtOnce - 1)

    /// The results of `jobs`, in their order.
    public static func run(_ jobs: [@Sendable () -> [UInt8]]) -> [[UInt8]] {
        guard jobs.count > 1 else { return jobs.map { $0() } }
        return helpers.run(jobs)
    }
}

/// The helper threads of `ParallelEncoding`: each waits for a job, runs it, and signals the caller.
private final class EncodingHelpers: Sendable {
    private let queue = Mutex<[@Sendable () -> Void]>([])
    /// One signal per queued job.
    private let work = DispatchSemaphore(value: 0)

    init(threads: Int) {
        for _ in 0..<threads {
            Thread.detachNewThread { [self] in
                BackgroundPriority.lowerForThisThread()
                while true {
                    work.wait()
                    if let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job() }
                }
            }
        }
    }

    /// Runs the first job on the calling thread and the others on the helpers (all on the calling thread when there
    /// are no helpers), and returns every result in order.
    func run(_ jobs: [@Sendable () -> [UInt8]]) -> [[UInt8]] {
        let results = Results(count: jobs.count)
        let finished = DispatchSemaphore(value: 0)
        let handedOver = ParallelEncoding.batchesAtOnce > 1 ? 1..<jobs.count : 1..<1
        for index in handedOver {
            let job = jobs[index]
            queue.withLock {
                $0.append {
                    results.set(index, job())
                    finished.signal()
                }
            }
            work.signal()
        }
        for index in jobs.indices where !handedOver.contains(index) { results.set(index, jobs[index]()) }
        for _ in handedOver { finished.wait() }
        return results.texts.withLock { $0 }
    }

    /// The texts of one `run`, filled in by whichever thread encodes each.
    private final class Results: Sendable {
        let texts: Mutex<[[UInt8]]>

        init(count: Int) { texts = Mutex([[UInt8]](repeating: [], count: count)) }

        func set(_ index: Int, _ text: [UInt8]) { texts.withLock { $0[index] = text } }
    }
}
