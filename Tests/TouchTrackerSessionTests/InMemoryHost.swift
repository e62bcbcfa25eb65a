import Synchronization
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession

/// Stands in for a window system (an X server, a Wayland compositor) in the session's unit tests, as a mock: the
/// canvas is an image in memory, each frame presented is recorded, the clipboard is a variable and the pointer
/// is wherever the test puts it. The real hosts are tested end to end (EndToEndTests).
final class InMemoryHost: SessionHost {
    /// Counts wake-ups from other threads.
    final class WakeUps: Sendable {
        let count = Mutex(0)
    }

    let wakeUps = WakeUps()
    /// Every frame presented: the region the session said changed.
    private(set) var frames: [DamageRegion] = []
    /// What the last Ctrl+C offered.
    private(set) var clipboard: ClipboardOffer?
    /// Where the pointer is (nil: the window system does not say).
    var pointer: Point?

    var wakeUp: @Sendable () -> Void {
        { [wakeUps] in wakeUps.count.withLock { $0 += 1 } }
    }

    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        try CairoSurface(width: width, height: height)
    }

    func canvasForFrame(after canvas: CairoSurface) -> CairoSurface { canvas }

    func present(_ canvas: CairoSurface, region: DamageRegion) {
        frames.append(region)
    }

    func offerClipboard(_ offer: ClipboardOffer) -> Bool {
        clipboard = offer
        return true
    }

    /// Whether the clipboard is read as another client's is, answering later (`pasteArrived`), rather than at once.
    var readsLater = false
    /// How many reads were started.
    private(set) var readsStarted = 0

    func readClipboard() -> PasteOutcome? {
        readsStarted += 1
        if readsLater { return nil }
        return clipboard.map { .ownCopy($0.shapes.snapshot) } ?? .nothing
    }

    func pointerLocation() -> Point? { pointer }

    func screenOrigin() -> Point { Point(x: 100, y: 50) }
}
