import TouchKit
import TouchTracker
import TouchTrackerRender

/// What a window system does for a drawing session: all a platform implements. The session draws into the
/// host's canvas and says which part changed; the host shows it. Input comes the other way, as `SessionEvent`s
/// the host's loop hands to `DrawingSession.handle`, and the loop draws a frame (`DrawingSession.drawFrame`)
/// after each batch of events, wake-up or due timer.
///
/// Everything here is called on the host's event loop, except `wakeUp`, which any thread may call.
public protocol SessionHost: AnyObject {
    /// Wakes the event loop for a frame, from any thread (a tile painted, a save's status changed, a document
    /// read). Must stay safe to call after the loop has ended.
    var wakeUp: @Sendable () -> Void { get }

    /// The canvas for a window of `width` x `height` device pixels: where frames are drawn, in memory the
    /// window system can read (shared with the display server) where it can.
    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface

    /// Called before each frame with the canvas the last one was drawn into: returns the canvas to draw this one into
    /// — the same, once the display server has read the last frame (the host may wait for that), or another of the
    /// same size that the host has brought up to date with it (a host that rotates frames through buffers).
    func canvasForFrame(after canvas: CairoSurface) -> CairoSurface

    /// Shows `region` of `canvas` in the window.
    func present(_ canvas: CairoSurface, region: DamageRegion)

    /// Ctrl+C: offers `offer` on the clipboard as `ClipboardOffer.mimeTypes` (bytes from `offer.bytes`, which
    /// makes them off the loop). False when the window system gave the clipboard to someone else.
    func offerClipboard(_ offer: ClipboardOffer) -> Bool

    /// Ctrl+V: starts reading the clipboard's best type. The outcome comes back at once (the window's own copy) or
    /// later through `DrawingSession.pasteArrived`.
    func readClipboard() -> PasteOutcome?

    /// Where the pointer is in the window, in drawing units (nil when the window system does not say).
    func pointerLocation() -> Point?

    /// Where the window's top-left corner is on the screen (for assistive technology's extents); asked only when
    /// the accessible tree changes.
    func screenOrigin() -> Point

    /// For `--trace-frames`: when the last frame `present` showed left for the display server, in
    /// `MonotonicClock` seconds; nil from a host that does not say.
    var lastFrameSent: Double? { get }
}

extension SessionHost {
    public var lastFrameSent: Double? { nil }
}
