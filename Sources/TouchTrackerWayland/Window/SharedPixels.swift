internal import CWayland
import Glibc

/// An anonymous shared-memory file and its mapping: the pixels of a frame buffer. Unmapped and closed in one place,
/// when the last of its owners (the buffer, the Cairo canvas over it) lets go.
final class SharedPixels {
    let fd: Int32
    let size: Int
    let memory: UnsafeMutableRawPointer

    init(size: Int, what: String) throws(WaylandError) {
        fd = cwayland_memfd_create("touchtracker-frame")
        guard fd >= 0 else { throw WaylandError("cannot make \(what): \(String(cString: strerror(errno)))") }
        guard ftruncate(fd, off_t(size)) == 0,
            let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != MAP_FAILED
        else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw WaylandError("cannot make \(what): \(reason)")
        }
        self.size = size
        memory = mapped
    }

    deinit {
        munmap(memory, size)
        close(fd)
    }
}
