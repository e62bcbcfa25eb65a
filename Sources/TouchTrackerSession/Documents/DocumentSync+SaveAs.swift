import BackgroundWork
import Glibc
import TouchTracker
import TouchTrackerStore

/// Save As (DESIGN.md §3g): the drawing written under a new name, and the window's saving, watch and lock moved
/// there, all off the loop.
extension DocumentSync {
    /// How a Save As ended.
    public enum SaveAsOutcome: Sendable, Equatable {
        /// Saved at this path, which every later save goes to.
        case saved(path: String)
        /// Not saved: one line saying why (the file is open in another window, the disk is full, …).
        case refused(String)
    }

    /// Saves `snapshot` at `path` and moves the window's saving there, on a worker; `done` gets the outcome there.
    ///
    /// The order keeps every version somewhere: the new file's lock is taken first (a drawing another window has
    /// open is refused, naming its process, as the lock file says); `path` is written the one way files are (a new
    /// writer's first save, which follows a link and keeps a pipe a pipe); only then do edits go to the new writer.
    /// The old writer finishes what it had, the old watch stops and the old lock goes; an untitled drawing's old
    /// file (`removingOld`) is removed last, once the new file holds the drawing. `replacing` false: a file already
    /// at `path` is refused (a name the app completed with `.touchtracker`, which the dialog did not ask about).
    /// The caller hands the drawing as it is then to `controller.onEdit` once `done` says it is saved, for edits
    /// made meanwhile.
    public func saveAs(
        _ snapshot: DrawingSnapshot, to path: String, replacing: Bool, removingOld: Bool, session: DrawingSession,
        done: @escaping @Sendable (SaveAsOutcome) -> Void
    ) {
        let (mailbox, wakeUp) = (session.diskChanges, session.wakeUp)
        Worker.run("save as") { [self] in
            done(
                moveSaving(
                    snapshot, to: path, replacing: replacing, removingOld: removingOld, mailbox: mailbox,
                    wakeUp: wakeUp))
        }
    }

    private func moveSaving(
        _ snapshot: DrawingSnapshot, to path: String, replacing: Bool, removingOld: Bool, mailbox: DiskChangeMailbox,
        wakeUp: @escaping @Sendable () -> Void
    ) -> SaveAsOutcome {
        let shown = PathText.shown(path)
        let oldPath = documentPath
        guard DocumentLock.canonicalPath(of: path) != DocumentLock.canonicalPath(of: oldPath) else {
            // The drawing's own name: a save like any other.
            writer.withLock { $0 }?.submit(snapshot)
            return .saved(path: oldPath)
        }
        let acquired: DocumentLock
        do {
            switch try DocumentLock.acquire(for: path) {
            case .acquired(let lock): acquired = lock
            case .heldBy(let owner):
                return .refused("\(shown) is open in another window (process \(owner.pid)); close it there first")
            }
        } catch {
            return .refused("cannot lock \(shown): \(error.problem)")
        }
        if !replacing, identityOf(path) != nil {
            acquired.release()
            return .refused("\(shown) exists already; choose it in the dialog to replace it")
        }
        let newWriter = DocumentWriter(
            store: DocumentStore(path: path), log: log, onStatusChange: { _ in wakeUp() },
            onUnseenVersion: { [weak self] in self?.watching.withLock { $0.watcher }?.lookNow() },
            identityOf: identityOf)
        newWriter.submit(snapshot)
        if let failure = newWriter.flush() {
            newWriter.stop()
            acquired.release()
            return .refused("cannot save \(shown): \(failure)")
        }
        // A window closed meanwhile has made its last save where it was: the new file stays as written, unowned.
        if watching.withLock({ $0.closed }) {
            newWriter.stop()
            acquired.release()
            return .refused("the window closed before \(shown) was taken over")
        }
        // From here on every edit goes to the new file.
        let oldWriter = writer.withLock { current in
            defer { current = newWriter }
            return current
        }
        currentPath.withLock { $0 = path }
        let oldWatcher = watching.withLock { state in
            defer { state.watcher = nil }
            return state.watcher
        }
        oldWatcher?.stop()
        oldWriter?.flush()
        oldWriter?.stop()
        lock.replace(with: acquired)
        if removingOld {
            if PathText.withCString(oldPath, { unlink($0) }) != 0, errno != ENOENT {
                let reason = String(cString: strerror(errno))
                log("saved as \(shown), but cannot remove the untitled drawing \(PathText.shown(oldPath)): \(reason)")
            }
        }
        // Guarded: a version another program writes there from now on is shown before a save replaces it.
        newWriter.guardOutsideChanges(current: nil)
        keepWatching(newWriter.store, lockPath: path, writer: newWriter, mailbox: mailbox)
        saveAsRecentFiles?.recordInBackground(path, log: log)
        if verbose { log("saved as \(shown); saving there from now on") }
        return .saved(path: path)
    }
}
