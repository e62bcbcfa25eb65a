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

    /// An in-memory RGB surface (no alpha channel: the canvas is opaque).
    public convenience init(width: Int, height: Int, opaque: Bool = true) throws(CairoError) {
        let format = opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32
        try self.init(
            taking: cairo_image_surface_create(format, Int32(max(1, width)), Int32(max(1, height))),
            operation: "cairo_image_surface_create(\(width)x\(height))")
    }

    /// An RGB24 image surface over `memory` that someone else owns (`width` x `height` pixels, `stride` bytes a
    /// row): the window's shared image, so frames are drawn where the X server reads them. The surface keeps
    /// `owner`, the memory's owner, alive until Cairo destroys the surface.
    public convenience init(
        wrapping memory: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int, keepingAlive owner: AnyObject
    ) throws(CairoError) {
        guard width > 0, height > 0, stride >= width * 4 else {
            throw CairoError("cairo_image_surface_create_for_data(\(width)x\(height))", CAIRO_STATUS_INVALID_SIZE)
        }
        let surface = cairo_image_surface_create_for_data(
            memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))!
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

/// Whole pixels of an image surface: the pixels a window rectangle touches, rounded out and cut to the surface.
/// (The platform rounds the rectangles it presents the same way.)
public struct PixelBox: Equatable, Sendable {
    public var x0, y0, x1, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    init(_ rect: Rect, within surface: CairoSurface) {
        self.init(rect, width: surface.width, height: surface.height)
    }

    /// The pixels `rect` touches in a `width` x `height` image: empty for an empty or not finite rectangle.
    public init(_ rect: Rect, width: Int, height: Int) {
        guard !rect.isEmpty, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            self.init(x0: 0, y0: 0, x1: 0, y1: 0)
            return
        }
        let limitX = Double(width)
        let limitY = Double(height)
        self.init(
            x0: Int(min(limitX, max(0, rect.minX.rounded(.down)))),
            y0: Int(min(limitY, max(0, rect.minY.rounded(.down)))),
            x1: Int(min(limitX, max(0, rect.maxX.rounded(.up)))), y1: Int(min(limitY, max(0, rect.maxY.rounded(.up)))))
    }

    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    func intersection(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }
}

/// The memory of an RGB24 image surface, looked up once (each of Cairo's getters is a call): for copying and filling
/// runs of pixels directly. Valid while the surface lives; call `flush` on it before and `markDirty` after a run of
/// writes, so Cairo knows its memory was written behind its back.
struct ImagePixels {
    let data: UnsafeMutableRawPointer
    let stride: Int
    let width: Int
    let height: Int

    init?(_ surface: CairoSurface) {
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return nil }
        self.data = UnsafeMutableRawPointer(data)
        stride = Int(cairo_image_surface_get_stride(surface.pointer))
        width = Int(cairo_image_surface_get_width(surface.pointer))
        height = Int(cairo_image_surface_get_height(surface.pointer))
    }

    /// Copies into `box` of these pixels the same pixels of `source`, whose top-left corner lies at `origin` of
    /// these: only the part of the box that the source covers, and that lies in these pixels.
    func copy(from source: ImagePixels, at origin: (x: Int, y: Int), into box: PixelBox) {
        let x0 = max(box.x0, origin.x, 0)
        let x1 = min(box.x1, origin.x + source.width, width)
        let y0 = max(box.y0, origin.y, 0)
        let y1 = min(box.y1, origin.y + source.height, height)
        guard x1 > x0, y1 > y0 else { return }
        let rowBytes = (x1 - x0) * 4
        var target = data + y0 * stride + x0 * 4
        var pixels = UnsafeRawPointer(source.data + (y0 - origin.y) * source.stride + (x0 - origin.x) * 4)
        for _ in y0..<y1 {
            target.copyMemory(from: pixels, byteCount: rowBytes)
            target += stride
            pixels += source.stride
        }
    }

    /// Fills `box` (cut to these pixels) with one opaque colour.
    func fill(_ box: PixelBox, with color: Color) {
        let x0 = max(box.x0, 0)
        let x1 = min(box.x1, width)
        let y0 = max(box.y0, 0)
        let y1 = min(box.y1, height)
        guard x1 > x0, y1 > y0 else { return }
        func channel(_ value: Double) -> UInt32 { UInt32((min(1, max(0, value)) * 255).rounded()) }
        // Cairo's RGB24 keeps each pixel as a native 32-bit word (as `CairoSurface.pixel(x:y:)` reads it).
        let word = channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
        for y in y0..<y1 {
            (data + y * stride + x0 * 4).assumingMemoryBound(to: UInt32.self).update(repeating: word, count: x1 - x0)
        }
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
