import CX11
import Foundation
import TouchKit
import TouchTrackerSession

/// The loop both windows run, shaped like st's: drain every queued X event, let due timers fire, draw one frame
/// for the whole batch, then sleep in `poll` on the X connection (and the signal pipe) until the next event, the
/// next timer deadline, or the next animation frame.
final class X11EventLoop {
    private let display: X11Display
    private var translator: EventTranslator
    private let signals = SignalPipe()
    /// Other threads (the tile painters) wake the loop through it.
    private let wake = WakePipe()
    /// How long to sleep between frames while something animates (about 60 frames a second).
    private let animationFrameInterval = 1.0 / 60

    init(display: X11Display, translator: EventTranslator) {
        self.display = display
        self.translator = translator
    }

    /// Called from any thread, wakes the loop for a frame (a tile painter finished a tile).
    var wakeUp: @Sendable () -> Void { wake.wakeUp }

    /// Runs until `isRunning` turns false or SIGTERM/SIGINT arrives. Returns true when a signal ended it.
    func run(
        clock: Clock, isRunning: () -> Bool, handle: (PlatformEvent) -> Void, drawFrame: () -> Void,
        isAnimating: () -> Bool = { false }, nextDeadline: () -> Double? = { nil }
    ) -> Bool {
        while isRunning() {
            handleQueuedEvents(while: isRunning, handle: handle)
            clock.advance(to: MonotonicClock.now())
            wake.drain()
            drawFrame()
            if signals.drain() { return true }
            guard isRunning() else { break }
            waitForInput(clock: clock, animating: isAnimating(), otherDeadline: nextDeadline())
        }
        return false
    }

    /// After the loop ended (the clipboard's hand-over to a clipboard manager at exit): passes events to `handle`
    /// and calls `service` after each batch, until `isDone`, `deadline()` passes, or another signal arrives.
    func serve(
        until isDone: () -> Bool, deadline: () -> Double, handle: (PlatformEvent) -> Void, service: () -> Void
    ) {
        while !isDone(), MonotonicClock.now() < deadline() {
            handleQueuedEvents(while: { true }, handle: handle)
            wake.drain()
            service()
            if isDone() || signals.drain() { return }
            if display.pendingEventCount > 0 { continue }
            pollInput(timeoutMilliseconds: 50)
        }
    }

    /// Translates and handles every event Xlib holds or the socket has, while `isRunning` allows.
    private func handleQueuedEvents(while isRunning: () -> Bool, handle: (PlatformEvent) -> Void) {
        let now = MonotonicClock.now()
        while isRunning(), display.pendingEventCount > 0 {
            var event = display.nextEvent()
            for platformEvent in translator.translate(&event, now: now) { handle(platformEvent) }
        }
    }

    /// Sleeps in `poll` until the X connection, a signal or a wake-up has something, or the time-out (-1: none).
    private func pollInput(timeoutMilliseconds: Int32) {
        var fds = [
            pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: signals.readFD, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0),
        ]
        _ = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
    }

    /// Sleeps until input, a wake-up, the clock's next timer, `otherDeadline` (the clipboard's time-outs, on the
    /// monotonic clock) or the next animation frame.
    private func waitForInput(clock: Clock, animating: Bool, otherDeadline: Double?) {
        // Xlib may already hold events it read while flushing; polling then would sleep on them.
        if display.pendingEventCount > 0 { return }
        var wait: Double? = animating ? animationFrameInterval : nil
        for deadline in [clock.nextDeadline, otherDeadline].compactMap({ $0 }) {
            wait = min(wait ?? .infinity, deadline - MonotonicClock.now())
        }
        var timeout: Int32 = -1
        if let wait { timeout = Int32(max(0, min((wait * 1000).rounded(.up), 60_000))) }
        pollInput(timeoutMilliseconds: timeout)
    }
}
