internal import CWayland
import Foundation
import Glibc
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession

/// What both Wayland windows (the drawing and the demos) share: the connection, the compositor's globals, the
/// xdg-shell window, its presenter and seat, and the event loop — dispatch every event the socket has, let due
/// timers and key repeats fire, draw one frame for the whole batch, then sleep in `poll` until the next event,
/// wake-up, signal or deadline. Sizes are in canvas (device) pixels for the app: surface pixels times the buffer
/// scale, the highest scale of the outputs the window is on; input is in surface pixels, which are drawing units.
final class WaylandWindowHost {
    /// What the window system said, in the app's terms.
    enum Event {
        case input(SessionEvent)
        /// The canvas must now be `width` x `height` device pixels (a configure, or a move to a screen of another
        /// scale); `scale` is the buffer scale.
        case resized(width: Int, height: Int, scale: Double)
        case closeRequested
    }

    let connection: WaylandConnection
    let globals: WaylandGlobals
    let window: WaylandWindow
    let presenter: WaylandPresenter
    let seat: WaylandSeat?
    let wake = WakePipe()
    /// Made once the window is set up: until then the signals keep their default action, so Ctrl+C or SIGTERM ends
    /// an app stuck connecting to a compositor that does not answer (the pipe is read only by the running loop).
    private let signals: SignalPipe
    private var translator = WaylandInputTranslator()
    private var keyRepeat = KeyRepeat()
    private var appliedRepeatInfo: (rate: Int32, delay: Int32)?
    private let verbose: Bool
    private let log: (String) -> Void
    /// The window's size in surface pixels, as last configured.
    private(set) var size: (width: Int, height: Int)
    /// Device pixels per surface pixel, and how the compositor is told.
    private(set) var scale: SurfaceScale
    /// The compositor's preferred fractional scale, once it said one.
    private var preferredScale: Double?
    /// Whether the compositor has the window maximized.
    private(set) var isMaximized = false
    /// The size the window last had when not maximized (surface pixels), to remember for next time.
    private(set) var floatingSize: (width: Int, height: Int)
    /// The part of the canvas the compositor must be sent again at the next frame (all of it after a configure).
    private var exposed = Rect.null
    /// Whether the compositor has shown the first frame (the window is mapped).
    private(set) var isReady = false

    /// Connects and makes the window, `width` x `height` surface pixels unless the compositor decides.
    init(
        displayName: String?, width: Int, height: Int, title: String, verbose: Bool,
        log: @escaping (String) -> Void
    ) throws(WaylandError) {
        self.verbose = verbose
        self.log = log
        connection = try WaylandConnection(name: displayName)
        globals = try WaylandGlobals(connection: connection)
        scale = SurfaceScale.choose(
            preferred: nil, outputScales: globals.outputs.values.map(\.scale), canUseViewport: false)
        size = (max(1, width), max(1, height))
        floatingSize = size
        window = WaylandWindow(
            connection: connection, globals: globals, title: title, width: size.width, height: size.height)
        globals.onOutputRemoved = { [weak window] output in window?.forget(output: output) }
        presenter = WaylandPresenter(connection: connection, shm: globals.shm!, surface: window.surface)
        seat = globals.seat
        seat?.windowSurface = window.surface
        seat?.cursor = WaylandCursor(
            connection: connection, compositor: globals.compositor!, shm: globals.shm!,
            environment: ProcessInfo.processInfo.environment)
        window.apply(scale, width: size.width, height: size.height)
        signals = SignalPipe()
    }

    /// The canvas's size in device pixels.
    var canvasSize: (width: Int, height: Int) { scale.canvasSize(width: size.width, height: size.height) }

    /// Where the pointer is, in surface pixels (drawing units), while it is over the window.
    var pointerLocation: Point? { translator.pointerLocation }

    /// Says what the compositor offers and what the window got (`--verbose`).
    func describe() {
        log("wayland: compositor offers \(globals.offered.joined(separator: ", "))")
        if let seat {
            let devices = seat.capabilities.isEmpty ? "no input devices" : seat.capabilities.joined(separator: ", ")
            log("wayland: seat \"\(seat.name)\": \(devices)")
        } else {
            log("wayland: the compositor offers no seat: no input")
        }
        log(window.decorationDescription)
        log(presenter.presentationDescription)
    }

    /// Runs until `isRunning` turns false, a signal arrives or the connection breaks; `service` runs once a batch
    /// (before the frame) and `extraDescriptors` are polled too. Returns whether a signal ended it, and why the
    /// connection broke, if it did.
    func run(
        clock: Clock, isRunning: () -> Bool, handle: (Event) -> Void, drawFrame: (_ exposed: Rect) -> Void,
        isAnimating: () -> Bool = { false }, service: (Double) -> Void = { _ in },
        extraDescriptors: () -> [Int32] = { [] }
    ) -> (signalled: Bool, lost: WaylandError?) {
        window.commitInitialState()
        connection.flush()
        while isRunning() {
            handleEvents(handle)
            let now = MonotonicClock.now()
            clock.advance(to: now)
            wake.drain()
            if let code = keyRepeat.due(at: now), let command = seat?.keyCommand(forKey: code) {
                // The repeat's time on the compositor's millisecond clock is not known: the monotonic clock's stands.
                let time = UInt32(truncatingIfNeeded: Int64(now * 1000))
                if let report = seat?.repeatReport(forKey: code, time: time) {
                    handle(.input(.keyEvent(report, command: command)))
                } else {
                    handle(.input(.key(command)))
                }
            }
            service(now)
            if presenter.canDraw { drawFrame(takeExposed()) }
            noteReadiness()
            if signals.drain() { return (true, nil) }
            guard isRunning() else { break }
            if let error = waitForEvents(clock: clock, animating: isAnimating(), extraDescriptors: extraDescriptors()) {
                return (false, error)
            }
        }
        return (false, nil)
    }

    /// Sleeps until the compositor, a wake-up, a signal, an extra descriptor, the clock's next timer, the next key
    /// repeat or (while animating) the next frame has something, then reads and dispatches what the compositor
    /// sent. Returns why the connection broke, if it did.
    private func waitForEvents(clock: Clock, animating: Bool, extraDescriptors: [Int32]) -> WaylandError? {
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
        for fd in extraDescriptors { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds(clock: clock, animating: animating))
        if fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            guard connection.readEvents() else { return connection.lostError }
        } else {
            connection.cancelRead()
        }
        return connection.dispatchPending() ? nil : connection.lostError
    }

    private func timeoutMilliseconds(clock: Clock, animating: Bool) -> Int32 {
        var deadlines = [clock.nextDeadline, keyRepeat.nextDeadline].compactMap { $0 }
        // About 60 frames a second while something animates.
        if animating { deadlines.append(MonotonicClock.now() + 1.0 / 60) }
        guard let next = deadlines.min() else { return -1 }
        let wait = next - MonotonicClock.now()
        return Int32(max(0, min((wait * 1000).rounded(.up), 60_000)))
    }

    /// What the compositor said since the last batch: the window's configures and close, then input.
    private func handleEvents(_ handle: (Event) -> Void) {
        for change in window.takeChanges() {
            switch change {
            case .configured(let width, let height, let maximized):
                configure(width: width, height: height, maximized: maximized, handle)
            case .closeRequested:
                handle(.closeRequested)
            case .outputsChanged:
                followScale(handle)
            case .decorationsDecided(let description):
                if verbose { log(description) }
            case .preferredScale(let preferred):
                preferredScale = preferred
                followScale(handle)
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
            case .keyPressed(let code, _, let repeats, _):
                keyRepeat.pressed(code: code, repeats: repeats, at: now)
            case .keyReleased(let code, _):
                keyRepeat.released(code: code)
            case .keyboardLeft:
                keyRepeat.stop()
            case .tablet(let tool, .type(let type)) where verbose:
                log("wayland: tablet tool \(tool): \(TabletToolTranslator.touchType(type))")
            default:
                break
            }
            for sessionEvent in translator.translate(event, now: now) { handle(.input(sessionEvent)) }
        }
        for sessionEvent in translator.endOfBatch() { handle(.input(sessionEvent)) }
    }

    /// The compositor's size for the window (0: the app's choice, the remembered size).
    private func configure(width: Int, height: Int, maximized: Bool, _ handle: (Event) -> Void) {
        isMaximized = maximized
        // A side left to the app is the size it had when not maximized (a restore from maximized proposes 0x0),
        // not the maximized size it has now.
        let remembered = maximized ? size : floatingSize
        let newSize = scale.surfaceSize(
            fitting: width > 0 ? width : remembered.width, height: height > 0 ? height : remembered.height,
            largestSide: ShmBuffer.largestSide)
        if !maximized { floatingSize = newSize }
        if newSize != size || !presenter.isConfigured {
            size = newSize
            window.apply(scale, width: size.width, height: size.height)
            handle(.resized(width: canvasSize.width, height: canvasSize.height, scale: scale.factor))
            if verbose { log("configured \(size.width)x\(size.height)\(maximized ? " maximized" : "")") }
        }
        exposeEverything()
        presenter.isConfigured = true
    }

    /// The window is now on outputs of another scale, or the compositor prefers another fractional scale: the
    /// canvas is painted again at the new device pixels.
    private func followScale(_ handle: (Event) -> Void) {
        let outputScales = window.outputs.compactMap { proxy in
            globals.outputs.values.first { $0.proxy == proxy }?.scale
        }
        let newScale = SurfaceScale.choose(
            preferred: preferredScale,
            outputScales: outputScales.isEmpty ? [Int32(scale.factor.rounded(.down))] : outputScales,
            canUseViewport: window.canUseViewport)
        guard newScale != scale else { return }
        scale = newScale
        window.apply(newScale, width: size.width, height: size.height)
        handle(.resized(width: canvasSize.width, height: canvasSize.height, scale: newScale.factor))
        exposeEverything()
        guard verbose else { return }
        let source = newScale.usesViewport ? "the compositor's fractional scale" : "the screen's"
        log("painting at scale \(newScale.factor) now (\(source))")
    }

    /// Says `ready` (with `--verbose`) once the compositor has shown the first frame: the window is mapped and
    /// takes input. The end-to-end tests and the benchmark wait for this line.
    private func noteReadiness() {
        guard !isReady, presenter.hasShownFirstFrame else { return }
        isReady = true
        if verbose { log("ready window=wayland") }
    }

    private func exposeEverything() {
        exposed = Rect(x: 0, y: 0, width: Double(canvasSize.width), height: Double(canvasSize.height))
    }

    private func takeExposed() -> Rect {
        defer { exposed = .null }
        return exposed
    }
}
