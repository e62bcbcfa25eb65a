import CCairo
import CX11
import TouchKit
import TouchTracker
import TouchTrackerRender

/// Shows finished frames of the off-screen canvas in the window, one damaged rectangle at a time, so no half-drawn
/// frame is ever visible.
///
/// Where the window's visual stores a pixel as Cairo's RGB24 does (TrueColor, 8 bits a channel in 32-bit words:
/// every desktop today) and the server shares memory (MIT-SHM), the canvas it makes (`makeCanvas`) lies in the
/// shared image: a frame is drawn where the server reads it and shown with `XShmPutImage`, a request of a few
/// bytes per rectangle, with no copy of the pixels (for a line across a 1920x1080 window that copy was ~0.2 ms of
/// every move's frame). Before drawing, `prepareToDraw` waits until the server has read the last frame. Without
/// shared memory, each rectangle goes with one `XPutImage` straight from the canvas's memory. (Cairo's Xlib surface
/// would make the same copy, but through a 16 MiB MIT-SHM pool that it walks across chunk by chunk, so the app's
/// resident memory would creep up by megabytes over minutes of drawing.) Any other visual keeps
/// the Cairo Xlib path, which converts pixel formats.
final class WindowPresenter {
    private enum Path {
        /// XPutImage from the canvas's pixels, through this graphics context.
        case putImage(GC)
        /// Cairo paints the canvas onto an Xlib surface of the window.
        case cairoXlib(CairoSurface, CairoContext)
    }

    private let window: X11Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let path: Path
    /// The shared image frames go through on the `putImage` path; nil before the first frame and where the server
    /// cannot share memory.
    private var shared: SharedImage?
    /// False once the server could not attach a segment: it will not later.
    private var sharedMemoryWorks = true
    /// Called with each shared image's size as it is made after the first (for `--verbose`).
    var onSharedImageMade: ((_ width: Int, _ height: Int) -> Void)?

    init(window: X11Window) throws(CairoError) {
        let display = window.display
        visual = XDefaultVisual(display.pointer, display.screen)
        depth = XDefaultDepth(display.pointer, display.screen)
        self.window = window
        if Self.storesPixelsAsCairoRGB24(display: display, visual: visual, depth: depth),
            let gc = XCreateGC(display.pointer, window.id, 0, nil)
        {
            path = .putImage(gc)
            shared = makeSharedImage(width: window.width, height: window.height)
        } else {
            let surface = try CairoSurface(
                taking: cairo_xlib_surface_create(
                    display.pointer, window.id, visual, Int32(window.width), Int32(window.height)),
                operation: "cairo_xlib_surface_create")
            path = .cairoXlib(surface, try CairoContext(surface: surface))
        }
    }

    deinit {
        if case .putImage(let gc) = path { XFreeGC(window.display.pointer, gc) }
    }

    /// How frames reach the server, for `--verbose`.
    var presentationDescription: String {
        guard case .putImage = path else {
            return "frames: through a Cairo Xlib surface (the visual is not 24-bit TrueColor)"
        }
        return sharedMemoryWorks
            ? "frames: XShmPutImage from shared memory (MIT-SHM; the window's canvas is drawn there, waiting for the "
                + "server to have read the last frame; a canvas elsewhere is copied in, or sent with XPutImage while "
                + "the server still reads the last one)"
            : "frames: XPutImage from the canvas's memory (the server shares no memory with this process)"
    }

    /// A canvas for frames of a `width` x `height` window. Where the server shares memory, its pixels are the shared
    /// image's, so `present` sends the server only where to look: no copy of the pixels a frame changed. Elsewhere
    /// a canvas in the process's memory.
    func makeCanvas(width: Int, height: Int) throws(CairoError) -> CairoSurface {
        guard case .putImage = path, let image = sharedImage(width: width, height: height, replacing: false) else {
            return try CairoSurface(width: width, height: height, format: .screen)
        }
        // The image becomes the presenter's only once a canvas is made on it: if that fails, the renderer keeps its
        // canvas on the old image, which `prepareToDraw` must then still wait for.
        let canvas = try image.canvas(width: width, height: height)
        shared = image
        return canvas
    }

    /// Call before drawing into `canvas`: where it is the shared image, waits until the server has read the last
    /// frame from it (usually done already), so a frame is never shown half drawn.
    func prepareToDraw(into canvas: CairoSurface) {
        guard let shared, shared.holds(canvas) else { return }
        shared.waitUntilRead()
    }

    func resize(width: Int, height: Int) {
        if case .cairoXlib(let surface, _) = path {
            cairo_xlib_surface_set_size(surface.pointer, Int32(width), Int32(height))
        }
    }

    /// Shows `region` of `canvas` in the window: one copy per rectangle of the region.
    func present(_ canvas: CairoSurface, region: DamageRegion) {
        switch path {
        case .putImage(let gc):
            canvas.flush()
            // A long line's band is a hundred small boxes: sent as a few dozen larger ones, since each is a
            // request the server handles on its own.
            let rects = region.coalesced().compactMap { Self.pixelRect($0, width: canvas.width, height: canvas.height) }
            if let shared, shared.holds(canvas) {
                shared.show(rects, window: window.id, gc: gc)
            } else if let shared = sharedImage(width: canvas.width, height: canvas.height), !shared.isBusy,
                let pixels = cairo_image_surface_get_data(canvas.pointer)
            {
                shared.put(
                    rects, from: pixels, stride: Int(cairo_image_surface_get_stride(canvas.pointer)),
                    window: window.id, gc: gc)
            } else {
                for rect in rects { putImage(canvas, rect: rect, gc: gc) }
            }
        case .cairoXlib(let surface, let context):
            context.save()
            context.clip(to: region)
            context.paint(canvas)
            context.restore()
            surface.flush()
        }
        window.display.flush()
    }

    /// The shared image for frames of a `width` x `height` window: made at the first frame, and again only when the
    /// window outgrows it. A window that shrinks keeps it: making an image is mostly the kernel faulting in its
    /// pages, on the loop (~24 ms for 3840x2160), so a window maximized, restored and maximized again would pay it
    /// at every maximize, and giving it back costs the loop too. Its sides are rounded up to 256 px, so dragging a
    /// window's edge does not make a segment (and a round trip) per step. A canvas made on the old one keeps it
    /// until the canvas goes. A new image becomes the presenter's at once unless `replacing` is false.
    private func sharedImage(width: Int, height: Int, replacing: Bool = true) -> SharedImage? {
        guard sharedMemoryWorks else { return nil }
        if let shared, width <= shared.width, height <= shared.height { return shared }
        let image = makeSharedImage(width: width, height: height)
        if replacing { shared = image }
        return image
    }

    /// A shared image at least `width` x `height`, or nil (and never again) where the server cannot share memory.
    private func makeSharedImage(width: Int, height: Int) -> SharedImage? {
        let roundedUp = { (side: Int) in (side + 255) / 256 * 256 }
        let image = SharedImage(
            display: window.display, visual: visual, depth: depth, width: roundedUp(width), height: roundedUp(height))
        if image == nil { sharedMemoryWorks = false }
        if let image { onSharedImageMade?(image.width, image.height) }
        return image
    }

    /// `rect` in whole pixels inside a `width` x `height` canvas (rounded out as the renderer draws it), or nil
    /// when nothing of it is.
    private static func pixelRect(_ rect: Rect, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let box = PixelBox(rect, width: width, height: height)
        return box.isEmpty ? nil : (box.x0, box.y0, box.x1 - box.x0, box.y1 - box.y0)
    }

    private func putImage(_ canvas: CairoSurface, rect: (x: Int, y: Int, width: Int, height: Int), gc: GC) {
        guard let pixels = cairo_image_surface_get_data(canvas.pointer),
            let image = XCreateImage(
                window.display.pointer, visual, UInt32(depth), ZPixmap, 0,
                UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: CChar.self), UInt32(canvas.width),
                UInt32(canvas.height), 32, cairo_image_surface_get_stride(canvas.pointer))
        else { return }
        defer { cx11_destroy_image_keeping_pixels(image) }
        // Cairo keeps each pixel as a native-endian 32-bit word; Xlib swaps bytes if the server wants another order.
        image.pointee.byte_order = Self.hostByteOrder
        XPutImage(
            window.display.pointer, window.id, gc, image, Int32(rect.x), Int32(rect.y), Int32(rect.x), Int32(rect.y),
            UInt32(rect.width), UInt32(rect.height))
    }

    private static let hostByteOrder: Int32 = UInt32(1).littleEndian == 1 ? LSBFirst : MSBFirst

    /// TrueColor with red, green and blue in the bytes Cairo's RGB24 uses, and 32 bits a pixel in a ZPixmap image.
    private static func storesPixelsAsCairoRGB24(
        display: X11Display, visual: UnsafeMutablePointer<Visual>, depth: Int32
    ) -> Bool {
        let v = visual.pointee
        guard v.`class` == TrueColor, v.red_mask == 0xFF_0000, v.green_mask == 0xFF00, v.blue_mask == 0xFF,
            depth == 24 || depth == 32
        else { return false }
        // Xlib picks the bits per pixel from the server's pixmap formats for this depth.
        var pixel: UInt32 = 0
        return withUnsafeMutableBytes(of: &pixel) { bytes in
            guard
                let image = XCreateImage(
                    display.pointer, visual, UInt32(depth), ZPixmap, 0,
                    bytes.baseAddress!.assumingMemoryBound(to: CChar.self), 1, 1, 32, 4)
            else { return false }
            defer { cx11_destroy_image_keeping_pixels(image) }
            return image.pointee.bits_per_pixel == 32
        }
    }
}
