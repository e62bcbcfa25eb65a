import CX11
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession
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
    /// The document the window edits, which Ctrl+S never writes over.
    public var documentPath: String?
    /// Print `touchtracker: frame presented t=SECONDS size=WxH touches=N scrolls=S zoom=Z` (CLOCK_MONOTONIC; N touch
    /// events and S scrolls handled so far, Z the view's zoom) on stderr after each frame, `touchtracker: document read
    /// t=SECONDS` when the document has been read and `touchtracker: tiles complete t=SECONDS` when the painters have
    /// caught up, for latency measurements.
    public var traceFrames = false
    /// Threads painting tiles of complete lines in the background; nil: one per processor.
    public var painterThreads: Int?
    /// Opens drawings dropped on the window, each in a window of its own (nil: drops are not taken).
    public var openDropped: (@Sendable ([String]) -> Void)?

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

/// The TouchTracker window on X: a thin host for a `DrawingSession`. It connects to X, opens the window, runs the
/// event loop (st's shape: drain every queued X event, let due timers fire, draw one frame for the whole batch,
/// then sleep in `poll` until the next event or deadline), translates X's events for the session, and carries the
/// clipboard's X protocol. Everything the app does with the window is the session's.
public final class X11App {
    private let options: X11AppOptions
    private let windowHost: X11WindowHost
    /// Readiness, exposure and size changes, handled as the demo window handles them.
    private var windowEvents: WindowEvents
    private let surface: X11Surface
    /// Files dragged from a file manager (XDND), while drops are taken.
    private let dropTarget: XdndTarget?
    /// What the app does with the window.
    public let session: DrawingSession
    private var running = true
    private let log: @Sendable (String) -> Void
    /// The window's pixels per drawing unit (`Xft.dpi` / 96, or `--scale`): X reports pixels, and the session
    /// takes drawing units. A new `Xft.dpi` while the window is open changes it, unless `--scale` was given.
    private var scale: Double

    /// Opens the window at once, reading the document with `loadDocument` on another thread meanwhile (the
    /// session's).
    public init(
        options: X11AppOptions, loadDocument: @escaping @Sendable () -> Drawing, environment: [String: String],
        log: @escaping @Sendable (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        let display = try X11Display(name: options.displayName, environment: environment)
        let dpi = X11Resources.dpi(display: display)
        let scale = Self.clampedScale(options.scale ?? dpi.map { $0 / 96 } ?? 1)
        self.scale = scale
        var geometry = options.geometry
        if geometry.isInDrawingUnits {
            // The default size and the remembered place are drawing units, so the window has the same size and
            // place on screens of any scale.
            geometry.width = Int((Double(geometry.width) * scale).rounded())
            geometry.height = Int((Double(geometry.height) * scale).rounded())
            geometry.x = Int((Double(geometry.x) * scale).rounded())
            geometry.y = Int((Double(geometry.y) * scale).rounded())
            geometry.isInDrawingUnits = false
        }
        windowHost = try X11WindowHost(display: display, geometry: geometry, title: "TouchTracker")
        startup = StartupNotification.take()
        startup?.mark(windowHost.window.id, on: display)
        windowEvents = WindowEvents(host: windowHost, verbose: options.verbose, log: log)
        surface = X11Surface(host: windowHost, scale: scale, log: log)
        var sessionOptions = SessionOptions(scale: scale, verbose: options.verbose, exportPath: options.exportPath)
        sessionOptions.documentPath = options.documentPath
        sessionOptions.traceFrames = options.traceFrames
        sessionOptions.painterThreads = options.painterThreads
        sessionOptions.benchmarkFloor = BenchmarkFloor(environment: environment["TOUCHTRACKER_BENCH_FLOOR"])
        sessionOptions.accessibilityEnvironment = environment
        windowHost.setIcon(log: log)
        dropTarget =
            options.openDropped == nil
            ? nil : XdndTarget(display: display, window: windowHost.window.id, verbose: options.verbose, log: log)
        if options.verbose {
            windowHost.describeInput(log: log)
            windowHost.presenter.onSharedImageMade = { log("frames: a shared image of \($0)x\($1) made") }
            log(
                "scale \(scale) (Xft.dpi \(dpi.map { "\($0)" } ?? "unset")\(options.scale != nil ? ", --scale given" : ""))"
            )
        }
        session = try DrawingSession(
            host: surface, width: geometry.width, height: geometry.height, options: sessionOptions,
            loadDocument: loadDocument, log: log)
        session.setWindowTitle = { [unowned windowHost] title in windowHost.window.setTitle(title) }
        // The desktop's file dialog stays above this window (xdg-desktop-portal's parent_window).
        session.parentWindowHandle = "x11:" + String(windowHost.window.id, radix: 16)
        installConnectionLostHandler()
    }

    /// Losing the X server (it died, or the connection broke) ends the app from inside Xlib, which cannot go on.
    /// Before exiting with status 1, the session finishes (the strokes in progress complete, as a system cancel
    /// would, and the drawing is saved); nothing here touches Xlib again. The last line says whether it was saved:
    /// when it was not, the saver has already said where it was kept instead.
    private func installConnectionLostHandler() {
        connectionLostCleanup = { [unowned self] in self.session.finish() }
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

    /// Scales outside 0.5...8 are typos or broken resources, not screens.
    static func clampedScale(_ scale: Double) -> Double {
        scale.isFinite ? min(8, max(0.5, scale)) : 1
    }

    /// The X window's id (for the document's lock, so a second `touchtracker` can bring this window forward).
    public var windowID: UInt { UInt(windowHost.window.id) }

    /// The window's size and position as it closed (now, while it runs), to bring it back there next time.
    public var windowGeometry: WindowGeometry { geometryAtClose ?? windowHost.window.currentGeometry() }

    /// `windowGeometry` in drawing units, as the window memory keeps it.
    public var windowGeometryInDrawingUnits: WindowGeometry {
        var geometry = windowGeometry
        func units(_ pixels: Int) -> Int { Int((Double(pixels) / scale).rounded()) }
        geometry.width = max(1, units(geometry.width))
        geometry.height = max(1, units(geometry.height))
        geometry.x = units(geometry.x)
        geometry.y = units(geometry.y)
        geometry.isInDrawingUnits = true
        return geometry
    }
    /// The launch a desktop launcher is showing (`DESKTOP_STARTUP_ID`), ended once the window is mapped.
    private let startup: StartupNotification?
    /// Where the window was just before it was taken off the screen: a window manager may reparent an unmapped
    /// window elsewhere, so its place is read while it is still shown.
    private var geometryAtClose: WindowGeometry?

    /// Runs until the window is closed or a signal asks the app to end (`SignalPipe`). Returns the exit status.
    public func run() -> Int32 {
        windowHost.window.map()
        startup?.complete(from: windowHost.window.id, on: windowHost.window.display)
        let signalled = windowHost.loop.run(
            clock: session.clock, isRunning: { running && !session.wantsToClose }, handle: handle, drawFrame: drawFrame,
            nextDeadline: { surface.clipboard.nextDeadline })
        if signalled, options.verbose { log("signal received; exiting") }
        let saved = session.finish()
        // Losing the server during the clipboard's hand-over below must say what the finish found.
        connectionLostCleanup = { saved }
        geometryAtClose = windowHost.window.currentGeometry()
        handOverClipboard()
        connectionLostCleanup = nil
        return 0
    }

    /// X's window pixels as drawing units.
    private func units(_ point: Point) -> Point { scale == 1 ? point : point / scale }

    private func handle(_ event: PlatformEvent) {
        switch event {
        case .touch(var input):
            input.location = units(input.location)
            session.handle(.touch(input))
        case .hover(let point):
            session.handle(.hover(units(point)))
        case .stylusHover(let point, let tool):
            session.handle(.stylusHover(units(point), tool: tool))
        case .stylusLeft:
            session.handle(.stylusLeft)
        case .contextClick(let point):
            session.handle(.contextClick(units(point)))
        case .scroll(let input):
            let scroll = input.inUnits(scale: scale)
            if options.verbose { log(scroll.logLine) }
            session.handle(.scroll(scroll))
        case .deviceRemoved(let source):
            session.handle(.deviceRemoved(sourceID: source))
        case .expose(let rect, let isLast):
            windowEvents.expose(rect, isLast: isLast)
        case .resized(let width, let height):
            // X reports a move the same way (ConfigureNotify): the accessible extents follow the window.
            surface.windowMayHaveMoved()
            session.windowMayHaveMoved()
            windowEvents.resize(
                width: width, height: height,
                resizeCanvas: { session.resizeCanvas(width: $0, height: $1) },
                resizeContent: { session.resizeContent(to: $0) })
        case .mapped:
            surface.windowMayHaveMoved()
            session.windowMayHaveMoved()
        case .closeRequested:
            running = false
        case .focusChanged(let active):
            session.handle(.focusChanged(active))
        case .key(let key):
            surface.lastKeyTime = key.serverTime
            let command = KeyCommand(key: key.name, control: key.control, shift: key.shift, alt: key.alt)
            if let report = key.report {
                session.handle(.keyEvent(report, command: command))
            } else {
                session.handle(.key(command))
            }
        case .keyReleased(let report):
            session.handle(.keyEvent(report, command: nil))
        case .resourcesChanged:
            followResources()
        case .clientMessage(let message):
            dropTarget?.handle(message)
        case .clipboard(.converted(let selection, let target, let property)) where selection == dropTarget?.selection:
            if let list = dropTarget?.converted(target: target, property: property), let open = options.openDropped {
                DroppedFiles.open(uriList: list, verbose: options.verbose, log: log, open: open)
            }
        case .clipboard(let event):
            if let outcome = surface.clipboard.handle(event, now: MonotonicClock.now()) {
                session.pasteArrived(outcome)
            }
        }
    }

    /// The X resources changed: a new `Xft.dpi` (the desktop's scale setting, or `xrdb`) repaints the window at the
    /// new scale: the same window, the drawing larger or smaller in it, the old picture shown stretched until the
    /// new one is painted (`DrawingSession.resize`).
    private func followResources() {
        guard options.scale == nil else { return }
        let display = windowHost.display
        let text = display.readProperty(Atom(XA_RESOURCE_MANAGER), of: display.rootWindow)
            .map { String(decoding: $0.bytes, as: UTF8.self) }
        let dpi = text.flatMap(X11Resources.dpi(inResources:))
        let newScale = Self.clampedScale(dpi.map { $0 / 96 } ?? 1)
        guard newScale != scale else { return }
        scale = newScale
        surface.scale = newScale
        session.windowMayHaveMoved()
        session.resize(width: session.renderer.width, height: session.renderer.height, scale: newScale)
        if options.verbose { log("scale \(newScale) now (Xft.dpi \(dpi.map { "\($0)" } ?? "unset"))") }
    }

    private func drawFrame() {
        if let outcome = surface.clipboard.service(now: MonotonicClock.now()) { session.pasteArrived(outcome) }
        session.drawFrame(exposed: windowEvents.takeExposed())
    }

    /// At exit, hands a copy the window still owns to the clipboard manager, if one runs, so it can still be
    /// pasted. The window is taken off the screen first: the person closed it.
    private func handOverClipboard() {
        windowHost.window.unmap()
        let clipboard = surface.clipboard
        let handedOver = clipboard.handOverToManager(time: surface.lastKeyTime) { isDone, deadline in
            windowHost.loop.serve(
                until: isDone, deadline: deadline,
                handle: { event in
                    guard case .clipboard(let clipboardEvent) = event else { return }
                    _ = clipboard.handle(clipboardEvent, now: MonotonicClock.now())
                }, service: { _ = clipboard.service(now: MonotonicClock.now()) })
        }
        if handedOver, options.verbose { log("the clipboard manager took the clipboard over") }
    }
}

/// What to do before exiting when Xlib reports the connection lost (a C callback cannot capture context). Set and
/// read on the main thread only.
nonisolated(unsafe) private var connectionLostCleanup: (() -> Bool)?
