import BackgroundWork
import Foundation
import Synchronization
import TouchTracker
import TouchTrackerStore

/// Keeps a drawing session and its document in step, whatever the window system (DESIGN.md §3b): one window per
/// document (`DocumentLock`), the document read off the loop and kept safe when it cannot be (`DocumentStore
/// .openForEditing`), every edit saved on the writer's thread (`DocumentWriter`), another program's changes read
/// and shown (`DocumentWatcher`), and an exit that cannot save kept in a recovery file (`RecoveryFile`).
///
/// Nothing is saved before the document is read, so a drawing not yet shown is never written over. While a save
/// fails the window says so, until one succeeds.
public final class DocumentSync: Sendable {
    /// What taking the document's lock found.
    public enum LockOutcome {
        /// This window has the document (or no lock could be taken, which was said on stderr: the window opens
        /// anyway, and saving will say what is wrong).
        case open
        /// Another window has it.
        case heldBy(DocumentLock.Owner)
    }

    /// The document as the person named it.
    public let requested: DocumentStore
    let environment: [String: String]
    let verbose: Bool
    let log: @Sendable (String) -> Void
    let lock = HeldLock()
    private let opened = OpenedDocumentBox()
    /// The watcher once made, whether the sync closed meanwhile (a watcher made after that is stopped at once), and
    /// which `keepWatching` may keep its watcher (the latest: a Save As starts a new one).
    let watching = Mutex<(watcher: DocumentWatcher?, closed: Bool, generation: Int)>((nil, false, 0))
    /// The writer of the file the window saves to now (another after a Save As).
    let writer = Mutex<DocumentWriter?>(nil)
    /// The drawing's path now: the one named at the start, until a Save As names another.
    let currentPath: Mutex<String>
    let identityOf: @Sendable (String) -> FileIdentity?
    let startWatch: StartWatch
    /// How long after a watch could not be set up it is tried again.
    private let watchRetryInterval: Double
    /// Where the drawing is recorded once read, for the desktop's recent files; nil: not recorded (the app's own
    /// untitled drawing in its data folder).
    let recentFiles: RecentFiles?
    /// Where a Save As records the drawing's new name (the untitled drawing's window too).
    let saveAsRecentFiles: RecentFiles?
    /// Signalled by `close`: a watch tried again no more.
    private let closedSignal = DispatchSemaphore(value: 0)

    /// Makes the document's watcher: `DocumentWatcher.init` (tests make its first tries fail, since inotify's
    /// limits cannot be reached safely in a test).
    public typealias StartWatch =
        @Sendable (
            _ documentPath: String, _ onRewatch: @escaping @Sendable () -> Void,
            _ onChange: @escaping @Sendable () -> DocumentWatcher.Look
        ) throws(DocumentFileError) -> DocumentWatcher

    /// `log` gets every line for stderr (errors, and with `verbose` what happens). `identityOf` is how the writer
    /// looks at the document before a save replaces it (tests put a file system that hangs there). `recentFiles`
    /// records the drawing once read (unless `recordsOpening` is false: the untitled drawing) and after a Save As.
    public init(
        documentPath: String, environment: [String: String], verbose: Bool,
        log: @escaping @Sendable (String) -> Void,
        identityOf: @escaping @Sendable (String) -> FileIdentity? = FileIdentity.of(path:),
        startWatch: @escaping StartWatch = { path, onRewatch, onChange throws(DocumentFileError) in
            // A first look once it watches: a version written before the watch began sends no event.
            try DocumentWatcher(documentPath: path, reportAtStart: true, onRewatch: onRewatch, onChange: onChange)
        },
        watchRetryInterval: Double = 10, recentFiles: RecentFiles? = nil, recordsOpening: Bool = true
    ) {
        self.recentFiles = recordsOpening ? recentFiles : nil
        saveAsRecentFiles = recentFiles
        self.identityOf = identityOf
        self.startWatch = startWatch
        self.watchRetryInterval = watchRetryInterval
        requested = DocumentStore(path: documentPath)
        currentPath = Mutex(documentPath)
        self.environment = environment
        self.verbose = verbose
        self.log = log
    }

    /// The drawing's path now (another after a Save As).
    public var documentPath: String { currentPath.withLock { $0 } }

    /// Takes the document's lock, or says who holds it.
    public func takeLock() -> LockOutcome {
        do {
            switch try DocumentLock.acquire(for: requested.path) {
            case .acquired(let acquired):
                lock.hold(acquired)
            case .heldBy(let owner):
                return .heldBy(owner)
            }
        } catch {
            log("cannot lock the drawing (another window could open it too): \(error)")
        }
        return .open
    }

    /// Reads the document for the window (on the session's reading thread): an unreadable one is reported, kept
    /// safe, and the window starts empty; the store to save to may then be a recovery file next to it.
    public var loadDocument: @Sendable () -> Drawing {
        { [self] in
            let document = requested.openForEditing(stamp: Self.timeStamp())
            if let problem = document.problem { log(problem) }
            opened.set(document)
            // A drawing that is there and readable joins the desktop's recent files, on a worker of its own.
            if let recentFiles, document.problem == nil, identityOf(requested.path) != nil {
                recentFiles.recordInBackground(requested.path, log: log)
            }
            // Looked for here, off the loop: it reads folders, the shared temporary one among them.
            opened.keptCopy = RecoveryFile(documentPath: requested.path, environment: environment).newest()
            return document.drawing
        }
    }

    /// Hands saving to `session` (from when its document is read), records `window` in the lock for a second
    /// instance to bring forward, and says (once the document is read) when an unsaved copy of this document was
    /// kept by an earlier exit.
    public func attach(to session: DrawingSession, window: DocumentLock.Window?) {
        if let window { lock.setWindow(window) }
        session.documentName = PathText.shown(PathText.name(of: requested.path))
        session.onDocumentLoaded = { [unowned session, self] in
            let store = opened.store ?? requested
            if let kept = opened.keptCopy {
                log(
                    "an unsaved copy of this drawing was kept in \(PathText.shown(kept)); open it with: touchtracker "
                        + "--document \(PathText.shellQuoted(kept))")
                session.controller.showNotice(.unsavedCopyKept(in: abbreviatingHome(PathText.shown(kept))), for: 10)
            }
            let writer = DocumentWriter(
                store: store, log: log, onStatusChange: { [wakeUp = session.wakeUp] _ in wakeUp() },
                // A version no watch reported (written through a hard link elsewhere) is looked at, and so read and
                // shown, rather than holding every save back for good.
                onUnseenVersion: { [weak self] in self?.watching.withLock { $0.watcher }?.lookNow() },
                identityOf: identityOf)
            self.writer.withLock { $0 = writer }
            // Through the sync, not to this writer: a Save As hands the edits to the new file's writer.
            session.controller.onEdit = { [weak self] snapshot in self?.writer.withLock { $0 }?.submit(snapshot) }
            // Guarded at once, before any save, and before the watch starts, so its first look already knows the
            // version read.
            writer.guardOutsideChanges(current: opened.version)
            keepWatching(store, lockPath: requested.path, writer: writer, mailbox: session.diskChanges)
            session.standingNotice = { [weak self] in
                self?.writer.withLock { $0 }?.status.failureReason.map { .notSaved(reason: $0) }
            }
            session.finishSaving = { [unowned session, self] in
                guard let writer = self.writer.withLock({ $0 }) else { return true }
                // Edits were handed over as they were made. A document gone from its place (its folder renamed
                // away, say) is written there again as the window closes, as the next edit would have.
                if identityOf(writer.store.path) == nil { writer.submit(session.controller.drawingView.snapshot) }
                guard let failure = writer.flush() else { return true }
                keepInRecoveryFile(session.controller.drawingView.drawing, failure: failure)
                return false
            }
        }
    }

    /// Watches `store` for versions other programs write, on a worker: resolving the path and adding the watches
    /// touch the disk, which may hang. A watch that cannot be set up (inotify's limit of instances reached by other
    /// programs, say) is tried again now and then until the window closes, or until a Save As moves the drawing and
    /// watches its new file instead (a later call: only the latest one keeps its watcher).
    func keepWatching(_ store: DocumentStore, lockPath: String, writer: DocumentWriter, mailbox: DiskChangeMailbox) {
        let generation = watching.withLock { state in
            state.generation += 1
            return state.generation
        }
        Worker.run("document watch setup") { [self] in
            var made = watch(store, lockPath: lockPath, writer: writer, mailbox: mailbox, firstTry: true)
            while made == nil {
                guard closedSignal.wait(timeout: .now() + watchRetryInterval) == .timedOut else {
                    closedSignal.signal()
                    return
                }
                guard watching.withLock({ $0.generation == generation }) else { return }
                made = watch(store, lockPath: lockPath, writer: writer, mailbox: mailbox, firstTry: false)
            }
            let kept = watching.withLock { state in
                guard !state.closed, state.generation == generation else { return false }
                state.watcher = made
                return true
            }
            if !kept { made?.stop() }
        }
    }

    /// Stops watching and saving and gives the lock back (after the session has finished, which waited for the
    /// last save).
    public func close() {
        let watcher = watching.withLock { state in
            state.closed = true
            return state.watcher
        }
        closedSignal.signal()
        watcher?.stop()
        // Stopped outside the lock: the stop waits for the save in hand.
        writer.withLock { $0 }?.stop()
        lock.release()
    }

    /// An exit that could not save: the drawing goes to a recovery file, said on stderr.
    private func keepInRecoveryFile(_ drawing: Drawing, failure: String) {
        log("the drawing could not be saved: \(failure)")
        do {
            let recovery = RecoveryFile(documentPath: documentPath, environment: environment)
            let path = try recovery.write(drawing, stamp: Self.timeStamp(), log: log)
            log(
                "the drawing was kept in \(PathText.shown(path)); open it with: touchtracker --document "
                    + PathText.shellQuoted(path))
        } catch {
            log("cannot keep the drawing in a recovery file either: \(error)")
        }
    }

    /// Watches the document `store` saves to, and from then on keeps `writer` from saving over a version of it the
    /// window has not shown (the version read, first). A version that is not one of `writer`'s own saves is read on
    /// the watcher's thread and posted to the window; once it is on screen (and submitted) the writer may replace
    /// it. An unreadable one is copied aside first (`NAME.corrupt-…`), so whatever the other program wrote is kept;
    /// until a copy can be made (a full disk, say) it is not replaced, and the copy is tried again every
    /// `copyRetryInterval` seconds. Nil when inotify cannot be set up: said on stderr at
    /// the first try, after which the window saves unguarded until a later try (`firstTry` false) works and guards
    /// again.
    ///
    /// The guard stays while the document's folder is gone (deleted or renamed): a save then makes the folder
    /// again, the watcher watches it once it is back (the lock is taken again then) and looks, so a version another
    /// program put there meanwhile is still shown before anything replaces it.
    func watch(
        _ store: DocumentStore, lockPath: String, writer: DocumentWriter, mailbox: DiskChangeMailbox, firstTry: Bool
    ) -> DocumentWatcher? {
        let (log, verbose, lock) = (log, verbose, lock)
        do {
            let watcher = try startWatch(
                store.path,
                {
                    if verbose { log("the drawing's folder is back; watching it again") }
                    lock.takeAgain(for: lockPath, log: log)
                },
                { Self.look(at: store, writer: writer, mailbox: mailbox) })
            if !firstTry {
                // Guarded again: the watcher's first look shows whatever another program wrote meanwhile before
                // a save replaces it.
                writer.guardOutsideChanges(current: nil)
                log("watching \(PathText.shown(store.path)) for changes by other programs now")
            }
            return watcher
        } catch {
            if firstTry {
                log(
                    "cannot watch \(PathText.shown(store.path)) for changes by other programs: \(error); "
                        + "trying again every \(Int(watchRetryInterval)) s")
                writer.stopGuardingOutsideChanges()
            }
            return nil
        }
    }

    /// What the watcher does with a change: see `watch`.
    private static func look(at store: DocumentStore, writer: DocumentWriter, mailbox: DiskChangeMailbox)
        -> DocumentWatcher.Look
    {
        // Gone: written again at the next edit. One of our own saves (or the version shown): nothing to adopt.
        guard let version = FileIdentity.of(path: store.path), !writer.wroteVersion(version) else { return .done }
        let problem: String
        do {
            // The version acknowledged is the one read, should it have changed again since the look above (gone
            // since: nothing to adopt, as above).
            let (drawing, read) = try store.loadVersion()
            guard let read else { return .done }
            mailbox.post(
                .readable(
                    LoadedDocument(drawing, firstNumber: mailbox.firstNumberForReading),
                    adopted: { writer.acknowledge(read) }))
            return .done
        } catch {
            problem = "\(error)"
        }
        do throws(DocumentFileError) {
            let copy = try store.copyAside(stamp: timeStamp())
            writer.acknowledge(version)
            mailbox.post(
                .unreadable(problem: "\(problem); a copy of it is kept as \(PathText.shown(copy))", copied: true))
            return .done
        } catch {
            // What the other program wrote may be all there is of it: it is replaced only once copied. Said once a
            // version: a retry that fails again finds it held back already.
            if writer.holdBack(version, because: unreadableKeptProblem) {
                let kept = "so it is kept as it is and not saved over until a copy of it can be made"
                mailbox.post(.unreadable(problem: "\(problem); \(error.problem), \(kept)", copied: false))
            }
            return .again(after: copyRetryInterval)
        }
    }

    /// How often an unreadable version another program wrote is tried again to be copied aside while it cannot be.
    static let copyRetryInterval = 2.0

    /// Why the drawing is not saved while such a version waits for its copy (the window's "Not saved" notice).
    public static let unreadableKeptProblem =
        "another program's unreadable version is kept until it can be copied aside"

    /// `path` with the home folder written `~`, for a notice that must fit in the window.
    func abbreviatingHome(_ path: String) -> String {
        guard let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// Local time as `YYYYMMDD-HHMMSS`, for the names of kept copies.
    public static func timeStamp(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}

/// The opened document's store and the version of it that was read, handed from the thread that reads it to the
/// event loop.
final class OpenedDocumentBox: Sendable {
    private let opened = Mutex<(store: DocumentStore, version: FileIdentity?)?>(nil)
    private let kept = Mutex<String?>(nil)

    func set(_ document: OpenedDocument) { opened.withLock { $0 = (document.store, document.version) } }

    /// The newest unsaved copy an earlier exit kept, looked for while the document was read.
    var keptCopy: String? {
        get { kept.withLock { $0 } }
        set { kept.withLock { $0 = newValue } }
    }

    var store: DocumentStore? { opened.withLock { $0?.store } }
    var version: FileIdentity? { opened.withLock { $0?.version } }
}

/// The document's lock while the window has it. Taken again when the document's folder comes back after it went
/// away (the lock file went with it), from the watcher's thread; released once at exit.
final class HeldLock: Sendable {
    private let lock = Mutex<DocumentLock?>(nil)
    /// The window to record in a lock taken again.
    private let window = Mutex<DocumentLock.Window?>(nil)

    func hold(_ acquired: DocumentLock) { lock.withLock { $0 = acquired } }

    func setWindow(_ id: DocumentLock.Window) {
        window.withLock { $0 = id }
        lock.withLock { $0?.setWindow(id) }
    }

    /// Takes the lock again after the folder was gone; says so through `log` when another window took it meanwhile.
    func takeAgain(for documentPath: String, log: (String) -> Void) {
        lock.withLock { held in
            held?.release()
            held = nil
            do {
                switch try DocumentLock.acquire(for: documentPath) {
                case .acquired(let acquired):
                    if let id = window.withLock({ $0 }) { acquired.setWindow(id) }
                    held = acquired
                case .heldBy(let owner):
                    log(
                        "the drawing's folder came back and process \(owner.pid) has locked the drawing meanwhile; "
                            + "close one of the two windows")
                }
            } catch {
                log("cannot lock the drawing again after its folder came back: \(error)")
            }
        }
    }

    func release() { lock.withLock { $0?.release() } }

    /// Holds `acquired` (the lock of the file a Save As chose) in place of the lock held, which is released.
    func replace(with acquired: DocumentLock) {
        if let id = window.withLock({ $0 }) { acquired.setWindow(id) }
        let old = lock.withLock { held in
            defer { held = acquired }
            return held
        }
        old?.release()
    }
}
