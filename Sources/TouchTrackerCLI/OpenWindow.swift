import ArgumentParser
import Foundation
import Synchronization
import TouchTracker
import TouchTrackerStore
import TouchTrackerX11

/// `touchtracker [open] [--document PATH] [--geometry WxH+X+Y]`: the drawing window.
struct OpenWindow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the drawing window (the default when no subcommand is given)."
    )

    @Option(
        help: ArgumentHelp(
            "The drawing to open and autosave after every edit.",
            discussion: """
                Default: $XDG_DATA_HOME/touchtracker/drawing.json (~/.local/share/touchtracker/drawing.json). \
                One window per document: a second touchtracker on it brings the first window forward and exits. \
                Changes other programs make to it are shown (Ctrl+Z undoes them); a drawing that cannot be saved \
                when the window closes is kept in $XDG_STATE_HOME/touchtracker/.
                """,
            valueName: "path"))
    var document: String?

    @Option(
        help: ArgumentHelp(
            "Window size and position, as X11 writes it.",
            discussion: "Default: where the window was when it last closed (kept next to the document), or 800x600.",
            valueName: "WxH+X+Y"))
    var geometry: String?

    @Option(
        help: ArgumentHelp(
            "Scale line width, hit radius, gesture distances and menu text (0.5 to 8).",
            discussion: "Default: the X resource Xft.dpi divided by 96, or 1 when it is not set.",
            valueName: "factor"))
    var scale: Double?

    @Option(help: ArgumentHelp("The X display to use instead of $DISPLAY.", valueName: "name"))
    var display: String?

    @Flag(help: "Print the input devices and mode in use, and window life-cycle events, on stderr.")
    var verbose = false

    @Flag(
        help: ArgumentHelp(
            "Print a line with the monotonic time after every frame is presented, on stderr.",
            discussion: "For latency measurements (touchtracker-bench)."))
    var traceFrames = false

    @Option(
        help: ArgumentHelp(
            "Threads that paint the complete lines' tiles in the background (1 to 64).",
            discussion:
                "Default: one per processor. For measurements (touchtracker-bench compares 1 with the default).",
            valueName: "count"))
    var painterThreads: Int?

    func validate() throws {
        if let painterThreads, !(1...64).contains(painterThreads) {
            throw ValidationError("--painter-threads \(painterThreads) is not between 1 and 64")
        }
        if let geometry { try CanvasSize.validateGeometry(geometry, option: "--geometry") }
        if let scale, !(0.5...8).contains(scale) {
            throw ValidationError("--scale \(scale) is not between 0.5 and 8")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        // The window speaks the user's language; what goes to stderr and files stays English.
        Localization.setUp(environment: environment)
        let requested = DocumentStore(path: document ?? DocumentLocation.defaultPath(environment: environment))
        let memory = WindowMemory(documentPath: requested.path)
        var options = X11AppOptions(
            displayName: display,
            geometry: geometry.flatMap(WindowGeometry.init(parsing:)) ?? memory.load() ?? .default,
            verbose: verbose, scale: scale,
            exportPath: WindowMemory.sibling(of: requested.path, replacingExtensionWith: "png"))
        options.traceFrames = traceFrames
        options.painterThreads = painterThreads
        // One window per document: a second one asks the first to come forward and exits.
        let lock = HeldLock()
        do {
            switch try DocumentLock.acquire(for: requested.path) {
            case .acquired(let acquired):
                lock.hold(acquired)
            case .heldBy(let owner):
                try Self.bringForward(owner, documentPath: requested.path, displayName: display, environment)
                throw ExitCode(0)
            }
        } catch let error as DocumentFileError {
            // Without a lock the window still opens (a read-only folder, say): saving will say what is wrong.
            Diagnostics.error("cannot lock the drawing (another window could open it too): \(error)")
        }
        defer { lock.release() }
        // The document is read on another thread while the window opens. An unreadable one is kept safe, and the
        // store to save to may then be a recovery file next to it (DocumentLoading): known once it is read.
        let opened = OpenedDocumentBox()
        let app: X11App
        do {
            app = try X11App(
                options: options,
                loadDocument: {
                    let document = DocumentLoading.loadForEditing(requested)
                    opened.set(document)
                    return document.drawing
                }, environment: environment, log: Diagnostics.note)
        } catch let error as X11Error {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
        lock.setWindow(app.windowID)
        app.documentName = PathText.shown(PathText.name(of: requested.path))
        // Saving happens on the writer's thread: the event loop only hands it a snapshot after each edit, and every
        // way out (SIGTERM, closing the window, losing the X server) waits for the last one to reach the disk.
        // Nothing is saved before the document is read, so a drawing not yet shown is never written over.
        // While a save fails the window says so, until one succeeds; an exit that cannot save keeps the drawing in a
        // recovery file (RecoveryFile) and says where.
        let recovery = RecoveryFile(documentPath: requested.path, environment: environment)
        // Another program's changes to the document are read (off the loop) and put on screen as an edit.
        var watcher: DocumentWatcher?
        defer { watcher?.stop() }
        app.onDocumentLoaded = { [unowned app] in
            let writer = DocumentWriter(
                store: opened.store ?? requested, log: { Diagnostics.error($0) },
                onStatusChange: { [wakeUp = app.wakeUp] _ in wakeUp() })
            app.controller.onEdit = { writer.submit($0) }
            watcher = Self.watch(
                opened.store ?? requested, version: opened.version, writer: writer, mailbox: app.diskChanges,
                onRewatch: { [verbose] in
                    if verbose { Diagnostics.note("the drawing's folder is back; watching it again") }
                    lock.takeAgain(for: requested.path)
                })
            app.standingNotice = { writer.status.failureReason.map { .notSaved(reason: $0) } }
            app.finishSaving = { [unowned app] in
                guard let failure = writer.flush() else { return true }
                Diagnostics.error("the drawing could not be saved: \(failure)")
                do {
                    let path = Diagnostics.shown(
                        try recovery.write(
                            app.controller.drawingView.drawing, stamp: DocumentLoading.timeStamp(),
                            log: { Diagnostics.error($0) }))
                    Diagnostics.error("the drawing was kept in \(path); open it with: touchtracker --document \(path)")
                } catch {
                    Diagnostics.error("cannot keep the drawing in a recovery file either: \(error)")
                }
                return false
            }
        }
        if let kept = recovery.newest().map(Diagnostics.shown) {
            Diagnostics.error(
                "an unsaved copy of this drawing was kept in \(kept); open it with: touchtracker --document \(kept)")
            app.controller.showNotice(.unsavedCopyKept(in: Self.abbreviatingHome(kept, environment)), for: 10)
        }
        let status = app.run()
        do {
            try memory.save(app.windowGeometry)
        } catch {
            Diagnostics.error("cannot remember the window's place: \(error)")
        }
        throw ExitCode(status)
    }
}

extension OpenWindow {
    /// Says which window has the drawing and asks it to come forward.
    static func bringForward(
        _ owner: DocumentLock.Owner, documentPath: String, displayName: String?, _ environment: [String: String]
    ) throws {
        guard let window = owner.window else {
            Diagnostics.note(
                "the drawing \(Diagnostics.shown(documentPath)) is already open (process \(owner.pid)), its window is "
                    + "not up yet")
            return
        }
        let hex = "0x" + String(window, radix: 16)
        do {
            try WindowActivation.activate(window: window, displayName: displayName, environment: environment)
        } catch {
            Diagnostics.error("cannot bring window \(hex) forward: \(error)")
        }
        Diagnostics.note(
            "the drawing \(Diagnostics.shown(documentPath)) is already open in window \(hex) (process \(owner.pid))")
    }

    /// Watches the document `store` saves to, and from then on keeps `writer` from saving over a version of it the
    /// window has not shown (`version` is the one it read). A version that is not one of `writer`'s own saves is
    /// read on the watcher's thread and posted to the window; once it is on screen (and submitted) the writer may
    /// replace it. An unreadable one is copied aside first (`NAME.corrupt-…`), so whatever the other program wrote
    /// is kept; until a copy can be made (a full disk, say) it is not replaced, and the copy is tried again every
    /// `copyRetryInterval` seconds. Nil (the window then does not follow outside changes, and saves as before) when
    /// inotify cannot be set up; said once on stderr.
    ///
    /// The guard stays while the document's folder is gone (deleted or renamed): a save then makes the folder
    /// again, the watcher watches it once it is back (`onRewatch` runs then: the lock is taken again) and looks, so
    /// a version another program put there meanwhile is still shown before anything replaces it.
    static func watch(
        _ store: DocumentStore, version: FileIdentity?, writer: DocumentWriter, mailbox: DiskChangeMailbox,
        onRewatch: @escaping @Sendable () -> Void
    ) -> DocumentWatcher? {
        // Guarded before the watch starts, so its first look (below) already knows the version read.
        writer.guardOutsideChanges(current: version)
        do {
            // A first look once it watches: a version written between the read and the watch sends no event.
            return try DocumentWatcher(documentPath: store.path, reportAtStart: true, onRewatch: onRewatch) {
                // Gone: written again at the next edit. One of our own saves (or the version shown): nothing to
                // adopt.
                guard let version = FileIdentity.of(path: store.path), !writer.wroteVersion(version) else {
                    return .done
                }
                let problem: String
                do {
                    // The version acknowledged is the one read, should it have changed again since the look above
                    // (gone since: nothing to adopt, as above).
                    let (drawing, read) = try store.loadVersion()
                    guard let read else { return .done }
                    mailbox.post(.readable(LoadedDocument(drawing), adopted: { writer.acknowledge(read) }))
                    return .done
                } catch {
                    problem = "\(error)"
                }
                let stamp = DocumentLoading.timeStamp()
                do throws(DocumentFileError) {
                    let copy = try store.copyAside(stamp: stamp)
                    writer.acknowledge(version)
                    mailbox.post(.unreadable(problem: "\(problem); a copy of it is kept as \(PathText.shown(copy))"))
                    return .done
                } catch {
                    // What the other program wrote may be all there is of it: it is replaced only once copied.
                    // Said once a version: a retry that fails again finds it held back already.
                    if writer.holdBack(version, because: unreadableKeptProblem) {
                        let kept = "so it is kept as it is and not saved over until a copy of it can be made"
                        mailbox.post(.unreadable(problem: "\(problem); \(error.problem), \(kept)"))
                    }
                    return .again(after: copyRetryInterval)
                }
            }
        } catch {
            Diagnostics.error("cannot watch \(Diagnostics.shown(store.path)) for changes by other programs: \(error)")
            writer.stopGuardingOutsideChanges()
            return nil
        }
    }

    /// How often an unreadable version another program wrote is tried again to be copied aside while it cannot be.
    static let copyRetryInterval = 2.0

    /// Why the drawing is not saved while such a version waits for its copy (the window's "Not saved" notice).
    static let unreadableKeptProblem = "another program's unreadable version is kept until it can be copied aside"

    /// `path` with the home folder written `~`, for a notice that must fit in the window.
    static func abbreviatingHome(_ path: String, _ environment: [String: String]) -> String {
        guard let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }
}

/// The opened document's store and the version of it that was read, handed from the thread that reads it to the
/// event loop.
final class OpenedDocumentBox: Sendable {
    private let opened = Mutex<(store: DocumentStore, version: FileIdentity?)?>(nil)

    func set(_ document: OpenedDocument) { opened.withLock { $0 = (document.store, document.version) } }

    var store: DocumentStore? { opened.withLock { $0?.store } }
    var version: FileIdentity? { opened.withLock { $0?.version } }
}

/// The document's lock while the window has it. Taken again when the document's folder comes back after it went
/// away (the lock file went with it), from the watcher's thread; released once at exit.
final class HeldLock: Sendable {
    private let lock = Mutex<DocumentLock?>(nil)
    /// The window to record in a lock taken again.
    private let window = Mutex<UInt?>(nil)

    func hold(_ acquired: DocumentLock) { lock.withLock { $0 = acquired } }

    func setWindow(_ id: UInt) {
        window.withLock { $0 = id }
        lock.withLock { $0?.setWindow(id) }
    }

    /// Takes the lock again after the folder was gone; says so on stderr when another window took it meanwhile.
    func takeAgain(for documentPath: String) {
        lock.withLock { held in
            held?.release()
            held = nil
            do {
                switch try DocumentLock.acquire(for: documentPath) {
                case .acquired(let acquired):
                    if let id = window.withLock({ $0 }) { acquired.setWindow(id) }
                    held = acquired
                case .heldBy(let owner):
                    Diagnostics.error(
                        "the drawing's folder came back and process \(owner.pid) has locked the drawing meanwhile; "
                            + "close one of the two windows")
                }
            } catch {
                Diagnostics.error("cannot lock the drawing again after its folder came back: \(error)")
            }
        }
    }

    func release() { lock.withLock { $0?.release() } }
}
