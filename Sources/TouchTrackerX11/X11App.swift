import CX11
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender

/// How the window app was asked to run.
public struct X11AppOptions: Sendable {
    public var displayName: String?
    public var geometry: WindowGeometry
    public var verbose: Bool

    public init(displayName: String? = nil, geometry: WindowGeometry = .default, verbose: Bool = false) {
        self.displayName = displayName
        self.geometry = geometry
        self.verbose = verbose
    }
}

/// The TouchTracker window: connects to X, translates input into TouchKit, and draws frames when something changed.
///
/// The loop follows st's: drain every queued X event, let due timers fire, draw one frame for the whole batch,
/// then sleep in `poll` on the X connection (and the signal pipe) until the next event or timer deadline.
public final class X11App {
    private let options: X11AppOptions
    private let display: X11Display
    private let xi: XInput2?
    private let window: X11Window
    private let renderer: DrawingRenderer
    private let presenter: WindowPresenter
    public let controller: DrawingController
    private var translator: EventTranslator
    private let signals = SignalPipe()
    private var exposed = Rect.null
    private var isReady = false
    private var running = true
    private let log: (String) -> Void

    public init(
        options: X11AppOptions, drawing: Drawing, environment: [String: String], log: @escaping (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        display = try X11Display(name: options.displayName, environment: environment)
        xi = XInput2(display: display)
        window = try X11Window(display: display, geometry: options.geometry, title: "TouchTracker")
        let width = options.geometry.width
        let height = options.geometry.height
        renderer = try DrawingRenderer(width: width, height: height)
        presenter = try WindowPresenter(window: window)
        controller = DrawingController(
            size: Size(width: Double(width), height: Double(height)), drawing: drawing,
            clock: Clock(now: MonotonicClock.now()))
        translator = EventTranslator(display: display, window: window, xi: xi)
        if let xi {
            xi.selectInput(display: display, window: window.id)
        } else {
            XSelectInput(
                display.pointer, window.id,
                ExposureMask | StructureNotifyMask | KeyPressMask | FocusChangeMask | ButtonPressMask
                    | ButtonReleaseMask | PointerMotionMask)
        }
        if options.verbose { describeInput() }
        installConnectionLostHandler()
    }

    /// Losing the X server (it died, or the connection broke) ends the app from inside Xlib, which cannot go on.
    /// Before exiting with status 1, the strokes in progress complete (as a system cancel would) and the drawing is
    /// saved; nothing here touches Xlib again.
    private func installConnectionLostHandler() {
        connectionLostCleanup = { [unowned self] in self.finish() }
        XSetIOErrorHandler { _ in
            connectionLostCleanup?()
            connectionLostCleanup = nil
            let text = "touchtracker: lost the connection to the X server; the drawing was saved; exiting\n"
            _ = Array(text.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(1)
        }
    }

    /// Ends the session without losing work: every live touch is cancelled by the system (so its line completes and
    /// is saved, and any move in progress is committed), and the drawing is handed to `onEdit` once more, so a save
    /// that failed earlier is retried. Used on SIGTERM/SIGINT, on closing the window and on losing the X server.
    private func finish() {
        controller.window.cancelAllTouches()
        controller.onEdit?(controller.drawingView.drawing)
    }

    private func describeInput() {
        log("display \(display.name)")
        guard let xi else {
            log("input: core pointer events (no XInput2 on this server)")
            return
        }
        let mode = xi.supportsTouch ? "touch and pointer events" : "pointer events only (touch needs XI 2.2)"
        log("input: XInput \(xi.versionText), \(mode)")
        for line in xi.describeDevices(display: display) { log(line) }
    }

    /// Runs until the window is closed or SIGTERM/SIGINT arrives. Returns the exit status.
    public func run() -> Int32 {
        window.map()
        while running {
            let now = MonotonicClock.now()
            while running, display.pendingEventCount > 0 {
                var event = display.nextEvent()
                for platformEvent in translator.translate(&event, now: now) { handle(platformEvent) }
            }
            controller.window.clock.advance(to: MonotonicClock.now())
            drawFrame()
            if signals.drain() {
                if options.verbose { log("signal received; exiting") }
                break
            }
            guard running else { break }
            waitForInput()
        }
        finish()
        connectionLostCleanup = nil
        return 0
    }

    private func handle(_ event: PlatformEvent) {
        switch event {
        case .touch(let input):
            controller.send(input)
        case .hover(let point):
            controller.hover(at: point)
        case .contextClick(let point):
            controller.contextClick(at: point)
        case .deviceRemoved(let source):
            if options.verbose { log("device \(source) removed; its touches are cancelled") }
        case .expose(let rect, let isLast):
            exposed = exposed.union(rect)
            if isLast, !isReady {
                isReady = true
                if options.verbose { log("ready window=0x\(String(window.id, radix: 16))") }
            }
        case .resized(let width, let height):
            guard window.noteSize(width: width, height: height) else { return }
            do {
                try renderer.resize(width: width, height: height)
            } catch {
                log("cannot resize the canvas to \(width)x\(height): \(error)")
            }
            presenter.resize(width: width, height: height)
            controller.resize(to: Size(width: Double(width), height: Double(height)))
        case .mapped:
            break
        case .closeRequested:
            running = false
        case .key(let key):
            controller.handleKey(KeyCommand(key: key.name, control: key.control, shift: key.shift))
        }
    }

    private func drawFrame() {
        var region = renderer.frame(for: controller.drawingView, menu: controller.menu) ?? .null
        region = region.union(exposed)
        exposed = .null
        guard !region.isNull else { return }
        presenter.present(renderer.canvas, region: region)
    }

    private func waitForInput() {
        // Xlib may already hold events it read while flushing; polling then would sleep on them.
        if display.pendingEventCount > 0 { return }
        var timeout: Int32 = -1
        if let deadline = controller.window.clock.nextDeadline {
            let milliseconds = (deadline - MonotonicClock.now()) * 1000
            timeout = Int32(max(0, min(milliseconds.rounded(.up), 60_000)))
        }
        var fds = [
            pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, 2, timeout)
    }
}

/// What to do before exiting when Xlib reports the connection lost (a C callback cannot capture context). Set and
/// read on the main thread only.
nonisolated(unsafe) private var connectionLostCleanup: (() -> Void)?
