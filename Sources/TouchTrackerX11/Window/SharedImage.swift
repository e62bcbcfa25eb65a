import CCairo
import CX11
import Glibc
import TouchTrackerRender

/// A window-sized image in a System V shared memory segment that the X server reads directly (MIT-SHM). The
/// drawing window's canvas lies in it (`canvas`): a frame is drawn there and its damaged rectangles are shown with
/// `XShmPutImage` (`show`), a request of a few bytes each, instead of sending every pixel through the socket
/// (`XPutImage`); for a line across a 1920x1080 window that is ~300 KB per move the server no longer has to read.
/// A canvas elsewhere (the demo window's) has its rectangles copied in first (`put`).
///
/// The server reads the memory when it handles the request, later than the call returns, so the image is busy
/// until the completion event of its last put has arrived. Before the next frame is drawn into a canvas here,
/// `waitUntilRead` waits for that (one round trip, only while busy); a copied-in frame is sent the other way
/// meanwhile rather than written into memory the server may be reading.
///
/// Owns the segment, its `XShmSegmentInfo` (Xlib keeps a pointer to it in the image) and the image; all three go
/// in `deinit`. The segment is marked for removal as soon as the server has attached it, so it cannot outlive the
/// process, however it ends.
final class SharedImage {
    let width: Int
    let height: Int
    private let display: X11Display
    private let image: UnsafeMutablePointer<XImage>
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    /// The sequence number of the last put that asks for a completion event (0: none yet).
    private var lastPutSequence: UInt = 0

    /// A shared image, or nil where the server cannot share memory with this process (no MIT-SHM, a remote
    /// display, another IPC namespace): then frames go through the socket.
    init?(display: X11Display, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int) {
        guard width > 0, height > 0, XShmQueryExtension(display.pointer) != 0 else { return nil }
        let segment = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        guard
            let image = XShmCreateImage(
                display.pointer, visual, UInt32(depth), ZPixmap, nil, segment, UInt32(width), UInt32(height)),
            image.pointee.bits_per_pixel == 32
        else {
            segment.deallocate()
            return nil
        }
        let bytes = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
        let id = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
        let address = id >= 0 ? shmat(id, nil, 0) : nil
        guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            if id >= 0 { shmctl(id, IPC_RMID, nil) }
            cx11_destroy_image_keeping_pixels(image)
            segment.deallocate()
            return nil
        }
        segment.pointee.shmid = id
        segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        segment.pointee.readOnly = 0
        image.pointee.data = segment.pointee.shmaddr
        // The attach fails with an X error, not a return value, where the server cannot reach the segment.
        let attached = display.withErrorsTrapped {
            XShmAttach(display.pointer, segment)
            display.sync()
        }
        shmctl(id, IPC_RMID, nil)
        guard attached else {
            shmdt(address)
            cx11_destroy_image_keeping_pixels(image)
            segment.deallocate()
            return nil
        }
        self.display = display
        self.image = image
        self.segment = segment
        self.width = width
        self.height = height
    }

    deinit {
        // Requests are handled in order: puts already sent are read before the detach.
        XShmDetach(display.pointer, segment)
        display.flush()
        shmdt(segment.pointee.shmaddr)
        cx11_destroy_image_keeping_pixels(image)
        segment.deallocate()
    }

    /// Whether the server may still be reading the memory for an earlier put. Xlib learns how far the server got
    /// from every event and reply it reads, the put's completion event among them.
    var isBusy: Bool {
        lastPutSequence != 0 && XLastKnownRequestProcessed(display.pointer) < lastPutSequence
    }

    /// A canvas of `width` x `height` (at most the image's size) whose pixels are this image's memory: frames drawn
    /// into it need no copy before `show`. The canvas keeps the image (and its segment) alive.
    func canvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        precondition(width <= self.width && height <= self.height, "a canvas larger than its shared image")
        return try CairoSurface(
            wrapping: UnsafeMutableRawPointer(segment.pointee.shmaddr!), width: width, height: height,
            stride: Int(image.pointee.bytes_per_line), keepingAlive: self)
    }

    /// Whether `canvas` draws into this image's memory.
    func holds(_ canvas: CairoSurface) -> Bool {
        cairo_image_surface_get_data(canvas.pointer).map { UnsafeMutableRawPointer($0) }
            == UnsafeMutableRawPointer(segment.pointee.shmaddr)
    }

    /// Copies `rects` of `canvas` (32-bit pixels, `stride` bytes a row, as large as the image) into the shared
    /// memory and shows them. Only while not busy.
    func put(
        _ rects: [(x: Int, y: Int, width: Int, height: Int)], from canvas: UnsafeRawPointer, stride: Int,
        window: Window, gc: GC
    ) {
        let imageStride = Int(image.pointee.bytes_per_line)
        let memory = UnsafeMutableRawPointer(segment.pointee.shmaddr!)
        for rect in rects {
            for row in rect.y..<(rect.y + rect.height) {
                (memory + row * imageStride + rect.x * 4).copyMemory(
                    from: canvas + row * stride + rect.x * 4, byteCount: rect.width * 4)
            }
        }
        show(rects, window: window, gc: gc)
    }

    /// Asks the server to put `rects` of the image in `window`; the image is busy until it has read them.
    func show(_ rects: [(x: Int, y: Int, width: Int, height: Int)], window: Window, gc: GC) {
        for (index, rect) in rects.enumerated() {
            let last = index == rects.count - 1
            if last { lastPutSequence = UInt(XNextRequest(display.pointer)) }
            XShmPutImage(
                display.pointer, window, gc, image, Int32(rect.x), Int32(rect.y), Int32(rect.x), Int32(rect.y),
                UInt32(rect.width), UInt32(rect.height), last ? 1 : 0)
        }
    }

    /// Returns once the server has read the memory for every put so far: one round trip, and only while it is
    /// busy (it has usually finished by the time the next event has arrived).
    func waitUntilRead() {
        guard isBusy else { return }
        display.sync()
    }
}
