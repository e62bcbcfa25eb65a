import CCairo
import Glibc
import TouchKit

/// Owns one `cairo_surface_t`. The surface is destroyed when this object goes away.
public final class CairoSurface {
    public let pointer: OpaquePointer

    /// Takes ownership of a surface Cairo created, checking its status.
    public init(taking pointer: OpaquePointer, operation: String) throws(CairoError) {
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(pointer)
            throw CairoError(operation, status)
        }
        self.pointer = pointer
    }

    /// How an in-memory surface keeps its pixels.
    public enum PixelFormat: Sendable {
        /// Opaque RGB, the fourth byte unused (Cairo's RGB24): pictures for files, whose PNGs are RGB.
        case rgb
        /// Opaque RGB with the fourth byte 0xff (ARGB32, painted opaque): what the screen is handed, so screenshot
        /// and screen-recording tools that read that byte as alpha see the window (DESIGN.md §3a).
        case screen
        /// With an alpha channel (ARGB32): the icon.
        case transparent

        var cairoFormat: cairo_format_t { self == .rgb ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32 }
    }

    /// An in-memory surface, opaque RGB unless `format` says otherwise.
    public convenience init(width: Int, height: Int, format: PixelFormat = .rgb) throws(CairoError) {
        try self.init(
            taking: cairo_image_surface_create(format.cairoFormat, Int32(max(1, width)), Int32(max(1, height))),
            operation: "cairo_image_surface_create(\(width)x\(height))")
    }

    /// A `.screen` image surface over `memory` that someone else owns (`width` x `height` pixels, `stride` bytes a
    /// row): the window's shared image or `wl_shm` buffer, so frames are drawn where the display server reads them
    /// (as XRGB: the fourth byte, 0xff here, is unused by the server, and read as alpha by screenshot tools). The
    /// surface keeps `owner`, the memory's owner, alive until Cairo destroys the surface.
    public convenience init(
        wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, keepingAlive owner: AnyObject
    ) throws(CairoError) {
        guard width > 0, height > 0, stride >= width * 4 else {
            throw CairoError("cairo_image_surface_create_for_data(\(width)x\(height))", CAIRO_STATUS_INVALID_SIZE)
        }
        let surface = cairo_image_surface_create_for_data(
            memory.assumingMemoryBound(to: UInt8.self), PixelFormat.screen.cairoFormat, Int32(width), Int32(height),
            Int32(stride))!
        try self.init(taking: surface, operation: "cairo_image_surface_create_for_data(\(width)x\(height))")
        let retained = Unmanaged.passRetained(owner).toOpaque()
        let status = cairo_surface_set_user_data(pointer, &memoryOwnerKey, retained) {
            Unmanaged<AnyObject>.fromOpaque($0!).release()
        }
        if status != CAIRO_STATUS_SUCCESS {
            // Out of memory for the user data: Cairo will not call back, so the retain is given back here.
            Unmanaged<AnyObject>.fromOpaque(retained).release()
            throw CairoError("cairo_surface_set_user_data", status)
        }
    }

    /// Reads a PNG file into an image surface.
    public convenience init(readingPNG path: String) throws(CairoError) {
        try self.init(taking: cairo_image_surface_create_from_png(path), operation: "reading PNG \(path)")
    }

    deinit {
        cairo_surface_destroy(pointer)
    }

    public var width: Int { Int(cairo_image_surface_get_width(pointer)) }
    public var height: Int { Int(cairo_image_surface_get_height(pointer)) }

    /// Makes pending drawing visible to whoever reads the surface's memory or window.
    public func flush() {
        cairo_surface_flush(pointer)
    }

    /// Ends drawing on a paged surface (SVG, PDF) so its file is complete.
    public func finish() throws(CairoError) {
        cairo_surface_finish(pointer)
        let status = cairo_surface_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError("cairo_surface_finish", status) }
    }

    /// The surface as a PNG file's bytes, kept in memory (for the clipboard).
    public func pngBytes() throws(CairoError) -> [UInt8] {
        flush()
        // Cairo hands the file over in pieces to a C callback, which finds the buffer through its context pointer.
        final class Sink {
            var bytes: [UInt8] = []
        }
        let sink = Sink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(
                pointer,
                { context, data, length in
                    guard let context, let data else { return CAIRO_STATUS_WRITE_ERROR }
                    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
                    sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(sink).toOpaque())
        }
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError("writing PNG data", status) }
        return sink.bytes
    }

    /// The colour of one pixel of an image surface as 8-bit red, green, blue.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8)? {
        flush()
        guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(pointer) else {
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(pointer))
        let word = (data + y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return (UInt8((word >> 16) & 0xFF), UInt8((word >> 8) & 0xFF), UInt8(word & 0xFF))
    }
}

extension CairoSurface {
    /// Tells Cairo that this surface's memory was written directly.
    func markDirty() {
        cairo_surface_mark_dirty(pointer)
    }
}

/// The key under which a surface over borrowed memory keeps the memory's owner. Cairo only compares the key's
/// address and never reads or writes it, so no thread ever touches its contents.
nonisolated(unsafe) private var memoryOwnerKey = cairo_user_data_key_t()
