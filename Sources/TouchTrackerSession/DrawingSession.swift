import BackgroundWork
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerAccessibility
import TouchTrackerRender
import TouchTrackerStore

/// How a drawing session was asked to run, whatever the window system.
public struct SessionOptions: Sendable {
    /// The window's pixels per drawing unit at first (the host resolves it from the window system's settings or
    /// `--scale`); a host whose window moves to a screen of another scale passes the new one to `resize`.
    public var scale: Double
    public var verbose: Bool
    /// Where Ctrl+S writes a PNG of the drawing (nil: Ctrl+S does nothing).
    public var exportPath: String?
    /// The document the window edits: Ctrl+S never writes over it, whatever link `exportPath` has become.
    public var documentPath: String?
    /// Print `touchtracker: frame presented t=SECONDS size=WxH touches=N scrolls=S zoom=Z` (CLOCK_MONOTONIC; N touch
    /// events and S scrolls handled so far, Z the view's zoom; with the benchmark's floor switch, ` floor=0` or `1`
    /// after it) after each frame,
    /// `touchtracker: document read t=SECONDS` when the document has been read and
    /// `touchtracker: tiles complete t=SECONDS` when the painters have caught up, for latency measurements.
    public var traceFrames = false
    /// Threads painting tiles of complete lines in the background; nil: one per processor.
    public var painterThreads: Int?
    /// For the benchmark's floor only: when frames present their region without drawing into it
    /// (`BenchmarkFloor`). Set from `TOUCHTRACKER_BENCH_FLOOR`, which only `touchtracker-bench` sets.
    public var benchmarkFloor = BenchmarkFloor.off
    /// The environment to find an accessibility bus in (`DBUS_SESSION_BUS_ADDRESS`); nil: none is looked for.
    public var accessibilityEnvironment: [String: String]?

    public init(scale: Double = 1, verbose: Bool = false, exportPath: String? = nil) {
        self.scale = scale
        self.verbose = verbose
        self.exportPath = exportPath
    }
}

/// What the app does with a window, whatever the window system (DESIGN.md §1): the controller and the renderer,
/// the document read on another thread and put under whatever was drawn meanwhile, another program's changes to it
/// adopted, Ctrl+S's export and Ctrl+C/Ctrl+V's policy (which shapes, which types, where a paste lands, large
/// pastes prepared off the loop), the notices, and each frame. Saving is attached by `DocumentSync`.
///
/// A `SessionHost` is all a platform implements; its event loop hands input to `handle`, sizes to `resize` and
/// draws a frame with `drawFrame` after each batch, until it ends the session with `finish`.
///
/// Units (DESIGN.md §2a): the drawing, the controller and every `SessionEvent` are in drawing units, one unit one
/// pixel of a 100 % screen; the canvas, `resize` and `drawFrame`'s exposed area are in the window's pixels,
/// `scale` of them per unit. The renderer alone turns one into the other on the way out.
public final class DrawingSession {
    /// Held strongly: the host holds nothing of the session's, so there is no cycle.
    let host: any SessionHost
    /// As the host asked, but for the document's and Ctrl+S's paths, which follow a Save As.
    var options: SessionOptions
    let log: @Sendable (String) -> Void
    public let renderer: DrawingRenderer
    public let controller: DrawingController

    /// Reads the document (on another thread); nil once it has been put into the canvas.
    var loader: DocumentLoader?
    /// Ctrl+S's exports, drawn on another thread.
    let export: BackgroundExport
    /// Large pastes, prepared off the event loop.
    let backgroundPaste: BackgroundPaste
    /// Times a large paste found the drawing changed under it and was prepared again.
    var pasteAttempts = 0
    /// Whether a large paste is being prepared off the loop.
    var pasteInPreparation = false
    /// Where a paste under way puts its shapes (the pointer when Ctrl+V was pressed).
    var pastePoint = Point.zero
    /// When the clipboard's reading for a paste began, while the window system reads it (nil: no paste is being
    /// read). A Ctrl+V meanwhile is ignored, and leaves the paste under way where it was asked for.
    var clipboardReadStarted: Double?
    /// Touch events and scrolls handled so far, so a frame's trace says which input it includes.
    var touchEventsHandled = 0
    /// With `--trace-frames`: when the latest touch event or scroll reached the session (the frame line's `received`).
    var lastInputReceived = 0.0
    var scrollsHandled = 0
    /// Whether the tiles were complete at the last frame (for the `tiles complete` trace).
    var tilesWereComplete = false
    /// The drawing as AT-SPI objects, while an accessibility bus is there.
    var accessibility: AccessibilityBridge?
    /// What assistive clients asked for, done at the next frame.
    let accessibilityRequests = AccessibilityMailbox()
    /// Keys a screen reader hears (and may consume) before the app acts on them.
    let registryKeys: RegistryKeyGate
    /// What the accessible tree was last told: the shapes' revision, the selection and the window's size.
    var publishedScene:
        (
            revision: UInt64, selection: ShapeID?, menu: PopupMenu?, size: Size, active: Bool, activation: Int,
            viewport: Viewport
        )?
    /// Which notices a screen reader has been told.
    var noticeAnnouncer = NoticeAnnouncer()
    /// Whether the window has the keyboard focus (as the host last said; active until it says otherwise), and how
    /// many times it became active: the host's first report counts, so a reader hears the window open.
    var windowIsActive = true
    var activations = 0
    /// What a screen reader is told as the keyboard draws, and the timer that says where the cursor rests.
    var cursorAnnouncer = KeyboardCursorAnnouncer()
    var cursorRestTimer: TimerToken?
    /// The key help panel (H).
    var keyHelp = KeyHelpPanel()
    /// Whether the key help is shown (H, or "Keys" in the settings menu).
    var isKeyHelpShown: Bool { keyHelp.isShown }
    /// What the last undo or redo changed, said at the next frame (after the tree is told).
    var undoOutcome: Message?
    /// Shapes moved since a reader was last told, told once they rest (`shapeRestDelay`), and the timer for it.
    var reshapedToTell = ReshapedShapes()
    var shapeRestTimer: TimerToken?
    /// The passing notice last written to the log (`--verbose`), so each is logged once, when it is first shown.
    var loggedNotice: String?

    /// Called on the event loop once the document has been read and put under anything drawn meanwhile. Edits are
    /// reported through `controller.onEdit` only from then on, so nothing is saved over a document not yet read.
    public var onDocumentLoaded: (() -> Void)?
    /// Asked before every frame for the notice that stays on screen while there is one (the drawing is not saved).
    public var standingNotice: (() -> Message?)?
    /// Called last when the session ends (after the final `onEdit`), on every way out. The saver waits here for its
    /// pending save to reach the disk, and says whether it did (false: the drawing is not in its document; the
    /// saver said where it is).
    public var finishSaving: (() -> Bool)?
    /// Where the document's watcher posts what another program did to the document (any thread).
    public let diskChanges: DiskChangeMailbox
    /// The document's file name, for notices about it.
    public var documentName = "the drawing"
    /// New, Open… and Save As…, once the command line attached them (`attachDocumentCommands`).
    var documentCommands: DocumentCommands?
    /// The window's title (the drawing's name once document commands are attached), for the accessible tree.
    public internal(set) var windowTitle = "TouchTracker"
    /// How the host shows a new title (X11's `_NET_WM_NAME` and `WM_NAME`, Wayland's `xdg_toplevel.set_title`).
    public var setWindowTitle: ((String) -> Void)?
    /// The window as the desktop's file dialog names its parent (`x11:HEX`; "" where the host cannot say).
    public var parentWindowHandle = ""

    /// A session on a `width` x `height` window (pixels, `options.scale` per drawing unit) of `host`, reading the document with
    /// `loadDocument` on another thread meanwhile: the first frame shows the background and takes touches; the
    /// drawing appears, under whatever was drawn, when read.
    public init(
        host: any SessionHost, width: Int, height: Int, options: SessionOptions,
        loadDocument: @escaping @Sendable () -> Drawing, log: @escaping @Sendable (String) -> Void
    ) throws {
        self.host = host
        self.options = options
        self.log = log
        renderer = try DrawingRenderer(
            width: width, height: height, scale: options.scale,
            painterThreads: options.painterThreads ?? ProcessInfo.processInfo.activeProcessorCount,
            onTileFinished: host.wakeUp,
            makeCanvas: { [unowned host] (width, height) throws(CairoError) in
                try host.makeCanvas(width: width, height: height)
            })
        renderer.translate = Localization.translate
        renderer.drawsNothingForBenchmarkFloor = options.benchmarkFloor.isOn
        controller = DrawingController(
            size: Size(width: Double(width) / renderer.scale, height: Double(height) / renderer.scale),
            clock: Clock(now: MonotonicClock.now()), documentLoading: true)
        controller.translate = Localization.translate
        controller.showsGestureHint = true
        loader = DocumentLoader(load: loadDocument, onLoaded: host.wakeUp)
        export = BackgroundExport(wakeUp: host.wakeUp)
        diskChanges = DiskChangeMailbox(wakeUp: host.wakeUp)
        backgroundPaste = BackgroundPaste(wakeUp: host.wakeUp)
        registryKeys = RegistryKeyGate(wakeUp: host.wakeUp)
        controller.onCopy = { [unowned self] shapes in self.copy(shapes) }
        controller.onShowKeys = { [unowned self] in
            self.keyHelp.show()
            // Shown: the tree is told at the next frame.
            self.publishedScene = nil
        }
        controller.onPaste = { [unowned self] in self.paste() }
        if options.exportPath != nil {
            controller.onExport = { [unowned self] in self.exportPNG() }
        }
        if options.verbose { log("tiles painted by \(renderer.painterThreads) background thread(s)") }
        // The first notice or menu would otherwise load the fonts on the loop (a zoom step's frame took 12 ms).
        Worker.run("fonts", priority: .background) {
            TextLayout.loadFonts(sample: Localization.translate("Delete") + " Zoom: 100 % 0123456789")
        }
        if let environment = options.accessibilityEnvironment {
            let requests = accessibilityRequests
            let wakeUp = host.wakeUp
            accessibility = AccessibilityBridge.start(
                scene: accessibleScene(), lineWidth: controller.drawingView.lineWidth, environment: environment,
                log: log,
                onRequest: { request in
                    requests.post(request)
                    wakeUp()
                })
        }
    }

    deinit {
        accessibility?.stop()
    }

    /// The clock the host's loop advances (TouchKit's timers run on it).
    public var clock: Clock { controller.window.clock }

    /// Wakes the host's loop for a frame, from any thread.
    public var wakeUp: @Sendable () -> Void { host.wakeUp }

    // MARK: Input

    /// The window's pixels per drawing unit now.
    public var scale: Double { renderer.scale }

    /// One input event from the host, in drawing units.
    public func handle(_ event: SessionEvent) {
        let viewBefore = controller.viewport
        defer {
            if options.verbose, controller.viewport != viewBefore { log("view \(controller.viewport)") }
        }
        if case .focusChanged(let active) = event {
            // The focus carries no time and starts nothing on the clock, which it leaves alone.
            if active, !windowIsActive || activations == 0 { activations += 1 }
            windowIsActive = active
            // Where the keyboard cursor rests is not said in another window.
            dropCursorRest()
            if options.verbose { log(active ? "keyboard focus in" : "keyboard focus out") }
            return
        }
        // Only touches carry their own time; anything else happens now. The loop advances the clock after a batch
        // of events, so after a quiet spell a key's notice would otherwise start (and expire) in the past.
        if case .touch = event {} else { clock.advance(to: MonotonicClock.now()) }
        switch event {
        case .touch(let input):
            touchEventsHandled += 1
            if options.traceFrames { lastInputReceived = MonotonicClock.now() }
            controller.send(input)
        case .hover(let point):
            controller.hover(at: point)
        case .stylusHover(let point, let tool):
            controller.stylusHovered(at: point, tool: tool)
        case .stylusLeft:
            controller.stylusLeft(at: clock.now)
        case .contextClick(let point):
            controller.contextClick(at: point)
        case .scroll(let input):
            scrollsHandled += 1
            if options.traceFrames { lastInputReceived = MonotonicClock.now() }
            controller.scroll(input)
        case .deviceRemoved(let source):
            if options.verbose { log("device \(source) removed; its touches are cancelled") }
        case .key(let command):
            handleKey(command)
        case .keyEvent(let report, let command):
            registryKeys.pass(report, command: command, through: accessibility) { handleKey($0) }
        case .focusChanged:
            break
        }
    }

    /// A key's command for the controller; what an undo or a redo changed is told to a screen reader.
    func handleKey(_ command: KeyCommand) {
        let action = KeyMap.action(for: command)
        if keyHelp.handle(command, action: action) {
            // Shown or hidden: the tree is told at the next frame.
            publishedScene = nil
            return
        }
        if action == .deleteSelection || action == .activateHighlighted {
            selectingNeighbourOfDeleted { _ = controller.handleKey(command) }
            return
        }
        guard accessibility != nil, action == .undo || action == .redo else {
            controller.handleKey(command)
            return
        }
        let before = controller.drawingView.shapes
        controller.handleKey(command)
        undoOutcome = UndoOutcome.message(redo: action == .redo, before: before, after: controller.drawingView.shapes)
    }

    /// Does `edit`; when it deleted the selected shape, the selection (and with it the keyboard's and a screen
    /// reader's focus) goes to the next shape in drawing order, the previous one if it was the last, the drawing
    /// when none is left: where Tab would have gone from it.
    func selectingNeighbourOfDeleted(_ edit: () -> Void) {
        let shapes = controller.drawingView.shapes
        let selected = controller.drawingView.selection
        let position = selected.flatMap { shapes.orderPosition(of: $0) }
        edit()
        let order = controller.drawingView.shapes.order
        guard let selected, let position, controller.drawingView.shapes[selected] == nil,
            controller.drawingView.selection == nil, !order.isEmpty
        else { return }
        controller.select(order[min(position, order.count - 1)])
    }

    /// The window is now `width` x `height` pixels, at `scale` pixels per drawing unit when given (it moved to a
    /// screen of another scale): the canvas first (a failure is logged, the old one stays), then the drawing's
    /// content. The drawing keeps its size and place on the screen; at a new scale the canvas is painted again in
    /// the background, showing the old picture stretched meanwhile.
    public func resize(width: Int, height: Int, scale: Double? = nil) {
        resizeCanvas(width: width, height: height, scale: scale)
        resizeContent(to: Size(width: Double(width), height: Double(height)))
    }

    /// The window may have moved on the screen (the window system said its place changed): assistive technology is
    /// told its new place at the next frame.
    public func windowMayHaveMoved() {
        publishedScene = nil
    }

    /// The canvas part of `resize`, for a host that must resize its presenter between the two.
    public func resizeCanvas(width: Int, height: Int, scale: Double? = nil) {
        do {
            try renderer.resize(width: width, height: height, scale: scale)
        } catch {
            log("cannot resize the canvas to \(width)x\(height): \(error)")
        }
    }

    /// The content part of `resize`: the window is `size` pixels, so its size in drawing units is that over the
    /// scale.
    public func resizeContent(to size: Size) {
        controller.resize(to: Size(width: size.width / scale, height: size.height / scale))
    }

    // MARK: Frames

    /// Takes what arrived from other threads (the document, exports, another program's changes, a paste), then
    /// draws what changed and hands it, with `exposed` (window pixels the window system asked for again), to the
    /// host.
    public func drawFrame(exposed: Rect = .null) {
        let frameBegan = options.traceFrames ? MonotonicClock.now() : 0
        if let loader, let document = loader.take() { adoptDocument(document) }
        reportExports()
        adoptDiskChanges()
        adoptPreparedPaste()
        serviceDocumentCommands()
        registryKeys.actOnAnswered { command in
            clock.advance(to: MonotonicClock.now())
            handleKey(command)
        }
        doAccessibilityRequests()
        let standing = standingNotice?()
        if standing != controller.standingNotice {
            controller.standingNotice = standing
            if options.verbose { log(standing.map { "notice shown: \($0)" } ?? "standing notice gone") }
        }
        if options.verbose, controller.notice != loggedNotice {
            loggedNotice = controller.notice
            if let passing = loggedNotice { log("notice shown: \(passing)") }
        }
        publishAccessibleScene()
        do {
            try renderer.retarget(to: host.canvasForFrame(after: renderer.canvas))
        } catch {
            log("cannot draw into the next frame's buffer: \(error)")
            return
        }
        let floor = options.benchmarkFloor.isOn
        renderer.drawsNothingForBenchmarkFloor = floor
        var region =
            renderer.frame(
                for: controller.drawingView, menu: controller.menu,
                overlay: keyHelp.overlay(controller.overlay, translate: Localization.translate))
            ?? DamageRegion()
        let drawnAt = options.traceFrames ? MonotonicClock.now() : 0
        region.add(
            exposed.intersection(Rect(x: 0, y: 0, width: Double(renderer.width), height: Double(renderer.height))))
        guard !region.isEmpty else { return }
        host.present(renderer.canvas, region: region)
        guard options.traceFrames else { return }
        let now = MonotonicClock.now()
        log(
            String(
                format: "frame presented t=%.6f size=%dx%d touches=%d scrolls=%d zoom=%.6g", now, renderer.width,
                renderer.height, touchEventsHandled, scrollsHandled, controller.viewport.zoom)
                + String(format: " received=%.6f began=%.6f drawn=%.6f", lastInputReceived, frameBegan, drawnAt)
                + (host.lastFrameSent.map { String(format: " sent=%.6f", $0) } ?? "")
                + (options.benchmarkFloor == .off ? "" : " floor=\(floor ? 1 : 0)"))
        let tilesComplete = renderer.tilesComplete
        if tilesComplete, !tilesWereComplete { log(String(format: "tiles complete t=%.6f", now)) }
        tilesWereComplete = tilesComplete
    }

    // MARK: The end

    /// Ends the session without losing work: every live touch is cancelled by the system (so its line completes and
    /// is saved, and any move in progress is committed), and `finishSaving` waits for the edits handed over to be
    /// saved (trying a failed save once more). A drawing nobody edited is not written again: the document stays as
    /// it is, a read-only one and fields a newer version wrote included (`DocumentSync` writes one that is gone from
    /// its place). A Ctrl+S export still running is let
    /// finish, so its PNG is written. Returns whether the drawing was saved.
    @discardableResult
    public func finish() -> Bool {
        if let loader { adoptDocument(loader.waitAndTake()) }
        controller.finishKeyboardStroke()
        controller.window.cancelAllTouches()
        let saved = finishSaving?() ?? true
        // A file dialog still open goes with the window.
        documentCommands?.chooser.stop()
        export.waitUntilIdle()
        return saved
    }

    // MARK: The document

    /// Puts the document, once read, under what was drawn meanwhile, and hands saving over (`onDocumentLoaded`).
    func adoptDocument(_ document: consuming LoadedDocument?) {
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
    func adoptDiskChanges() {
        guard loader == nil else { return }
        diskChanges.noteShapes(below: controller.drawingView.shapes.nextNumber)
        for change in diskChanges.take() {
            switch change {
            case .readable(let document, let adopted):
                // Acknowledged first: putting it on screen hands the writer a save that may replace it.
                adopted()
                controller.replaceDrawing(with: document)
                controller.showNotice(.reloaded(documentName))
                if options.verbose { log("reloaded \(documentName): changed on disk") }
            case .unreadable(let problem, let copied):
                controller.showNotice(.unreadableOnDisk(documentName))
                log("\(documentName) changed on disk but cannot be read (the drawing on screen is kept): \(problem)")
                // What was there is kept aside; the file holds no drawing now, so the one on screen is saved to it,
                // as an edit would be: closing the window without another edit must not leave the file unreadable.
                if copied { controller.onEdit?(controller.drawingView.snapshot) }
            }
        }
    }

}
