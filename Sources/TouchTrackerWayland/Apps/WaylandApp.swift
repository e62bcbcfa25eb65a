import CWayland
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
    /// `--trace-frames` (see `X11AppOptions.traceFrames`).
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

/// The TouchTracker window as a native Wayland client: a thin host for a `DrawingSession`. It connects to the
/// compositor, makes an xdg-shell toplevel, runs the event loop (dispatch every event the socket has, let due
/// timers and key repeats fire, draw one frame for the whole batch, then sleep in `poll` until the next event,
/// wake-up or deadline), and translates the seat's events for the session. Everything the app does with the window
/// is the session's.
public final class WaylandApp {
    private let options: WaylandAppOptions
    private let log: @Sendable (String) -> Void
    private let connection: WaylandConnection
    private let globals: WaylandGlobals
    private let window: WaylandWindow
    private let presenter: WaylandPresenter
    private let seat: WaylandSeat?
    private let clipboard: WaylandClipboard?
    private let host: WaylandSurfaceHost
    private let wake = WakePipe()
    private let signals = SignalPipe()
    /// Where a second `touchtracker` on the same drawing hands over its activation token.
    private let activationListener = ActivationListener()
    private var translator = WaylandInputTranslator()
    private var keyRepeat = KeyRepeat()
    private var appliedRepeatInfo: (rate: Int32, delay: Int32)?
    /// What the app does with the window.
    public let session: DrawingSession
    private var running = true
    /// The window's size in surface pixels, as last configured.
    private var size: (width: Int, height: Int)
    /// Device pixels per surface pixel: the highest scale of the outputs the window is on (of all outputs before
    /// it is on one). The canvas is painted at device pixels, so it is crisp on a HiDPI screen.
    private var bufferScale: Int32
    /// Whether the compositor has the window maximized.
    public private(set) var isMaximized = false
    /// The part of the canvas the compositor must be sent again at the next frame (all of it after a configure).
    private var exposed = Rect.null
    private var isReady = false

    /// Opens the window at once, reading the document with `loadDocument` on another thread meanwhile (the
    /// session's).
    public init(
        options: WaylandAppOptions, loadDocument: @escaping @Sendable () -> Drawing, environment: [String: String],
        log: @escaping @Sendable (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        connection = try WaylandConnection(name: options.displayName)
        globals = try WaylandGlobals(connection: connection)
        bufferScale = globals.outputs.values.map(\.scale).max() ?? 1
        let scale = min(8, max(0.5, options.scale ?? Double(bufferScale)))
        // Wayland sizes windows in surface pixels, which already stand for the same physical size on every screen.
        let geometry = options.geometry
        size = (max(1, geometry.width), max(1, geometry.height))
        window = WaylandWindow(connection: connection, globals: globals, title: "TouchTracker")
        presenter = WaylandPresenter(connection: connection, shm: globals.shm!, surface: window.surface)
        seat = globals.seat
        let wakeUp = wake.wakeUp
        if let manager = globals.dataDeviceManager, let seat = globals.seat {
            clipboard = WaylandClipboard(
                connection: connection, manager: manager, seat: seat.seat, wakeUp: wakeUp, log: log)
        } else {
            clipboard = nil
        }
        host = WaylandSurfaceHost(presenter: presenter, clipboard: clipboard, seat: seat, wake: wake)
        var sessionOptions = SessionOptions(scale: scale, verbose: options.verbose, exportPath: options.exportPath)
        sessionOptions.traceFrames = options.traceFrames
        sessionOptions.painterThreads = options.painterThreads
        sessionOptions.benchmarkFloor = environment["TOUCHTRACKER_BENCH_FLOOR"] == "1"
        sessionOptions.accessibilityEnvironment = environment
        session = try DrawingSession(
            host: host, width: size.width * Int(bufferScale), height: size.height * Int(bufferScale),
            options: sessionOptions, loadDocument: loadDocument, log: log)
        window.setBufferScale(bufferScale)
        translator.scale = Double(bufferScale)
        if options.maximized { window.setMaximized() }
        // The seat's devices and keymap, and the decoration mode, arrive in answer to the requests above.
        try connection.roundtrip()
        if options.verbose { describe(scale: scale) }
    }

    private func describe(scale: Double) {
        log("wayland: compositor offers \(globals.offered.joined(separator: ", "))")
        if let seat {
            let devices = seat.capabilities.isEmpty ? "no input devices" : seat.capabilities.joined(separator: ", ")
            log("wayland: seat \"\(seat.name)\": \(devices)")
        } else {
            log("wayland: the compositor offers no seat: no input")
        }
        log(
            window.serverDecorated == true
                ? "wayland: decorations drawn by the compositor (xdg-decoration)"
                : "wayland: the compositor draws no decorations (it offers no xdg-decoration)")
        if clipboard == nil { log("wayland: no wl_data_device_manager: Ctrl+C and Ctrl+V do nothing") }
        if activationListener == nil {
            log("wayland: cannot listen for activation tokens: a second touchtracker cannot bring this window forward")
        }
        log(presenter.presentationDescription)
        log(
            "scale \(scale) (buffer scale \(bufferScale) from the outputs' \(globals.outputs.count) scale(s)"
                + "\(options.scale != nil ? ", --scale given" : ""))")
    }

    /// The window's size now (surface pixels) for the window memory; Wayland gives no position.
    public var windowGeometry: WindowGeometry {
        WindowGeometry(width: size.width, height: size.height, x: 0, y: 0, isExplicit: false)
    }

    /// Runs until the window is closed, a signal asks the app to end (`SignalPipe`) or the compositor goes away.
    /// Returns the exit status: 1 when the connection was lost.
    public func run() -> Int32 {
        window.commitInitialState()
        connection.flush()
        var lost: WaylandError?
        var signalled = false
        while running {
            handleEvents()
            let now = MonotonicClock.now()
            session.clock.advance(to: now)
            wake.drain()
            if let command = keyRepeat.due(at: now) { session.handle(.key(command)) }
            if let outcome = clipboard?.service() { session.pasteArrived(outcome) }
            for token in activationListener?.takeTokens(now: now) ?? [] { comeForward(token: token) }
            if presenter.isConfigured { session.drawFrame(exposed: takeExposed()) }
            noteReadiness()
            if signals.drain() {
                signalled = true
                break
            }
            guard running else { break }
            if let error = waitForEvents() {
                lost = error
                break
            }
        }
        if signalled, options.verbose { log("signal received; exiting") }
        let saved = session.finish()
        guard let lost else { return 0 }
        log("\(lost.description); the drawing \(saved ? "was saved" : "could not be saved"); exiting")
        return 1
    }

    /// Sleeps until the compositor, a wake-up, a signal, the clock's next timer or the next key repeat has
    /// something, then reads and dispatches what the compositor sent. Returns why the connection broke, if it did.
    private func waitForEvents() -> WaylandError? {
        guard connection.prepareToRead() else { return connection.lostError }
        // Dispatching before the read may have queued events: handle them before sleeping.
        if window.hasChanges || seat?.hasEvents == true {
            connection.cancelRead()
            return nil
        }
        let flushed = connection.flush()
        var fds = [
            pollfd(
                fd: connection.fileDescriptor, events: Int16(POLLIN) | (flushed ? 0 : Int16(POLLOUT)), revents: 0),
            pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
        ]
        for fd in activationListener?.descriptors ?? [] {
            fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0))
        }
        _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds())
        if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            guard connection.readEvents() else { return connection.lostError }
        } else {
            connection.cancelRead()
        }
        return connection.dispatchPending() ? nil : connection.lostError
    }

    /// A second `touchtracker` on the drawing handed over its launch's activation token: the compositor is asked
    /// to bring this window forward (it decides, by the token, whether to).
    private func comeForward(token: String) {
        guard let activation = globals.activation else {
            if options.verbose {
                log("asked to come forward, but the compositor offers no xdg-activation to do it with")
            }
            return
        }
        xdg_activation_v1_activate(activation, token, window.surface)
        connection.flush()
        if options.verbose { log("asked to come forward: passed the activation token to the compositor") }
    }

    private func timeoutMilliseconds() -> Int32 {
        let deadlines = [session.clock.nextDeadline, keyRepeat.nextDeadline].compactMap { $0 }
        guard let next = deadlines.min() else { return -1 }
        let wait = next - MonotonicClock.now()
        return Int32(max(0, min((wait * 1000).rounded(.up), 60_000)))
    }

    /// What the compositor said since the last batch: the window's configures and close, then input.
    private func handleEvents() {
        for change in window.takeChanges() {
            switch change {
            case .configured(let width, let height, let maximized):
                configure(width: width, height: height, maximized: maximized)
            case .closeRequested:
                running = false
            case .outputsChanged:
                followOutputScale()
            }
        }
        guard let seat else { return }
        if let info = seat.repeatInfo, appliedRepeatInfo.map({ $0 != info }) ?? true {
            appliedRepeatInfo = info
            keyRepeat.configure(rate: info.rate, delayMilliseconds: info.delay)
        }
        let now = MonotonicClock.now()
        for event in seat.takeEvents() {
            switch event {
            case .keyPressed(let code, let command, let repeats):
                keyRepeat.pressed(code: code, command: command, repeats: repeats, at: now)
            case .keyReleased(let code):
                keyRepeat.released(code: code)
            case .keyboardLeft:
                keyRepeat.stop()
            default:
                break
            }
            for sessionEvent in translator.translate(event, now: now) { session.handle(sessionEvent) }
        }
        for sessionEvent in translator.endOfBatch() { session.handle(sessionEvent) }
        host.pointer = translator.pointerLocation
    }

    /// The compositor's size for the window (0: the app's choice, the remembered size).
    private func configure(width: Int, height: Int, maximized: Bool) {
        isMaximized = maximized
        let newSize = (width > 0 ? width : size.width, height > 0 ? height : size.height)
        if newSize != size || !presenter.isConfigured {
            size = newSize
            session.resize(width: size.width * Int(bufferScale), height: size.height * Int(bufferScale))
            if options.verbose { log("configured \(size.width)x\(size.height)\(maximized ? " maximized" : "")") }
        }
        exposeEverything()
        presenter.isConfigured = true
    }

    /// Says `ready` (with `--verbose`) once the compositor has shown the first frame: the window is mapped and
    /// takes input. The end-to-end tests and the benchmark wait for this line.
    private func noteReadiness() {
        guard !isReady, presenter.hasShownFirstFrame else { return }
        isReady = true
        if options.verbose { log("ready window=wayland") }
    }

    /// The window is now on outputs of another scale: the canvas is painted again at the new device pixels.
    private func followOutputScale() {
        let scales = window.outputs.compactMap { proxy in globals.outputs.values.first { $0.proxy == proxy }?.scale }
        guard let newScale = scales.max(), newScale != bufferScale else { return }
        bufferScale = newScale
        window.setBufferScale(newScale)
        translator.scale = Double(newScale)
        if options.scale == nil { session.setScale(Double(newScale)) }
        session.resize(width: size.width * Int(newScale), height: size.height * Int(newScale))
        exposeEverything()
        if options.verbose { log("the window is on a screen at scale \(newScale) now; painting at that scale") }
    }

    private func exposeEverything() {
        exposed = Rect(
            x: 0, y: 0, width: Double(size.width * Int(bufferScale)), height: Double(size.height * Int(bufferScale)))
    }

    private func takeExposed() -> Rect {
        defer { exposed = .null }
        return exposed
    }
}
