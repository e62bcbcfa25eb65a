import CCairo
import TouchKit
import TouchTracker

/// Draws the overlay above the drawing: the gesture inspector (a ring with its id around every live touch, and a
/// panel listing each recognizer's state) and a notice at the bottom centre. Text uses Cairo's toy font API.
enum OverlayPainter {
    static let touchRadius = 28.0
    static let panelFontSize = 13.0
    static let noticeFontSize = 16.0
    static let inspectorColor = Color(red: 0.1, green: 0.45, blue: 0.95)

    /// The pixels `overlay` covers in a `canvas`-sized window (what to repaint when it appears or goes).
    static func bounds(of overlay: Overlay, canvas: Rect, in context: CairoContext) -> Rect {
        var bounds = Rect.null
        if let inspector = overlay.inspector {
            let s = inspector.scale
            for touch in inspector.touches where touch.location.isFinite {
                let reach = (touchRadius + 4) * s
                // The ring, and the id label to its right.
                bounds = bounds.union(
                    Rect(
                        x: touch.location.x - reach, y: touch.location.y - reach - 24 * s,
                        width: 2 * reach + 120 * s, height: 2 * reach + 24 * s))
            }
            bounds = bounds.union(panelFrame(inspector, in: context))
        }
        if let notice = overlay.notice {
            bounds = bounds.union(noticeFrame(notice, scale: overlay.scale, canvas: canvas, in: context))
        }
        return bounds.isNull ? bounds : bounds.insetBy(dx: -2, dy: -2)
    }

    static func paint(_ overlay: Overlay, canvas: Rect, in context: CairoContext) {
        if let inspector = overlay.inspector { paintInspector(inspector, in: context) }
        if let notice = overlay.notice { paintNotice(notice, scale: overlay.scale, canvas: canvas, in: context) }
    }

    // MARK: Inspector

    private static func panelLines(_ inspector: InspectorSnapshot) -> [String] {
        ["Gesture inspector (F1 hides)", "touches: \(inspector.touches.count)"] + inspector.recognizerLines
    }

    private static func panelFrame(_ inspector: InspectorSnapshot, in context: CairoContext) -> Rect {
        let s = inspector.scale
        let cr = context.pointer
        context.save()
        setFont(cr, size: panelFontSize * s)
        var width = 0.0
        for line in panelLines(inspector) {
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, line, &extents)
            width = max(width, extents.x_advance)
        }
        context.restore()
        let lines = Double(panelLines(inspector).count)
        return Rect(x: 8 * s, y: 8 * s, width: (width + 20 * s).rounded(.up), height: (lines * 20 + 12) * s)
    }

    private static func paintInspector(_ inspector: InspectorSnapshot, in context: CairoContext) {
        let s = inspector.scale
        let cr = context.pointer
        context.save()
        for touch in inspector.touches where touch.location.isFinite {
            let center = touch.location
            cairo_new_path(cr)
            cairo_arc(cr, center.x, center.y, touchRadius * s, 0, 2 * Double.pi)
            context.setColor(Color(red: 0.1, green: 0.45, blue: 0.95, alpha: 0.25))
            cairo_fill_preserve(cr)
            context.setColor(inspectorColor)
            cairo_set_line_width(cr, 3 * s)
            cairo_stroke(cr)
            setFont(cr, size: 14 * s)
            cairo_move_to(cr, center.x + (touchRadius + 4) * s, center.y - (touchRadius - 4) * s)
            cairo_show_text(cr, "#\(touch.id) \(touch.phase)")
        }
        let panel = panelFrame(inspector, in: context)
        context.setColor(Color(red: 0.08, green: 0.08, blue: 0.1, alpha: 0.85))
        context.fill(panel)
        setFont(cr, size: panelFontSize * s)
        for (index, line) in panelLines(inspector).enumerated() {
            context.setColor(index == 0 ? Color(red: 0.55, green: 0.75, blue: 1) : .white)
            cairo_move_to(cr, (panel.minX + 10 * s).rounded(), (panel.minY + (Double(index) * 20 + 22) * s).rounded())
            cairo_show_text(cr, line)
        }
        context.restore()
    }

    // MARK: Notice

    private static func noticeFrame(_ text: String, scale s: Double, canvas: Rect, in context: CairoContext) -> Rect {
        context.save()
        setFont(context.pointer, size: noticeFontSize * s)
        var extents = cairo_text_extents_t()
        cairo_text_extents(context.pointer, text, &extents)
        context.restore()
        let width = (extents.x_advance + 32 * s).rounded(.up)
        let height = (36 * s).rounded(.up)
        return Rect(
            x: ((canvas.width - width) / 2).rounded(), y: (canvas.maxY - height - 24 * s).rounded(), width: width,
            height: height)
    }

    private static func paintNotice(_ text: String, scale s: Double, canvas: Rect, in context: CairoContext) {
        let frame = noticeFrame(text, scale: s, canvas: canvas, in: context)
        let cr = context.pointer
        context.save()
        context.setColor(Color(red: 0.15, green: 0.15, blue: 0.18, alpha: 0.9))
        context.fill(frame)
        context.setColor(.white)
        setFont(cr, size: noticeFontSize * s)
        cairo_move_to(cr, frame.minX + 16 * s, (frame.midY + 6 * s).rounded())
        cairo_show_text(cr, text)
        context.restore()
    }

    private static func setFont(_ cr: OpaquePointer, size: Double) {
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
    }
}
