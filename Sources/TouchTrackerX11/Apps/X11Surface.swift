import CX11
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession

/// The X window as a drawing session's host: frames go through the window's presenter (MIT-SHM where the server
/// has it), Ctrl+C and Ctrl+V through the CLIPBOARD selection (`X11Clipboard`), wake-ups through the loop's pipe.
final class X11Surface: SessionHost {
    private let host: X11WindowHost
    let clipboard: X11Clipboard
    /// The server time of the last key press: the clipboard's requests carry it, as ICCCM requires.
    var lastKeyTime: UInt = 0

    /// The window's pixels per drawing unit.
    var scale: Double

    init(host: X11WindowHost, scale: Double, log: @escaping (String) -> Void) {
        self.host = host
        self.scale = scale
        clipboard = X11Clipboard(display: host.display, window: host.window.id, wakeUp: host.loop.wakeUp, log: log)
    }

    var wakeUp: @Sendable () -> Void { host.loop.wakeUp }

    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        try host.presenter.makeCanvas(width: width, height: height)
    }

    func canvasForFrame(after canvas: CairoSurface) -> CairoSurface {
        host.presenter.prepareToDraw(into: canvas)
        return canvas
    }

    func present(_ canvas: CairoSurface, region: DamageRegion) {
        host.presenter.present(canvas, region: region)
    }

    func offerClipboard(_ offer: ClipboardOffer) -> Bool {
        clipboard.copy(offer, time: lastKeyTime)
    }

    func readClipboard() -> PasteOutcome? {
        clipboard.paste(time: lastKeyTime, now: MonotonicClock.now())
    }

    func screenOrigin() -> Point {
        if let knownOrigin { return knownOrigin }
        // A round trip to the server: asked once, then again only after the window may have moved.
        let geometry = host.window.currentGeometry()
        let origin = Point(x: Double(geometry.x), y: Double(geometry.y))
        knownOrigin = origin
        return origin
    }

    /// The window's place on the screen as last asked (nil: ask again).
    private var knownOrigin: Point?

    /// A ConfigureNotify or a map: the window may be elsewhere now.
    func windowMayHaveMoved() {
        knownOrigin = nil
    }

    func pointerLocation() -> Point? {
        host.window.pointerLocation().map { Point(x: Double($0.x) / scale, y: Double($0.y) / scale) }
    }
}
