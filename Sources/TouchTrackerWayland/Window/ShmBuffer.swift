internal import CWayland
import Glibc
import TouchKit
import TouchTracker

/// One `wl_buffer` of `width` x `height` XRGB8888 pixels (Cairo's RGB24 layout) in an anonymous shared-memory file
/// the compositor maps too. Owns the file, its mapping, the pool and the buffer, and frees them in one place.
///
/// The compositor holds the buffer from the commit that attaches it until it sends `release`: meanwhile its pixels
/// must not change, so `isBusy` is true.
final class ShmBuffer {
    let width: Int
    let height: Int
    let stride: Int
    let buffer: OpaquePointer
    let pixels: UnsafeMutableRawPointer
    private(set) var isBusy = false
    /// The canvas's pixels this buffer lacks (drawn into the canvas since the buffer was last filled).
    var stale: DamageRegion
    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    private let pool: OpaquePointer
    private let fd: Int32
    private let size: Int
    private let listener: WaylandListener<wl_buffer_listener>
    /// Called when the compositor gives the buffer back.
    private let released: () -> Void

    init(
        connection: WaylandConnection, shm: OpaquePointer, width: Int, height: Int, released: @escaping () -> Void
    ) throws(WaylandError) {
        self.connection = connection
        self.width = width
        self.height = height
        stride = width * 4
        size = stride * height
        self.released = released
        stale = DamageRegion(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        fd = cwayland_memfd_create("touchtracker-frame")
        guard fd >= 0 else { throw WaylandError("cannot make a frame buffer: \(String(cString: strerror(errno)))") }
        guard ftruncate(fd, off_t(size)) == 0,
            let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED
        else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw WaylandError("cannot make a \(width)x\(height) frame buffer: \(reason)")
        }
        pixels = mapped
        pool = wl_shm_create_pool(shm, fd, Int32(size))
        buffer = wl_shm_pool_create_buffer(
            pool, 0, Int32(width), Int32(height), Int32(stride), WL_SHM_FORMAT_XRGB8888.rawValue)
        listener = WaylandListener(
            wl_buffer_listener(release: { data, _ in
                let owner = listenerOwner(data, as: ShmBuffer.self)
                owner.isBusy = false
                owner.released()
            }))
        wl_buffer_add_listener(buffer, listener.pointer, listenerData(self))
    }

    deinit {
        wl_buffer_destroy(buffer)
        wl_shm_pool_destroy(pool)
        munmap(pixels, size)
        close(fd)
    }

    /// The buffer is attached and committed: the compositor holds it until `release`.
    func markAttached() {
        isBusy = true
    }
}
