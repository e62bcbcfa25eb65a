import CCairo
import TouchKit

/// The memory of an opaque image surface (RGB24, or ARGB32 painted opaque), looked up once (each of Cairo's getters is a call): for copying and filling
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
        let word = color.opaqueWord
        for y in y0..<y1 {
            (data + y * stride + x0 * 4).assumingMemoryBound(to: UInt32.self).update(repeating: word, count: x1 - x0)
        }
    }
}

extension Color {
    /// The colour as an opaque pixel word. Cairo keeps each pixel as a native 32-bit word (as
    /// `CairoSurface.pixel(x:y:)` reads it); the top byte is opaque alpha for the screen's ARGB32 surfaces, and
    /// unused in RGB24 ones.
    var opaqueWord: UInt32 {
        func channel(_ value: Double) -> UInt32 { UInt32((min(1, max(0, value)) * 255).rounded()) }
        return 0xFF00_0000 | channel(red) << 16 | channel(green) << 8 | channel(blue)
    }
}
