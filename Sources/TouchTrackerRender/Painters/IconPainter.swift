import CCairo
import TouchKit
import TouchTracker

/// Draws the application icon (the picture of `Resources/touchtracker.svg`) at any size, for `_NET_WM_ICON`.
public enum IconPainter {
    /// The icon as `size` x `size` pixels, row by row, each 0xAARRGGBB with straight (not premultiplied) alpha, as
    /// `_NET_WM_ICON` wants them.
    public static func argb(size: Int) throws(CairoError) -> [UInt32] {
        let surface = try CairoSurface(width: size, height: size, format: .transparent)
        let context = try CairoContext(surface: surface)
        let cr = context.pointer
        // The SVG's 128-unit view box.
        cairo_scale(cr, Double(size) / 128, Double(size) / 128)
        cairo_new_sub_path(cr)
        let (x0, y0, x1, y1, r) = (8.0, 8.0, 120.0, 120.0, 16.0)
        cairo_arc(cr, x1 - r, y0 + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x1 - r, y1 - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x0 + r, y1 - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x0 + r, y0 + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
        context.setColor(.white)
        cairo_fill_preserve(cr)
        context.setColor(Color(red: 0x8c / 255, green: 0x8c / 255, blue: 0x99 / 255))
        cairo_set_line_width(cr, 4)
        cairo_stroke(cr)
        context.setColor(.black)
        context.stroke(Line(begin: Point(x: 28, y: 40), end: Point(x: 100, y: 28)), width: 10)
        context.stroke(Line(begin: Point(x: 28, y: 100), end: Point(x: 64, y: 56)), width: 10)
        context.setColor(.red)
        context.stroke(Line(begin: Point(x: 56, y: 100), end: Point(x: 96, y: 80)), width: 10)
        cairo_arc(cr, 96, 80, 12, 0, 2 * Double.pi)
        context.setColor(Color(red: 0x35 / 255, green: 0x78 / 255, blue: 0xdb / 255, alpha: 0.5))
        cairo_fill(cr)
        try context.checkStatus("drawing the icon")
        surface.flush()
        guard let data = cairo_image_surface_get_data(surface.pointer) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        var pixels: [UInt32] = []
        pixels.reserveCapacity(size * size)
        for y in 0..<size {
            let row = UnsafeRawPointer(data + y * stride)
            for x in 0..<size {
                let word = row.load(fromByteOffset: x * 4, as: UInt32.self)
                pixels.append(unpremultiplied(word))
            }
        }
        return pixels
    }

    /// Cairo stores premultiplied alpha; X icon properties expect straight alpha.
    private static func unpremultiplied(_ word: UInt32) -> UInt32 {
        let alpha = word >> 24
        guard alpha != 0, alpha != 255 else { return alpha == 0 ? 0 : word }
        func channel(_ shift: UInt32) -> UInt32 {
            min(255, (((word >> shift) & 0xFF) * 255 + alpha / 2) / alpha) << shift
        }
        return alpha << 24 | channel(16) | channel(8) | channel(0)
    }
}
