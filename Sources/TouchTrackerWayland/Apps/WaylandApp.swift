internal import CWayland
import Glibc
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession

/// How the Wayland window was asked to run.
public struct WaylandAppOptions: Sendable {
    /// The compositor's socket instead of `WAYLAND_DISPLAY`.
    public var displayName: String?
    /// The window's size when the compositor leaves it to the app (Wayland does not let a client place a window,
    /// so the position is not used).
    public var geometry: WindowGeometry
    /// Ask for the window maximized (it was when it last closed).
    public var maximized = false
    public var verbose: Bool
    /// Device pixels per 96-dpi pixel: line width, hit radius, gesture distances and menu text; nil: 1.
    public var scale: Double?
    /// Where Ctrl+S writes a PNG of the drawing (nil: Ctrl+S does nothing).
    public var exportPath: String?
    /// The document the window edits, which Ctrl+S never writes over.
    public var documentPath: String?
    /// `--trace-frames` (see `X11AppOptions.traceFrames`).
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

/// The TouchTracker window as a native Wayland client: a thin host for a `DrawingSession` on a
/// `WaylandWindowHost` (connection, xdg-shell window, presenter, seat and loop), with the clipboard and the channel
/// a second `touchtracker` brings the window forward through. Everything the app does with the window is the
/// session's.
public final class WaylandApp {
    private let options: WaylandAppOptions
    private let log: @Sendable (String) -> Void
    private let windowHost: WaylandWindowHost
    private let clipboard: WaylandClipboard?
    private let host: WaylandSurfaceHost
    /// Where a second `touchtracker` on the same drawing hands over its activation token.
    private let activationListener = ActivationListener()
    /// What the app does with the window.
    public let session: DrawingSession
    private var running = true
    /// The token a launcher started the app with (`LaunchToken`: its startup notification), spent to
    /// activate the window once it is shown: the launch then ends and the window gets the focus it was launched for.
    private var launchToken: String?
    /// The window exported through xdg-foreign, for the file dialog's parent (nil where not offered).
    private var exported: ExportedToplevel?

    /// Opens the window at once, reading the document with `loadDocument` on another thread meanwhile (the
    /// session's).
    public init(
        options: WaylandAppOptions, loadDocument: @escaping @Sendable () -> Drawing, environment: [String: String],
        log: @escaping @Sendable (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        launchToken = LaunchToken.take()
        // Wayland sizes windows in surface pixels, which already stand for the same physical size on every screen.
        windowHost = try WaylandWindowHost(
            displayName: options.displayName, width: options.geometry.width, height: options.geometry.height,
            title: "TouchTracker", verbose: options.verbose, log: log)
        // The window's pixels per drawing unit are the compositor's to choose (its buffer or fractional scale):
        // input arrives in surface pixels, which are drawing units, so any other density would misplace it.
        let scale = windowHost.scale.factor
        if let manager = windowHost.globals.dataDeviceManager, let seat = windowHost.seat {
            clipboard = WaylandClipboard(
                connection: windowHost.connection, manager: manager, seat: seat.seat, wakeUp: windowHost.wake.wakeUp,
                log: log)
        } else {
            clipboard = nil
        }
        host = WaylandSurfaceHost(
            presenter: windowHost.presenter, clipboard: clipboard, seat: windowHost.seat, wake: windowHost.wake)
        var sessionOptions = SessionOptions(scale: scale, verbose: options.verbose, exportPath: options.exportPath)
        sessionOptions.documentPath = options.documentPath
        sessionOptions.traceFrames = options.traceFrames
        sessionOptions.painterThreads = options.painterThreads
        sessionOptions.benchmarkFloor = BenchmarkFloor(environment: environment["TOUCHTRACKER_BENCH_FLOOR"])
        sessionOptions.accessibilityEnvironment = environment
        let canvas = windowHost.canvasSize
        session = try DrawingSession(
            host: host, width: canvas.width, height: canvas.height, options: sessionOptions,
            loadDocument: loadDocument, log: log)
        session.setWindowTitle = { [unowned windowHost] title in windowHost.window.setTitle(title) }
        // The file dialog's parent: `wayland:HANDLE` once the compositor has exported the window (xdg-foreign);
        // without an exporter (weston) the portal is given "", no parent.
        let (verbose, session) = (options.verbose, session)
        exported = ExportedToplevel(
            connection: windowHost.connection, globals: windowHost.globals, surface: windowHost.window.surface
        ) { [unowned session] handle in
            session.parentWindowHandle = "wayland:" + handle
            if verbose { log("window exported for the file dialog: wayland:\(handle)") }
        }
        if options.maximized { windowHost.window.setMaximized() }
        if options.traceFrames { windowHost.presenter.sendClock = SendClock() }
        if options.traceFrames, let presentation = windowHost.globals.presentation {
            // When each frame reached the screen, for latency measurements (touchtracker-bench).
            windowHost.presenter.presentationClock = PresentationClock(
                connection: windowHost.connection, presentation: presentation,
                clock: windowHost.globals.presentationClockID
            ) { shown in log(String(format: "frame shown t=%.6f", shown)) }
        }
        // The seat's devices and keymap, and the decoration mode, arrive in answer to the requests above.
        try windowHost.connection.roundtrip()
        if options.verbose { describe(scale: scale) }
    }

    private func describe(scale: Double) {
        windowHost.describe()
        if clipboard == nil { log("wayland: no wl_data_device_manager: Ctrl+C and Ctrl+V do nothing") }
        if activationListener == nil {
            log("wayland: cannot listen for activation tokens: a second touchtracker cannot bring this window forward")
        }
        log(
            "scale \(scale) (painted at \(scale) pixels per drawing unit, from the compositor: "
                + "\(windowHost.globals.outputs.count) output scale(s))")
        if let asked = options.scale {
            log("--scale \(asked) is for X11: on Wayland the compositor sets the scale")
        }
    }

    /// The window's size when not maximized (surface pixels) for the window memory; Wayland gives no position.
    public var windowGeometry: WindowGeometry {
        let size = windowHost.floatingSize
        return WindowGeometry(width: size.width, height: size.height, x: 0, y: 0, isExplicit: false)
    }

    /// Whether the compositor has the window maximized (to remember for next time).
    public var isMaximized: Bool { windowHost.isMaximized }

    /// Runs until the window is closed, a signal asks the app to end (`SignalPipe`) or the compositor goes away.
    /// Returns the exit status: 1 when the connection was lost.
    public func run() -> Int32 {
        let ending = windowHost.run(
            clock: session.clock, isRunning: { running && !session.wantsToClose }, handle: handle,
            drawFrame: { exposed in session.drawFrame(exposed: exposed) },
            service: { now in
                if windowHost.isReady, let token = launchToken {
                    launchToken = nil
                    activate(token: token, because: "launched with an activation token")
                }
                if let outcome = clipboard?.service() { session.pasteArrived(outcome) }
                if let list = clipboard?.drop.service(), let open = options.openDropped {
                    DroppedFiles.open(uriList: list, verbose: options.verbose, log: log, open: open)
                }
                for token in activationListener?.takeTokens(now: now) ?? [] {
                    activate(token: token, because: "asked to come forward")
                }
            },
            extraDescriptors: { activationListener?.descriptors ?? [] })
        if ending.signalled, options.verbose { log("signal received; exiting") }
        let saved = session.finish()
        guard let lost = ending.lost else { return 0 }
        log("\(lost.description); the drawing \(saved ? "was saved" : "could not be saved"); exiting")
        return 1
    }

    private func handle(_ event: WaylandWindowHost.Event) {
        switch event {
        case .input(let input):
            if options.verbose, case .scroll(let scroll) = input { log(scroll.logLine) }
            session.handle(input)
            host.pointer = windowHost.pointerLocation
        case .resized(let width, let height, let scale):
            session.resize(width: width, height: height, scale: scale)
        case .closeRequested:
            running = false
        }
    }

    /// Asks the compositor to activate the window with `token` (it decides, by the token, whether to): the app's
    /// own launch token once the window is shown, or a second `touchtracker`'s on the same drawing, handed over to
    /// bring this window forward.
    private func activate(token: String, because reason: String) {
        guard let activation = windowHost.globals.activation else {
            if options.verbose { log("\(reason), but the compositor offers no xdg-activation to do it with") }
            return
        }
        xdg_activation_v1_activate(activation, token, windowHost.window.surface)
        windowHost.connection.flush()
        if options.verbose { log("\(reason): passed the activation token to the compositor") }
    }
}
