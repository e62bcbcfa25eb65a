import CCairo
internal import CWayland
import Glibc
import TouchKit
import TouchTracker
import TouchTrackerRender

/// Shows the session's finished frames in the window's `wl_surface`.
///
/// The session draws into a canvas of its own (in the process's memory); a frame is committed as soon as it is
/// drawn, in whichever of up to three shared-memory buffers the compositor is not holding: only the rectangles that
/// buffer lacks are copied in, and only the frame's damage is announced (`damage_buffer`). When the compositor
/// holds all three, the damage waits and goes with the next buffer it gives back; the loop never waits for one. A
/// frame is not held back for a frame callback: the compositor shows the latest commit at its next repaint, so
/// committing at once costs nothing on screen and keeps touch → commit under a millisecond.
final class WaylandPresenter {
    private let connection: WaylandConnection
    private let shm: OpaquePointer
    private let surface: OpaquePointer
    private var buffers: [ShmBuffer] = []
    /// Damage drawn into the canvas and not yet committed.
    private var uncommitted = DamageRegion()
    /// The canvas the last frame was drawn into (a commit that waited for a buffer copies from it).
    private var canvas: CairoSurface?
    /// False until the compositor has configured the window: xdg-shell forbids a buffer before that.
    var isConfigured = false {
        didSet { if isConfigured { commitWaitingFrame() } }
    }

    static let bufferLimit = 3

    /// Whether the compositor has shown a frame of the window (its first frame callback came): the window is
    /// mapped, and input reaches it from then on.
    private(set) var hasShownFirstFrame = false
    private var firstFrameCallback: OpaquePointer?
    private let callbackListener: WaylandListener<wl_callback_listener>
    /// With `--trace-frames`: asks, for every commit, when it reached the screen.
    var presentationClock: PresentationClock?

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
        "frames: wl_shm buffers (up to \(Self.bufferLimit)), only the damage copied in and announced"
    }

    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        try CairoSurface(width: width, height: height)
    }

    func present(_ canvas: CairoSurface, region: DamageRegion) {
        canvas.flush()
        if self.canvas !== canvas {
            // A new canvas (a resize): every buffer must be filled from it again.
            self.canvas = canvas
            let all = DamageRegion(Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)))
            for buffer in buffers { buffer.stale = all }
            uncommitted = all
        }
        for buffer in buffers { buffer.stale.add(region) }
        uncommitted.add(region)
        commitWaitingFrame()
    }

    /// Commits the damage waiting in `uncommitted`, if the window is configured and a buffer is free.
    private func commitWaitingFrame() {
        guard isConfigured, let canvas, !uncommitted.isEmpty, let buffer = freeBuffer(for: canvas) else { return }
        copy(buffer.stale, from: canvas, into: buffer)
        buffer.stale = DamageRegion()
        wl_surface_attach(surface, buffer.buffer, 0, 0)
        for rect in uncommitted.coalesced() {
            guard let box = Self.pixelBox(rect, width: canvas.width, height: canvas.height) else { continue }
            wl_surface_damage_buffer(surface, Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        }
        uncommitted = DamageRegion()
        buffer.markAttached()
        if !hasShownFirstFrame, firstFrameCallback == nil {
            firstFrameCallback = wl_surface_frame(surface)
            wl_callback_add_listener(firstFrameCallback, callbackListener.pointer, listenerData(self))
        }
        presentationClock?.requestFeedback(for: surface)
        wl_surface_commit(surface)
        connection.flush()
    }

    /// A buffer of the canvas's size the compositor does not hold: one of the free ones, or a new one while there
    /// are fewer than `bufferLimit`. Free buffers of another size (from before a resize) go first.
    private func freeBuffer(for canvas: CairoSurface) -> ShmBuffer? {
        buffers.removeAll { !$0.isBusy && ($0.width != canvas.width || $0.height != canvas.height) }
        if let free = buffers.first(where: { !$0.isBusy }) { return free }
        guard buffers.count < Self.bufferLimit else { return nil }
        do {
            let buffer = try ShmBuffer(connection: connection, shm: shm, width: canvas.width, height: canvas.height) {
                [weak self] in
                self?.commitWaitingFrame()
            }
            buffers.append(buffer)
            return buffer
        } catch {
            return nil
        }
    }

    /// Copies `region`'s pixels, row by row, from the canvas into the buffer (same size, same pixel layout).
    private func copy(_ region: DamageRegion, from canvas: CairoSurface, into buffer: ShmBuffer) {
        guard let source = cairo_image_surface_get_data(canvas.pointer) else { return }
        let sourceStride = Int(cairo_image_surface_get_stride(canvas.pointer))
        for rect in region.coalesced() {
            guard let box = Self.pixelBox(rect, width: buffer.width, height: buffer.height) else { continue }
            for row in box.y..<(box.y + box.height) {
                memcpy(
                    buffer.pixels + row * buffer.stride + box.x * 4, source + row * sourceStride + box.x * 4,
                    box.width * 4)
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
