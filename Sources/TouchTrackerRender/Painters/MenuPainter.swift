import CCairo
import TouchKit
import TouchTracker

/// Draws the popup menu: a rounded panel with a soft shadow and a border so it reads as a popup, one row per item,
/// the highlighted row tinted, text laid out by Pango in the desktop's sans-serif font (cut with an ellipsis when
/// it does not fit; right-aligned, with the check mark on the left, when it reads right to left).
enum MenuPainter {
    static let fontSize = 16.0

    static func paint(_ menu: PopupMenu, translate: Translate, in context: CairoContext) {
        let cr = context.pointer
        let frame = menu.frame
        context.save()
        // Shadow: a few offset translucent layers.
        for step in 1...4 {
            let offset = Double(step)
            context.setColor(Color(red: 0, green: 0, blue: 0, alpha: 0.06))
            roundedRect(
                cr, frame.insetBy(dx: -offset / 2, dy: -offset / 2).offsetBy(dx: 1, dy: offset),
                radius: 6)
            cairo_fill(cr)
        }
        context.setColor(Color(red: 0.98, green: 0.98, blue: 0.98))
        roundedRect(cr, frame, radius: 6)
        cairo_fill_preserve(cr)
        context.setColor(Color(red: 0.55, green: 0.55, blue: 0.6))
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        for (index, item) in menu.items.enumerated() {
            let title = translate(item.title)
            let row = menu.itemFrame(index)
            let highlighted = index == menu.highlightedIndex
            if highlighted {
                context.setColor(Color(red: 0.21, green: 0.47, blue: 0.86))
                roundedRect(cr, row.insetBy(dx: 4, dy: 1), radius: 4)
                cairo_fill(cr)
            }
            context.setColor(highlighted ? .white : Color(red: 0.1, green: 0.1, blue: 0.12))
            // Room for the text: the row less its margins and the check mark's place.
            let text = TextLayout(title, size: fontSize, maxWidth: row.width - 50, for: context)
            let rightToLeft = text.isRightToLeft
            let x = rightToLeft ? row.maxX - 16 - text.size.width : row.minX + 16
            text.draw(at: Point(x: x, y: row.midY - text.size.height / 2), in: context)
            if menu.checkedItems.contains(item) {
                // A drawn check mark at the row's trailing end (no font needs to have the glyph).
                let size = 10.0
                let right = rightToLeft ? row.minX + 14 + size : row.maxX - 14
                cairo_set_line_width(cr, 2)
                cairo_move_to(cr, right - size, row.midY)
                cairo_line_to(cr, right - size * 0.6, row.midY + size * 0.45)
                cairo_line_to(cr, right, row.midY - size * 0.5)
                cairo_stroke(cr)
            }
        }
        context.restore()
    }

    private static func roundedRect(_ cr: OpaquePointer, _ rect: Rect, radius: Double) {
        let r = min(radius, rect.width / 2, rect.height / 2)
        cairo_new_sub_path(cr)
        cairo_arc(cr, rect.maxX - r, rect.minY + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, rect.maxX - r, rect.maxY - r, r, 0, Double.pi / 2)
        cairo_arc(cr, rect.minX + r, rect.maxY - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, rect.minX + r, rect.minY + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}

extension Rect {
    func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }
}
