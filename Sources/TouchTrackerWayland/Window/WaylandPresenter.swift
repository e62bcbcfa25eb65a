internal import CWayland
import Glibc
import TouchKit
import TouchTracker
import TouchTrackerRender

/// Shows the session's frames in the window's `wl_surface`, drawn straight into shared-memory buffers the
/// compositor reads (no canvas of the app's own to copy from).
///
/// The canvas is always the buffer that holds the latest frame. A frame is drawn into it while the compositor does
/// not hold it (a compositor that copies what it is given, as GNOME's and KDE's do, gives it back at once); while it
/// does, the next frame goes into the other buffer, first brought up to date with the places drawn since it last
/// held the latest frame (its `stale` region, usually one frame's damage). Each frame is committed as soon as it is
/// drawn, announcing only its damage (`damage_buffer`): the compositor shows the latest commit at its next repaint,
/// so a frame is never held back for a frame callback. Two buffers: when the compositor holds both (weston's pixman
/// renderer keeps the one on screen until the next is shown), the loop draws nothing until one comes back
/// (`canDraw`) and never waits for it; the damage meanwhile stays in the drawing.
final class WaylandPresenter {
    private let connection: WaylandConnection
    private let shm: OpaquePointer
    private let surface: OpaquePointer
    private var buffers: [ShmBuffer] = []
    /// The buffer holding the latest frame: the session's canvas.
    private var current: ShmBuffer?
    /// False until the compositor has configured the window: xdg-shell forbids a buffer before that.
    var isConfigured = false
    /// Whether the compositor has shown a frame of the window (its first frame callback came): the window is
    /// mapped, and input reaches it from then on.
    private(set) var hasShownFirstFrame = false
    private var firstFrameCallback: OpaquePointer?
    private let callbackListener: WaylandListener<wl_callback_listener>
    /// With `--trace-frames`: asks, for every commit, when it reached the screen.
    var presentationClock: PresentationClock?
    /// With `--trace-frames`: when each commit left for the compositor.
    var sendClock: SendClock?

    /// Buffers per window size: the one on screen and the one being drawn.
    static let bufferLimit = 2

    init(connection: WaylandConnection, shm: OpaquePointer, surface: OpaquePointer) {
        self.connection = connection
        self.shm = shm
        self.surface = surface
        callbackListener = WaylandListener(
            wl_callback_listener(done: { data, callback, _ in
                let presenter = listenerOwner(data, as: WaylandPresenter.self)
                presenter.hasShownFirstFrame = true
                presenter.firstFrameCallback = nil
                wl_callback_destroy(callback)
            }))
    }

    deinit {
        if let firstFrameCallback { wl_callback_destroy(firstFrameCallback) }
    }

    /// How frames reach the compositor, for `--verbose`.
    var presentationDescription: String {
        "frames: drawn into wl_shm buffers (\(Self.bufferLimit)), only the damage announced"
    }

    /// A canvas for frames of a `width` x `height` window (at first and after a resize): a new buffer, the latest
    /// frame's from now on. Buffers of the old size go as soon as the compositor gives them back.
    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        buffers.removeAll { !$0.isBusy }
        do {
            let buffer = try ShmBuffer(connection: connection, shm: shm, width: width, height: height)
            buffers.append(buffer)
            current = buffer
            return buffer.canvas
        } catch {
            throw CairoError("making a \(width)x\(height) wl_shm buffer", problem: error.description)
        }
    }

    /// Whether a frame can be drawn now: the window is configured and the latest frame's buffer is free, or another
    /// of its size is (or can be made).
    var canDraw: Bool {
        guard isConfigured, let current else { return false }
        return !current.isBusy || freeBuffer(like: current, creating: false) != nil
            || sameSize(as: current).count < Self.bufferLimit
    }

    /// The canvas for the next frame: the latest frame's buffer while the compositor does not hold it, else another
    /// one brought up to date with it.
    func canvasForFrame(after canvas: CairoSurface) -> CairoSurface {
        guard let current, current.canvas === canvas, current.isBusy,
            let next = freeBuffer(like: current, creating: true)
        else { return canvas }
        copy(next.stale, from: current, into: next)
        next.stale = DamageRegion()
        self.current = next
        return next.canvas
    }

    /// Commits the frame just drawn into `canvas`, announcing `region`.
    func present(_ canvas: CairoSurface, region: DamageRegion) {
        // A frame that is not committed says no send time rather than the last frame's.
        sendClock?.forget()
        guard isConfigured, let current, current.canvas === canvas, !current.isBusy else { return }
        canvas.flush()
        for buffer in buffers where buffer !== current { buffer.stale.add(region) }
        wl_surface_attach(surface, current.buffer, 0, 0)
        for rect in region.coalesced() {
            guard let box = Self.pixelBox(rect, width: current.width, height: current.height) else { continue }
            wl_surface_damage_buffer(surface, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        }
        current.markAttached()
        if !hasShownFirstFrame, firstFrameCallback == nil {
            firstFrameCallback = wl_surface_frame(surface)
            wl_callback_add_listener(firstFrameCallback, callbackListener.pointer, listenerData(self))
        }
        presentationClock?.requestFeedback(for: surface)
        wl_surface_commit(surface)
        if let sendClock {
            sendClock.time { connection.flush() }
        } else {
            connection.flush()
        }
    }

    private func sameSize(as buffer: ShmBuffer) -> [ShmBuffer] {
        buffers.filter { $0.width == buffer.width && $0.height == buffer.height }
    }

    /// A buffer of `buffer`'s size the compositor does not hold, other than it: a free one, or (with `creating`) a
    /// new one while there are fewer than `bufferLimit`. Free buffers of another size (from before a resize) go.
    private func freeBuffer(like buffer: ShmBuffer, creating: Bool) -> ShmBuffer? {
        if creating {
            buffers.removeAll { !$0.isBusy && ($0.width != buffer.width || $0.height != buffer.height) }
        }
        if let free = sameSize(as: buffer).first(where: { !$0.isBusy && $0 !== buffer }) { return free }
        guard creating, sameSize(as: buffer).count < Self.bufferLimit,
            let made = try? ShmBuffer(connection: connection, shm: shm, width: buffer.width, height: buffer.height)
        else { return nil }
        buffers.append(made)
        return made
    }

    /// Copies `region`'s pixels, row by row, from one buffer into another of the same size.
    private func copy(_ region: DamageRegion, from source: ShmBuffer, into target: ShmBuffer) {
        for rect in region.coalesced() {
            guard let box = Self.pixelBox(rect, width: target.width, height: target.height) else { continue }
            for row in box.y..<(box.y + box.height) {
                let offset = row * target.stride + box.x * 4
                memcpy(target.pixels.memory + offset, source.pixels.memory + offset, box.width * 4)
            }
        }
    }

    /// `rect` grown to whole pixels and clipped to a `width` x `height` buffer; nil when nothing is left.
    static func pixelBox(_ rect: Rect, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard !rect.isNull, rect.width.isFinite, rect.height.isFinite else { return nil }
        let minX = max(0, Int(rect.minX.rounded(.down)))
        let minY = max(0, Int(rect.minY.rounded(.down)))
        let maxX = min(width, Int(rect.maxX.rounded(.up)))
        let maxY = min(height, Int(rect.maxY.rounded(.up)))
        guard maxX > minX, maxY > minY else { return nil }
        return (minX, minY, maxX - minX, maxY - minY)
    }
}
