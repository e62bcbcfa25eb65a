import CCairo
import TouchKit
import TouchTracker

/// Owns one `cairo_t` and keeps its target surface alive while it draws.
public final class CairoContext {
    public let pointer: OpaquePointer
    public let surface: CairoSurface

    public init(surface: CairoSurface) throws(CairoError) {
        let context = cairo_create(surface.pointer)!
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(context)
            throw CairoError("cairo_create", status)
        }
        self.pointer = context
        self.surface = surface
    }

    deinit {
        cairo_destroy(pointer)
    }

    public func save() { cairo_save(pointer) }

    /// Throws if Cairo recorded an error while drawing (Cairo's calls do not fail one by one).
    public func checkStatus(_ operation: String) throws(CairoError) {
        let status = cairo_status(pointer)
        guard status == CAIRO_STATUS_SUCCESS else { throw CairoError(operation, status) }
    }
    public func restore() { cairo_restore(pointer) }

    public func setColor(_ color: Color) {
        cairo_set_source_rgba(pointer, color.red, color.green, color.blue, color.alpha)
    }

    /// Restricts drawing to `rect`, rounded out to whole pixels (so edges are not blended twice).
    public func clip(to rect: Rect) {
        let x0 = rect.minX.rounded(.down)
        let y0 = rect.minY.rounded(.down)
        cairo_rectangle(pointer, x0, y0, rect.maxX.rounded(.up) - x0, rect.maxY.rounded(.up) - y0)
        cairo_clip(pointer)
    }

    /// Lifts every clip (until the next `restore`).
    public func resetClip() {
        cairo_reset_clip(pointer)
    }

    /// Restricts drawing to the rectangles of `region`, each rounded out to whole pixels.
    public func clip(to region: DamageRegion) {
        for rect in region.rects {
            let x0 = rect.minX.rounded(.down)
            let y0 = rect.minY.rounded(.down)
            cairo_rectangle(pointer, x0, y0, rect.maxX.rounded(.up) - x0, rect.maxY.rounded(.up) - y0)
        }
        cairo_clip(pointer)
    }

    public func fill(_ rect: Rect) {
        cairo_rectangle(pointer, rect.minX, rect.minY, rect.width, rect.height)
        cairo_fill(pointer)
    }

    /// Paints another surface at the origin, within the current clip.
    public func paint(_ source: CairoSurface) {
        cairo_set_source_surface(pointer, source.pointer, 0, 0)
        cairo_set_operator(pointer, CAIRO_OPERATOR_SOURCE)
        cairo_paint(pointer)
        cairo_set_operator(pointer, CAIRO_OPERATOR_OVER)
    }

    /// Strokes one straight line with round caps.
    public func stroke(_ line: Line, width: Double) {
        cairo_set_line_width(pointer, width)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairo_move_to(pointer, line.begin.x, line.begin.y)
        cairo_line_to(pointer, line.end.x, line.end.y)
        cairo_stroke(pointer)
    }
}

extension CairoContext {
    /// Fills the whole clip with one colour, replacing what was there.
    public func paint(solid color: Color) {
        setColor(color)
        cairo_set_operator(pointer, CAIRO_OPERATOR_SOURCE)
        cairo_paint(pointer)
        cairo_set_operator(pointer, CAIRO_OPERATOR_OVER)
    }
}

extension CairoContext {
    /// Moves the origin: what is drawn next at (x, y) lands at (x + dx, y + dy).
    public func translate(x dx: Double, y dy: Double) {
        cairo_translate(pointer, dx, dy)
    }

    /// Scales what is drawn next by `factor` in both directions (drawing units to a screen's pixels).
    public func scale(by factor: Double) {
        guard factor != 1 else { return }
        cairo_scale(pointer, factor, factor)
    }
}
