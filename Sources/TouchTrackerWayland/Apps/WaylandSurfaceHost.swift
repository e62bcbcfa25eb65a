import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession

/// The Wayland window as a drawing session's host: frames through `WaylandPresenter`, Ctrl+C and Ctrl+V through
/// `WaylandClipboard`, wake-ups through the loop's pipe.
final class WaylandSurfaceHost: SessionHost {
    private let presenter: WaylandPresenter
    private let clipboard: WaylandClipboard?
    private let seat: WaylandSeat?
    private let wake: WakePipe
    /// Where the pointer is, in canvas pixels (the translator's).
    var pointer: Point?

    init(presenter: WaylandPresenter, clipboard: WaylandClipboard?, seat: WaylandSeat?, wake: WakePipe) {
        self.presenter = presenter
        self.clipboard = clipboard
        self.seat = seat
        self.wake = wake
    }

    var wakeUp: @Sendable () -> Void { wake.wakeUp }

    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        try presenter.makeCanvas(width: width, height: height)
    }

    func canvasForFrame(after canvas: CairoSurface) -> CairoSurface {
        presenter.canvasForFrame(after: canvas)
    }

    func present(_ canvas: CairoSurface, region: DamageRegion) {
        presenter.present(canvas, region: region)
    }

    func offerClipboard(_ offer: ClipboardOffer) -> Bool {
        guard let clipboard, let seat else { return false }
        return clipboard.copy(offer, serial: seat.lastInputSerial)
    }

    func readClipboard() -> PasteOutcome? {
        guard let clipboard else { return .nothing }
        return clipboard.paste()
    }

    func pointerLocation() -> Point? { pointer }

    /// Wayland does not tell a client where its window is on the screen.
    func screenOrigin() -> Point { .zero }

    var lastFrameSent: Double? { presenter.sendClock?.lastSent }
}
