import BackgroundWork
import Dispatch
import Foundation
import Synchronization
import TouchTracker

/// Saves the drawing on a thread of its own, so the event loop never waits for the disk: the one owner of
/// background saving.
///
/// The event loop hands over a snapshot after every edit (`submit`, constant time) and goes on. The writer saves
/// the newest snapshot it has, crash-safely (`DocumentStore.save`: temporary file, fsync, rename, folder fsync);
/// snapshots submitted while a save runs are coalesced, so only the newest is written next and an older one is
/// never written after a newer one. A save that fails (a full disk, say) keeps the snapshot and is tried again at
/// the next submit and by itself with back-off (0.5 s doubling to 30 s). `flush` waits until everything submitted
/// is on disk, or has failed once more: the app calls it on every way out.
public final class DocumentWriter: Sendable {
    /// What the writer has done, for the window to show.
    public struct Status: Sendable, Equatable {
        /// Saves that reached the disk.
        public var savesCompleted = 0
        /// The last save's failure in one line, while the drawing on screen is not saved; nil once a save succeeds.
        public var failure: String?
        /// The same failure's reason alone, without the path ("the disk is full"), for the window's notice.
        public var failureReason: String?
        /// Whether something submitted is not on disk yet.
        public var hasUnsavedChanges = false
    }

    private struct State {
        /// The unseen version the last save found in the document's place, to tell one at rest from one still
        /// being written.
        var lastUnseen: FileIdentity?
        var pending: DrawingSnapshot?
        /// Numbers each submit; `saved` is the newest one on disk, `attempted` the newest one tried.
        var submitted = 0
        var saved = 0
        var attempted = 0
        var lastAttemptFailed = false
        /// Saves begun so far, and the number of the last one that ended, so `flush` can wait for one begun after
        /// it was called (one under way then may have checked the document before an `acknowledge`).
        var attemptsBegun = 0
        var lastAttemptEnded = 0
        var status = Status()
        var failedAttempts = 0
        var retryDelay = DocumentWriter.firstRetryDelay
        var stopping = false
        /// The versions of the file this app has seen (the last few it wrote, and what it read or adopted): any
        /// other version found in the document's place was put there by another program.
        var knownVersions: [FileIdentity] = []
        /// Whether a save may replace only a version in `knownVersions` (see `guardsOutsideChanges`).
        var guardsOutsideChanges = false
        /// A version the app has looked at but must not replace yet, and why (see `holdBack`).
        var heldBack: (version: FileIdentity, problem: String)?
    }

    /// How many of the app's own versions are remembered: enough for every save a burst of edits makes before
    /// the watcher reports it.
    static let knownVersionLimit = 64

    static let firstRetryDelay = 0.5
    static let longestRetryDelay = 30.0

    public let store: DocumentStore
    private let state = Mutex(State())
    /// Counts reasons to look at the state (a submit, a flush, a stop).
    private let work = DispatchSemaphore(value: 0)
    /// Signalled after every attempt, for `flush`.
    private let attempted = DispatchSemaphore(value: 0)
    private let log: @Sendable (String) -> Void
    private let identityOf: @Sendable (String) -> FileIdentity?
    /// The save's encoding helpers, stopped with the writer.
    private let encoding = ParallelEncoding()
    private let onStatusChange: @Sendable (Status) -> Void
    /// Called (on the writer's thread) when a save found a version of the document the app has not seen.
    private let onUnseenVersion: @Sendable () -> Void
    /// Signalled once the writer's loop has ended (the save in hand done), for `stop`.
    private let loopEnded = DispatchSemaphore(value: 0)

    /// Starts the writer thread for `store`. `log` gets one line per new kind of failure and one when saving works
    /// again; `onStatusChange` is called on the writer's thread whenever `status` changes. The thread holds the
    /// writer until `stop`: a writer is never dropped with a save half done.
    ///
    /// `identityOf` looks at the file in the document's place before each save replaces it (`FileIdentity.of`;
    /// tests put a file system that hangs there). `onUnseenVersion` is told when a save finds a version the app
    /// has not seen, so the caller can have it read even if no watch reported it (a write through a hard link).
    public init(
        store: DocumentStore, log: @escaping @Sendable (String) -> Void = { _ in },
        onStatusChange: @escaping @Sendable (Status) -> Void = { _ in },
        onUnseenVersion: @escaping @Sendable () -> Void = {},
        identityOf: @escaping @Sendable (String) -> FileIdentity? = FileIdentity.of(path:)
    ) {
        self.store = store
        self.log = log
        self.identityOf = identityOf
        self.onStatusChange = onStatusChange
        self.onUnseenVersion = onUnseenVersion
        Worker.run("document writer") { [self] in writeUntilStopped() }
    }

    public var status: Status { state.withLock { $0.status } }

    /// From now on a save never replaces a version of the document the app has not seen (written itself, or told
    /// of with `acknowledge`): such a save fails ("changed on disk by another program") and is retried, until the
    /// app has read that version and acknowledged it. `current` is the version on disk now, which the app has
    /// read (nil: there is no document yet). Only for an app that watches its document, or saves would stop.
    public func guardOutsideChanges(current: FileIdentity?) {
        state.withLock { state in
            state.guardsOutsideChanges = true
            if let current { Self.remember(current, in: &state) }
        }
    }

    /// Ends `guardOutsideChanges` (the document is no longer watched: its folder went away), so saves go on.
    public func stopGuardingOutsideChanges() {
        state.withLock { $0.guardsOutsideChanges = false }
        work.signal()
    }

    /// Tells the writer the app has seen this version of the document (read it to show it, or found it
    /// unreadable and kept a copy), so a save may replace it. Tries a held save again at once.
    public func acknowledge(_ version: FileIdentity) {
        state.withLock { state in
            Self.remember(version, in: &state)
            if state.heldBack?.version == version { state.heldBack = nil }
            state.retryDelay = Self.firstRetryDelay
        }
        work.signal()
    }

    /// Keeps saves from replacing `version`, which another program wrote and the app looked at but cannot keep a
    /// copy of yet (unreadable, and the copy aside failed): a held save reports `problem` instead of
    /// `changedOnDiskProblem`, until `acknowledge` (once the copy is made) or the next version. Returns false when
    /// `version` was held back already.
    @discardableResult
    public func holdBack(_ version: FileIdentity, because problem: String) -> Bool {
        state.withLock { state in
            defer { state.heldBack = (version, problem) }
            return state.heldBack?.version != version
        }
    }

    /// Whether `version` is one this writer wrote or was told of: not a change by another program.
    public func wroteVersion(_ version: FileIdentity) -> Bool {
        state.withLock { $0.knownVersions.contains(version) }
    }

    private static func remember(_ version: FileIdentity, in state: inout State) {
        guard !state.knownVersions.contains(version) else { return }
        state.knownVersions.append(version)
        if state.knownVersions.count > knownVersionLimit { state.knownVersions.removeFirst() }
    }

    /// The problem a save reports when the document was changed by another program since the app last saw it.
    public static let changedOnDiskProblem = "changed on disk by another program; reading it first"

    /// Hands over the drawing as it is now; returns at once.
    public func submit(_ snapshot: DrawingSnapshot) {
        state.withLock { state in
            state.pending = snapshot
            state.submitted += 1
            state.status.hasUnsavedChanges = true
            // A new edit is a reason to try again now, whatever the back-off said.
            state.retryDelay = Self.firstRetryDelay
        }
        work.signal()
    }

    /// Waits until everything submitted so far is on disk, or its save failed once more (tried again now if it
    /// was waiting to retry). Returns the failure, nil when the drawing is saved.
    @discardableResult
    public func flush() -> String? {
        let (target, attemptsBefore) = state.withLock { ($0.submitted, $0.attemptsBegun) }
        work.signal()
        while true {
            let outcome: String?? = state.withLock { state in
                if state.saved >= target { return .some(nil) }
                if state.lastAttemptEnded > attemptsBefore, state.attempted >= target, state.lastAttemptFailed {
                    return .some(state.status.failure)
                }
                return .none
            }
            if let outcome { return outcome }
            attempted.wait()
        }
    }

    /// Stops the thread, and returns once the save in hand is done (call `flush` first to keep what is pending): no
    /// save lands after the writer's owner has moved on (removed the folder, say).
    ///
    /// It does not wait for the save's encoding helpers, which run at idle priority and may be starved by a busy
    /// machine: they are told to stop and end on their own, writing nothing.
    public func stop() {
        state.withLock { $0.stopping = true }
        work.signal()
        loopEnded.wait()
        loopEnded.signal()
    }

    private func writeUntilStopped() {
        while true {
            let delay = state.withLock { $0.status.failure == nil ? nil : $0.retryDelay }
            if let delay {
                _ = work.wait(timeout: .now() + delay)
            } else {
                work.wait()
            }
            let next: (snapshot: DrawingSnapshot, number: Int)?? = state.withLock { state in
                if state.stopping { return .none }
                guard let pending = state.pending else { return .some(nil) }
                return .some((pending, state.submitted))
            }
            guard let next else {
                loopEnded.signal()
                // Stopped: the save's helpers go with the writer.
                encoding.stop()
                return
            }
            guard let (snapshot, number) = next else { continue }
            save(snapshot, number: number)
            attempted.signal()
        }
    }

    private func save(_ snapshot: DrawingSnapshot, number: Int) {
        let attempt = state.withLock { state in
            state.attemptsBegun += 1
            return state.attemptsBegun
        }
        var failure: String?
        var reason: String?
        var unseenAtRest = false
        do {
            // Checked when the new file is ready, just before it takes the document's place, so another program's
            // version is not replaced unseen; the new version is remembered before anyone can see it at the path.
            // The file is looked at outside the lock, which the event loop takes at every edit: a file system that
            // hangs (a stalled network mount) holds up this thread, never the window.
            try store.save(DocumentContent(snapshot), encoding: encoding) {
                (version: FileIdentity) throws(DocumentFileError) in
                let guarded = state.withLock { $0.guardsOutsideChanges }
                let current = guarded ? identityOf(store.path) : nil
                try state.withLock { (state: inout State) throws(DocumentFileError) in
                    if state.guardsOutsideChanges, let current, !state.knownVersions.contains(current) {
                        // The same unseen version at two saves in a row is at rest (a copy still being written
                        // changes size and time between them): only then is it worth reading.
                        unseenAtRest = state.lastUnseen == current
                        state.lastUnseen = current
                        let held = state.heldBack.flatMap { $0.version == current ? $0.problem : nil }
                        throw DocumentFileError(path: store.path, problem: held ?? Self.changedOnDiskProblem)
                    }
                    Self.remember(version, in: &state)
                }
            }
        } catch {
            failure = error.description
            reason = error.problem
            if reason == Self.changedOnDiskProblem, unseenAtRest { onUnseenVersion() }
        }
        let (status, message) = state.withLock { state -> (Status, String?) in
            state.attempted = max(state.attempted, number)
            state.lastAttemptEnded = attempt
            state.lastAttemptFailed = failure != nil
            var message: String?
            if let failure {
                if state.status.failure != failure {
                    message = "cannot save the drawing: \(failure); will retry"
                }
                state.status.failure = failure
                state.status.failureReason = reason
                state.failedAttempts += 1
                state.retryDelay = min(Self.longestRetryDelay, state.retryDelay * 2)
            } else {
                state.saved = max(state.saved, number)
                state.status.savesCompleted += 1
                if state.failedAttempts > 0 {
                    message = "saved \(PathText.shown(store.path)) after \(state.failedAttempts) failed attempt(s)"
                }
                state.status.failure = nil
                state.status.failureReason = nil
                state.failedAttempts = 0
                state.retryDelay = Self.firstRetryDelay
                // Nothing newer came in meanwhile: nothing left to write.
                if state.submitted == number { state.pending = nil }
            }
            state.status.hasUnsavedChanges = state.saved < state.submitted
            return (state.status, message)
        }
        if let message { log(message) }
        onStatusChange(status)
    }
}
