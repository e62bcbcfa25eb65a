import BackgroundWork
import Foundation
import Synchronization
import TouchTracker

/// Runs the codec's independent encoding jobs for a save side by side: the saving thread takes them in order, and
/// helper threads take any it has not reached yet. On two quiet cores a 100,000-line save spends about half as long
/// encoding. The text still reaches the file in order, a few batches at a time.
///
/// The helpers belong to their owner (the document's writer makes one set for all its saves and stops them when
/// it stops) and run in the idle class: they use only a processor nothing else wants, so they never hold up the
/// event loop or the X server, as Dispatch's shared workers (at the loop's priority) would. Nor do they ever hold
/// up the save: a job a helper has not finished soon after the saving thread has done its own is done again by the
/// saving thread (the text is the same), so stopping them mid-save loses nothing either.
public final class ParallelEncoding: Sendable {
    /// How many batches are encoded at once: one per processor, at most four (each holds ~60 KB of text).
    public static let batchesAtOnce = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    private let helpers: EncodingHelpers?

    /// Starts the helpers (one fewer than `batchesAtOnce`; none on one processor), asleep until a save needs them.
    public init() {
        helpers = Self.batchesAtOnce > 1 ? EncodingHelpers(threads: Self.batchesAtOnce - 1) : nil
    }

    /// The results of `jobs`, in their order.
    public func run(_ jobs: [@Sendable () -> [UInt8]]) -> [[UInt8]] {
        guard jobs.count > 1, let helpers else { return jobs.map { $0() } }
        return helpers.run(jobs)
    }

    /// Ends the helpers' threads once the jobs in their hands are done (a save under way finishes its own).
    public func stop() {
        helpers?.stop()
    }
}

/// The helper threads of `ParallelEncoding`: each waits for a job, and runs it unless the saving thread already
/// took it.
private final class EncodingHelpers: Sendable {
    /// A job offered to the helpers, with the run it belongs to.
    private struct Offer: Sendable {
        let run: ObjectIdentifier
        let job: @Sendable () -> Void
    }

    /// Jobs offered and not yet taken.
    private let queue = Mutex<[Offer]>([])
    /// The helpers, in the idle class, asleep while there is nothing to save.
    private let helpers: [Worker]

    init(threads: Int) {
        helpers = (0..<threads).map { Worker(name: "save encoder \($0 + 1)", priority: .idle) }
    }

    func stop() {
        for helper in helpers { helper.stop() }
    }

    /// What a helper is handed for each job offered: take the oldest offer still queued, if any. (The offer itself
    /// stays in the shared queue, so one the saving thread did first can be taken back, with the drawing it holds.)
    private func takeOne() {
        if let next = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { next.job() }
    }

    /// Offers every job but the first to the helpers, runs on the calling thread each job no helper has taken,
    /// waits about as long for the ones helpers have in hand, runs again any still unfinished, and returns every
    /// result in order.
    func run(_ jobs: [@Sendable () -> [UInt8]]) -> [[UInt8]] {
        let results = Results(count: jobs.count)
        let finished = DispatchSemaphore(value: 0)
        for index in jobs.indices.dropFirst() {
            let job = jobs[index]
            let offer = Offer(run: ObjectIdentifier(results)) {
                guard results.claim(index) else { return }
                results.set(index, job())
                finished.signal()
            }
            queue.withLock { $0.append(offer) }
            helpers[index % helpers.count].submit { [self] in takeOne() }
        }
        let start = DispatchTime.now()
        for index in jobs.indices where results.claim(index) { results.set(index, jobs[index]()) }
        let ownTime = DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds
        let deadline = DispatchTime.now() + .nanoseconds(Int(max(ownTime, 2_000_000)))
        while results.unfinished > 0, finished.wait(timeout: deadline) == .success {}
        for index in jobs.indices where !results.isFinished(index) { results.set(index, jobs[index]()) }
        // Jobs no helper took stay out of the queue: each holds the drawing it encodes, and a snapshot kept alive
        // makes the next edit copy the drawing's arrays instead of changing them in place.
        queue.withLock { $0.removeAll { $0.run == ObjectIdentifier(results) } }
        return results.texts
    }

    /// The texts of one `run`, filled in by whichever thread encodes each first.
    private final class Results: Sendable {
        private struct State {
            var texts: [[UInt8]?]
            var claimed: [Bool]
        }

        private let state: Mutex<State>

        init(count: Int) {
            state = Mutex(
                State(texts: Array(repeating: nil, count: count), claimed: Array(repeating: false, count: count)))
        }

        /// Takes job `index` for the calling thread; false when another has it.
        func claim(_ index: Int) -> Bool {
            state.withLock { state in
                defer { state.claimed[index] = true }
                return !state.claimed[index]
            }
        }

        func set(_ index: Int, _ text: [UInt8]) {
            state.withLock { state in
                if state.texts[index] == nil { state.texts[index] = text }
            }
        }

        func isFinished(_ index: Int) -> Bool { state.withLock { $0.texts[index] != nil } }

        var unfinished: Int { state.withLock { $0.texts.count { $0 == nil } } }

        var texts: [[UInt8]] { state.withLock { $0.texts.map { $0 ?? [] } } }
    }
}
