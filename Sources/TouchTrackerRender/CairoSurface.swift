import CCairo

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

    /// An in-memory RGB surface (no alpha channel: the canvas is opaque).
    public convenience init(width: Int, height: Int, opaque: Bool = true) throws(CairoError) {
        let format = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        try self.init(
            taking: cairo_image_surface_create(format, Int32(max(1, width)), Int32(max(1, height))),
            operation: "cairo_image_surface_create(\(width)x\(height))")
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

    public func writePNG(to path: String) throws(CairoError) {
        flush()
        let status = cairo_surface_write_to_png(pointer, path)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError("writing PNG \(path)", status) }
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
