internal import CWayland
import Glibc
import TouchKit
import TouchTracker
import TouchTrackerRender

/// One `wl_buffer` of `width` x `height` XRGB8888 pixels (Cairo's RGB24 layout) in an anonymous shared-memory file
/// the compositor maps too, and a Cairo canvas over the same pixels, so a frame is drawn straight where the
/// compositor reads it. Owns the pool and the buffer; the pixels belong to `SharedPixels`, kept alive by the buffer
/// and by the canvas (a renderer may still hold the canvas after the presenter let the buffer go).
///
/// The compositor holds the buffer from the commit that attaches it until it sends `release`: meanwhile its pixels
/// must not change, so `isBusy` is true.
final class ShmBuffer {
    let width: Int
    let height: Int
    let buffer: OpaquePointer
    let pixels: SharedPixels
    /// The pixels as a Cairo canvas.
    let canvas: CairoSurface
    private(set) var isBusy = false
    /// What this buffer lacks of the latest frame: the places drawn in other buffers since it last held it.
    var stale: DamageRegion
    private let pool: OpaquePointer
    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    private let listener: WaylandListener<wl_buffer_listener>

    /// The longest side a frame buffer may have, in pixels (as the X11 window's limit).
    static let largestSide = 16384

    init(connection: WaylandConnection, shm: OpaquePointer, width: Int, height: Int) throws(WaylandError) {
        // Beyond this the buffer's size would not fit the protocol's 32-bit fields.
        guard (1...Self.largestSide).contains(width), (1...Self.largestSide).contains(height) else {
            throw WaylandError(
                "a \(width)x\(height) frame buffer is too large: at most \(Self.largestSide) pixels a side")
        }
        self.connection = connection
        self.width = width
        self.height = height
        pixels = try SharedPixels(size: width * 4 * height, what: "a \(width)x\(height) frame buffer")
        do {
            canvas = try CairoSurface(
                wrapping: pixels.memory, width: width, height: height, stride: width * 4, keepingAlive: pixels)
        } catch {
            throw WaylandError("cannot draw into a \(width)x\(height) frame buffer: \(error)")
        }
        stale = DamageRegion(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        pool = wl_shm_create_pool(shm, pixels.fd, Int32(pixels.size))
        buffer = wl_shm_pool_create_buffer(
            pool, 0, Int32(width), Int32(height), Int32(width * 4), WL_SHM_FORMAT_XRGB8888.rawValue)
        listener = WaylandListener(
            wl_buffer_listener(release: { data, _ in listenerOwner(data, as: ShmBuffer.self).isBusy = false }))
        wl_buffer_add_listener(buffer, listener.pointer, listenerData(self))
    }

    deinit {
        wl_buffer_destroy(buffer)
        wl_shm_pool_destroy(pool)
    }

    var stride: Int { width * 4 }

    /// The buffer is attached and committed: the compositor holds it until `release`.
    func markAttached() {
        isBusy = true
    }
}
