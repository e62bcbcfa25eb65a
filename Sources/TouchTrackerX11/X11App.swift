import CX11
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore

/// How the window app was asked to run.
public struct X11AppOptions: Sendable {
    public var displayName: String?
    public var geometry: WindowGeometry
    public var verbose: Bool
    /// Device pixels per 96-dpi pixel; nil: `Xft.dpi` / 96, or 1 when the resource is unset.
    public var scale: Double?
    /// Where Ctrl+S writes a PNG of the drawing (nil: Ctrl+S does nothing).
    public var exportPath: String?
    /// Print `touchtracker: frame presented t=SECONDS size=WxH touches=N` (CLOCK_MONOTONIC; N touch events handled
    /// so far) on stderr after each frame, `touchtracker: document read t=SECONDS` when the document has been read
    /// and `touchtracker: tiles complete t=SECONDS` when the painters have caught up, for latency measurements.
    public var traceFrames = false
    /// Threads painting tiles of complete lines in the background; nil: one per processor.
    public var painterThreads: Int?

    public init(
        displayName: String? = nil, geometry: WindowGeometry = .default, verbose: Bool = false, scale: Double? = nil,
        exportPath: String? = nil
    ) {
        self.displayName = displayName
        self.geometry = geometry
        self.verbose = verbose
        self.scale = scale
        self.exportPath = exportPath
    }
}

/// The TouchTracker window: connects to X, translates input into TouchKit, and draws frames when something changed.
///
/// The loop follows st's: drain every queued X event, let due timers fire, draw one frame for the whole batch,
/// then sleep in `poll` on the X connection (and the signal pipe) until the next event or timer deadline.
public final class X11App {
    private let options: X11AppOptions
    private let host: X11WindowHost
    private var window: X11Window { host.window }
    /// Readiness, exposure and size changes, handled as the demo window handles them.
    private var windowEvents: WindowEvents
    private let renderer: DrawingRenderer
    public let controller: DrawingController
    /// Whether the tiles were complete at the last frame (for the `tiles complete` trace).
    private var tilesWereComplete = false
    /// Touch events handled so far, so a frame's trace says which input it includes.
    private var touchEventsHandled = 0
    private var running = true
    private let log: (String) -> Void
    /// Device pixels per 96-dpi pixel in effect.
    public let scale: Double

    /// Ctrl+S's exports, drawn on another thread.
    private let export: BackgroundExport
    /// Ctrl+C and Ctrl+V, and the hand-over of a copy to a clipboard manager at exit.
    private let clipboard: X11Clipboard
    /// The server time of the last key press (the clipboard's requests carry it).
    private var lastKeyTime: UInt = 0
    /// Where a paste under way puts its shapes (the pointer when Ctrl+V was pressed).
    private var pastePoint = Point.zero
    /// Large pastes, prepared off the event loop.
    private let backgroundPaste: BackgroundPaste
    /// Times a large paste found the drawing changed under it and was prepared again.
    private var pasteAttempts = 0
    /// Whether a large paste is being prepared off the loop.
    private var pasteInPreparation = false
    /// Reads the document (on another thread); nil once it has been put into the canvas.
    private var loader: DocumentLoader?
    /// Called on the event loop once the document has been read and put under anything drawn meanwhile. Edits are
    /// reported through `controller.onEdit` only from then on, so nothing is saved over a document not yet read.
    public var onDocumentLoaded: (() -> Void)?
    /// Asked before every frame for the notice that stays on screen while there is one (the drawing is not saved).
    public var standingNotice: (() -> Message?)?
    /// Where the document's watcher posts what another program did to the document (any thread).
    public let diskChanges: DiskChangeMailbox
    /// The document's file name, for notices about it.
    public var documentName = "the drawing"
    /// Wakes the event loop from any thread, for a frame (the writer's status changed, say).
    public var wakeUp: @Sendable () -> Void { host.loop.wakeUp }

    /// Opens the window at once, reading the document with `loadDocument` on another thread meanwhile: the first
    /// frame shows the background and takes touches; the drawing appears, under whatever was drawn, when read.
    public init(
        options: X11AppOptions, loadDocument: @escaping @Sendable () -> Drawing, environment: [String: String],
        log: @escaping (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        let display = try X11Display(name: options.displayName, environment: environment)
        let dpi = X11Resources.dpi(display: display)
        scale = Self.clampedScale(options.scale ?? dpi.map { $0 / 96 } ?? 1)
        var geometry = options.geometry
        if !geometry.isExplicit {
            // The default size is in 96-dpi pixels too, so the window has the same physical size.
            geometry.width = Int((Double(geometry.width) * scale).rounded())
            geometry.height = Int((Double(geometry.height) * scale).rounded())
        }
        host = try X11WindowHost(display: display, geometry: geometry, title: "TouchTracker")
        windowEvents = WindowEvents(host: host, verbose: options.verbose, log: log)
        let width = geometry.width
        let height = geometry.height
        renderer = try DrawingRenderer(
            width: width, height: height,
            painterThreads: options.painterThreads ?? ProcessInfo.processInfo.activeProcessorCount,
            onTileFinished: host.loop.wakeUp, makeCanvas: host.presenter.makeCanvas)
        renderer.translate = Localization.translate
        controller = DrawingController(
            size: Size(width: Double(width), height: Double(height)), clock: Clock(now: MonotonicClock.now()),
            scale: scale, documentLoading: true)
        controller.localize = Localization.translate
        loader = DocumentLoader(load: loadDocument, onLoaded: host.loop.wakeUp)
        export = BackgroundExport(wakeUp: host.loop.wakeUp)
        diskChanges = DiskChangeMailbox(wakeUp: host.loop.wakeUp)
        clipboard = X11Clipboard(display: display, window: host.window.id, wakeUp: host.loop.wakeUp, log: log)
        backgroundPaste = BackgroundPaste(wakeUp: host.loop.wakeUp)
        host.setIcon(log: log)
        controller.onCopy = { [unowned self] shapes in self.copy(shapes) }
        controller.onPaste = { [unowned self] in self.paste() }
        if options.exportPath != nil {
            controller.onExport = { [unowned self] in self.exportPNG() }
        }
        if options.verbose {
            host.describeInput(log: log)
            log(
                "scale \(scale) (Xft.dpi \(dpi.map { "\($0)" } ?? "unset")\(options.scale != nil ? ", --scale given" : ""))"
            )
            log("tiles painted by \(renderer.painterThreads) background thread(s)")
        }
        installConnectionLostHandler()
    }

    /// Losing the X server (it died, or the connection broke) ends the app from inside Xlib, which cannot go on.
    /// Before exiting with status 1, the strokes in progress complete (as a system cancel would) and the drawing is
    /// saved; nothing here touches Xlib again. The last line says whether it was saved: when it was not, the
    /// saver has already said where it was kept instead.
    private func installConnectionLostHandler() {
        connectionLostCleanup = { [unowned self] in self.finish() }
        XSetIOErrorHandler { _ in
            let saved = connectionLostCleanup?() ?? true
            connectionLostCleanup = nil
            let text =
                saved
                ? "touchtracker: lost the connection to the X server; the drawing was saved; exiting\n"
                : "touchtracker: lost the connection to the X server; the drawing could not be saved; exiting\n"
            _ = Array(text.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(1)
        }
    }

    /// Called last when the app ends (after the final `onEdit`), on every way out: SIGTERM, SIGINT, SIGHUP,
    /// SIGQUIT, the window closed, the X server lost. The platform's saver waits here for its pending save to reach
    /// the disk, and says whether it did (false: the drawing is not in its document; the saver said where it is).
    public var finishSaving: (() -> Bool)?

    /// Ends the session without losing work: every live touch is cancelled by the system (so its line completes and
    /// is saved, and any move in progress is committed), the drawing is handed to `onEdit` once more, so a save
    /// that failed earlier is retried, and `finishSaving` waits for the save. Used on SIGTERM/SIGINT, on closing the
    /// window and on losing the X server. A Ctrl+S export still running is let finish, so its PNG is written.
    /// Returns whether the drawing was saved.
    @discardableResult
    private func finish() -> Bool {
        if let loader { adoptDocument(loader.waitAndTake()) }
        controller.window.cancelAllTouches()
        controller.onEdit?(controller.drawingView.snapshot)
        let saved = finishSaving?() ?? true
        export.waitUntilIdle()
        return saved
    }

    /// Scales outside 0.5...8 are typos or broken resources, not screens.
    static func clampedScale(_ scale: Double) -> Double {
        scale.isFinite ? min(8, max(0.5, scale)) : 1
    }

    /// Ctrl+S: writes the drawing as it is shown (without menu or selection) to `exportPath`, and says so on screen.
    /// The drawing is exported on another thread (`BackgroundExport`); its notice shows when the file is written.
    private func exportPNG() {
        guard let path = options.exportPath else { return }
        export.start(
            controller.drawingView.snapshot, to: path, width: window.width, height: window.height,
            lineWidth: controller.drawingView.lineWidth)
    }

    /// Ctrl+C: the window takes the clipboard for `shapes` (their PNG and JSON are made when asked for).
    private func copy(_ shapes: ClipboardShapes) {
        let taken = clipboard.copy(shapes, lineWidth: controller.drawingView.lineWidth, time: lastKeyTime)
        if !taken {
            log("cannot copy: the X server gave the clipboard to another client")
        } else if options.verbose {
            log("copied \(shapes.isSelection ? "the selected shape" : "the drawing") to the clipboard")
        }
    }

    /// Ctrl+V: the clipboard's shapes go where the pointer is (the window's middle when it is elsewhere).
    private func paste() {
        let middle = Point(x: Double(window.width) / 2, y: Double(window.height) / 2)
        if let pointer = window.pointerLocation(), (0..<window.width).contains(pointer.x),
            (0..<window.height).contains(pointer.y)
        {
            pastePoint = Point(x: Double(pointer.x), y: Double(pointer.y))
        } else {
            pastePoint = middle
        }
        if let outcome = clipboard.paste(time: lastKeyTime, now: MonotonicClock.now()) { deliver(outcome) }
    }

    /// Puts a paste's shapes into the drawing, or says why nothing was pasted.
    private func deliver(_ outcome: ClipboardPaster.Outcome) {
        switch outcome {
        case .shapes(let shapes) where controller.drawingView.kindOverLimit(adding: shapes) != nil:
            // Refused whole, with its notice, before anything is prepared.
            controller.paste(shapes, at: pastePoint)
            if options.verbose { log("paste of \(shapes.count) shapes refused: the drawing would pass its limits") }
        case .shapes(let shapes) where shapes.count > DrawingController.largePaste:
            startBackgroundPaste { shapes }
        case .shapes(let shapes):
            controller.paste(shapes, at: pastePoint)
            if options.verbose { log("pasted \(shapes.count) shapes") }
        case .ownCopy(let snapshot) where snapshot.shapes.count > DrawingController.largePaste:
            startBackgroundPaste { snapshot.drawing.shapes }
        case .ownCopy(let snapshot):
            deliver(.shapes(snapshot.drawing.shapes))
        case .nothing:
            controller.showNotice(.nothingToPaste)
        case .unreadable(let reason):
            controller.showNotice(.cannotPaste)
            log("cannot paste: the clipboard's drawing is not readable: \(reason)")
        }
    }

    /// Prepares a large paste off the loop: `shapes` are read, placed on the paste point and put on top of the
    /// drawing's shapes as they are now.
    private func startBackgroundPaste(_ shapes: @escaping @Sendable () -> [Shape]) {
        // One at a time: a Ctrl+V while a large paste is being prepared is ignored, as a second press would be
        // while the clipboard is still being read.
        guard !pasteInPreparation else { return }
        pasteInPreparation = true
        pasteAttempts = 0
        let point = pastePoint
        let lineWidth = controller.drawingView.lineWidth
        backgroundPaste.start(onto: controller.drawingView.shapes) {
            ClipboardShapes.placed(shapes(), centredOn: point, defaultWidth: lineWidth)
        }
    }

    /// Swaps in a large paste prepared off the loop, or prepares it again when the drawing changed meanwhile. After
    /// three tries (someone keeps editing, a drag goes on) it is added on the loop.
    private func adoptPreparedPaste() {
        guard let prepared = backgroundPaste.take() else { return }
        let start = MonotonicClock.now()
        if let kind = controller.drawingView.kindOverLimit(adding: prepared) {
            // The drawing grew while it was prepared: the controller refuses it whole, with its notice.
            pasteInPreparation = false
            _ = controller.paste(prepared)
            if options.verbose { log("paste refused: the drawing would hold more \(kind)s than a document may") }
        } else if controller.paste(prepared) {
            pasteInPreparation = false
            if options.verbose {
                log(
                    String(
                        format: "pasted %d shapes (prepared off the event loop; %.1f ms on it)", prepared.shapes.count,
                        (MonotonicClock.now() - start) * 1000))
            }
        } else if pasteAttempts < 3 {
            pasteAttempts += 1
            backgroundPaste.start(onto: controller.drawingView.shapes) { prepared.shapes }
        } else {
            pasteInPreparation = false
            // Already centred on the paste point: placing them there again moves them by nothing.
            controller.paste(prepared.shapes, at: pastePoint)
            if options.verbose { log("pasted \(prepared.shapes.count) shapes on the event loop") }
        }
    }

    /// At exit, hands a copy the window still owns to the clipboard manager, if one runs, so it can still be
    /// pasted. The window is taken off the screen first: the person closed it.
    private func handOverClipboard() {
        window.unmap()
        let handedOver = clipboard.handOverToManager(time: lastKeyTime) { isDone, deadline in
            host.loop.serve(
                until: isDone, deadline: deadline,
                handle: { event in
                    guard case .clipboard(let clipboardEvent) = event else { return }
                    _ = clipboard.handle(clipboardEvent, now: MonotonicClock.now())
                }, service: { _ = clipboard.service(now: MonotonicClock.now()) })
        }
        if handedOver, options.verbose { log("the clipboard manager took the clipboard over") }
    }

    /// Shows the notice of each export that finished.
    private func reportExports() {
        for outcome in export.takeOutcomes() {
            switch outcome {
            case .exported(let path):
                controller.showNotice(.exported(PathText.shown(PathText.name(of: path))))
                if options.verbose { log("exported \(PathText.shown(path))") }
            case .failed(let path, let reason):
                controller.showNotice(.cannotExport(PathText.shown(PathText.name(of: path))))
                log("cannot export \(reason)")
            }
        }
    }

    /// The X window's id (for the document's lock, so a second `touchtracker` can bring this window forward).
    public var windowID: UInt { UInt(window.id) }

    /// The window's size and position now, to bring it back there next time.
    public var windowGeometry: WindowGeometry { window.currentGeometry() }

    /// Runs until the window is closed or a signal asks the app to end (`SignalPipe`). Returns the exit status.
    public func run() -> Int32 {
        window.map()
        let signalled = host.loop.run(
            clock: controller.window.clock, isRunning: { running }, handle: handle, drawFrame: drawFrame,
            nextDeadline: { clipboard.nextDeadline })
        if signalled, options.verbose { log("signal received; exiting") }
        finish()
        connectionLostCleanup = nil
        handOverClipboard()
        return 0
    }

    private func handle(_ event: PlatformEvent) {
        switch event {
        case .touch(let input):
            touchEventsHandled += 1
            controller.send(input)
        case .hover(let point):
            controller.hover(at: point)
        case .contextClick(let point):
            controller.contextClick(at: point)
        case .deviceRemoved(let source):
            if options.verbose { log("device \(source) removed; its touches are cancelled") }
        case .expose(let rect, let isLast):
            windowEvents.expose(rect, isLast: isLast)
        case .resized(let width, let height):
            windowEvents.resize(
                width: width, height: height, resizeCanvas: { try renderer.resize(width: $0, height: $1) },
                resizeContent: { controller.resize(to: $0) })
        case .mapped:
            break
        case .closeRequested:
            running = false
        case .key(let key):
            lastKeyTime = key.serverTime
            controller.handleKey(KeyCommand(key: key.name, control: key.control, shift: key.shift))
        case .clipboard(let event):
            if let outcome = clipboard.handle(event, now: MonotonicClock.now()) { deliver(outcome) }
        }
    }

    /// Puts the document, once read, under what was drawn meanwhile, and hands saving over to the platform.
    private func adoptDocument(_ document: consuming LoadedDocument?) {
        guard let document = document else { return }
        loader = nil
        if options.verbose {
            log("document read: \(document.shapes.lineCount) lines, \(document.shapes.circleCount) circles")
        }
        if options.traceFrames { log(String(format: "document read t=%.6f", MonotonicClock.now())) }
        // Saving is set up first, so a drawing made while the document loaded is saved merged with it.
        onDocumentLoaded?()
        controller.adoptLoadedDocument(document)
    }

    /// Puts a document another program changed on screen (one undoable edit), or says it could not be read and
    /// keeps the drawing on screen. Only once the document first read has arrived: before, it is still coming.
    private func adoptDiskChanges() {
        guard loader == nil else { return }
        for change in diskChanges.take() {
            switch change {
            case .readable(let document, let adopted):
                controller.drawingView.replaceDrawing(with: document)
                adopted()
                controller.showNotice(.reloaded(documentName))
                if options.verbose { log("reloaded \(documentName): changed on disk") }
            case .unreadable(let problem):
                controller.showNotice(.unreadableOnDisk(documentName))
                log("\(documentName) changed on disk but cannot be read (the drawing on screen is kept): \(problem)")
            }
        }
    }

    private func drawFrame() {
        if let loader, let document = loader.take() { adoptDocument(document) }
        reportExports()
        adoptDiskChanges()
        if let outcome = clipboard.service(now: MonotonicClock.now()) { deliver(outcome) }
        adoptPreparedPaste()
        let standing = standingNotice?()
        if standing != controller.standingNotice {
            controller.standingNotice = standing
            if options.verbose { log(standing.map { "notice shown: \($0)" } ?? "standing notice gone") }
        }
        host.presenter.prepareToDraw(into: renderer.canvas)
        var region =
            renderer.frame(for: controller.drawingView, menu: controller.menu, overlay: controller.overlay)
            ?? DamageRegion()
        region.add(
            windowEvents.takeExposed().intersection(
                Rect(x: 0, y: 0, width: Double(renderer.width), height: Double(renderer.height))))
        guard !region.isEmpty else { return }
        host.presenter.present(renderer.canvas, region: region)
        guard options.traceFrames else { return }
        let now = MonotonicClock.now()
        log(
            String(
                format: "frame presented t=%.6f size=%dx%d touches=%d", now, renderer.width, renderer.height,
                touchEventsHandled))
        let tilesComplete = renderer.tilesComplete
        if tilesComplete, !tilesWereComplete { log(String(format: "tiles complete t=%.6f", now)) }
        tilesWereComplete = tilesComplete
    }
}

/// What to do before exiting when Xlib reports the connection lost (a C callback cannot capture context). Set and
/// read on the main thread only.
nonisolated(unsafe) private var connectionLostCleanup: (() -> Bool)?
