import Dispatch
import Foundation
import Synchronization

/// The one shape of background work: a named thread (named for the kernel too, `ThreadName`), at a priority below the event loop's, that runs the jobs
/// handed to it one at a time, in order, from its mailbox, tells the loop after each (`wakeUp`), and stops when
/// asked. Every thread the app makes is one of these (the test harness's child-process readers aside): tile
/// painters, the document's writer, watcher and reader, the save's encoding helpers, exports, clipboard encodings,
/// paste decoding and large pastes.
///
/// A job may also be a long-running loop (the writer's, the watcher's, a tile painter's), which returns when its
/// owner tells it to: the worker then stops once it has, and `stop` waits for that.
public final class Worker: Sendable {
    /// How much of the processor the worker may take from the event loop.
    public enum Priority: Sendable {
        /// Niceness 10 (`BackgroundPriority.lowerForThisThread`): about a tenth of the loop's share when both run.
        case background
        /// SCHED_IDLE (`BackgroundPriority.idleForThisThread`): only a processor nothing else wants.
        case idle
        /// The process's own priority, for a thread that must answer at once while the others are busy (the one
        /// that waits for Ctrl+C in a command that writes files: starved, it would answer only once the work is done).
        case prompt
    }

    /// What the thread and the worker share: the thread holds this, not the worker, so a worker let go of is
    /// finished (its thread ends once the jobs in hand are done) rather than kept alive by its own thread.
    private final class Mailbox: Sendable {
        struct Contents {
            var jobs: [@Sendable () -> Void] = []
            var stopping = false
        }

        let contents = Mutex(Contents())
        /// One signal per job, and one to stop.
        let arrived = DispatchSemaphore(value: 0)
        let ended = DispatchSemaphore(value: 0)

        /// The thread's loop: each job in turn, `wakeUp` after each, until stopping with none left.
        func serve(wakeUp: @Sendable () -> Void) {
            while true {
                arrived.wait()
                let next: (@Sendable () -> Void)? = contents.withLock { $0.jobs.isEmpty ? nil : $0.jobs.removeFirst() }
                if let next {
                    next()
                    wakeUp()
                } else if contents.withLock({ $0.stopping }) {
                    break
                }
            }
            ended.signal()
        }

        /// Marks the mailbox closed; true the first time.
        func close() -> Bool {
            let first = contents.withLock { contents in
                defer { contents.stopping = true }
                return !contents.stopping
            }
            if first { arrived.signal() }
            return first
        }
    }

    public let name: String
    private let mailbox = Mailbox()

    /// Starts the thread. `wakeUp` is called after each job (to wake the event loop for its result).
    public init(name: String, priority: Priority = .background, wakeUp: @escaping @Sendable () -> Void = {}) {
        self.name = name
        let mailbox = mailbox
        let thread = Thread {
            ThreadName.setForThisThread(name)
            switch priority {
            case .background: BackgroundPriority.lowerForThisThread()
            case .idle: BackgroundPriority.idleForThisThread()
            case .prompt: break
            }
            mailbox.serve(wakeUp: wakeUp)
        }
        thread.name = name
        thread.start()
    }

    deinit {
        _ = mailbox.close()
    }

    /// A worker that runs `job` and then stops (the thread ends after it).
    @discardableResult
    public static func run(
        _ name: String, priority: Priority = .background, wakeUp: @escaping @Sendable () -> Void = {},
        _ job: @escaping @Sendable () -> Void
    ) -> Worker {
        let worker = Worker(name: name, priority: priority, wakeUp: wakeUp)
        worker.submit(job)
        worker.finish()
        return worker
    }

    /// Hands `job` over; returns at once. A job handed over after `stop` or `finish` is dropped.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        let taken = mailbox.contents.withLock { contents in
            guard !contents.stopping else { return false }
            contents.jobs.append(job)
            return true
        }
        if taken { mailbox.arrived.signal() }
    }

    /// Lets the thread end once the jobs in hand are done; returns at once.
    public func finish() {
        _ = mailbox.close()
    }

    /// Drops the jobs not started, and returns once the thread has ended (the job in hand finished: a long-running
    /// one must have been told to return first). Idempotent.
    public func stop() {
        mailbox.contents.withLock { $0.jobs.removeAll() }
        finishAndWait()
    }

    /// Lets the thread end once every job handed over is done, and returns then.
    public func finishAndWait() {
        _ = mailbox.close()
        mailbox.ended.wait()
        mailbox.ended.signal()
    }
}
