import CCairo
import TouchKit
import TouchTracker

/// Draws the overlay above the drawing: the gesture inspector (a ring with its id around every live touch, and a
/// panel listing each recognizer's state) and a notice at the bottom centre. Text is laid out by Pango
/// (`TextLayout`); a notice too wide for the window is cut with an ellipsis.
///
/// One overlay's texts are laid out once, when it is made: its bounds and every paint of it (each frame that
/// repaints under it, until the overlay changes) use the same layouts.
struct OverlayPainter {
    static let touchRadius = 28.0
    static let panelFontSize = 13.0
    static let noticeFontSize = 16.0
    static let inspectorColor = Color(red: 0.1, green: 0.45, blue: 0.95)
    /// Fingers taken for the palm are marked in red.
    static let rejectedColor = Color(red: 0.85, green: 0.15, blue: 0.1)

    /// A touch's label beside its ring.
    private static func touchLabel(_ touch: InspectorSnapshot.TouchMark) -> String {
        touch.isRejected ? "palm \(touch.phase)" : "#\(touch.id) \(touch.type) \(touch.phase)"
    }

    /// The keyboard cursor's label beside its square.
    private static func keyboardLabel(_ keyboard: InspectorSnapshot.KeyboardMark) -> String {
        keyboard.isDrawing ? "keyboard, drawing" : "keyboard"
    }

    let overlay: Overlay
    let canvas: Rect
    /// The labels beside the inspector's rings, one per touch with a finite location, in order.
    private let touchLabels: [TextLayout]
    private let keyboardLabel: TextLayout?
    private let panelText: [TextLayout]
    private let noticeText: TextLayout?
    private let hintLines: [TextLayout]
    /// What the overlay covers in the window, in drawing units (what to repaint when it appears or goes).
    let bounds: Rect

    /// Lays out `overlay`'s texts for a `canvas`-sized window, in the user's language (`translate`).
    init(_ overlay: Overlay, canvas: Rect, translate: Translate, in context: CairoContext) {
        self.overlay = overlay
        self.canvas = canvas
        let inspector = overlay.inspector
        touchLabels = (inspector?.touches ?? []).filter(\.location.isFinite).map {
            TextLayout(Self.touchLabel($0), size: 14, for: context)
        }
        keyboardLabel = inspector?.keyboard.map {
            TextLayout(Self.keyboardLabel($0), size: 14, for: context)
        }
        panelText = inspector.map { Self.panelText($0, translate: translate, in: context) } ?? []
        noticeText = overlay.notice.map {
            Self.noticeText($0.localized(translate), canvas: canvas, in: context)
        }
        hintLines =
            overlay.hint.map {
                Self.hintLines($0.localized(translate), canvas: canvas, in: context)
            } ?? []
        var bounds = Rect.null
        if let inspector {
            let reach = (Self.touchRadius + 4)
            for (touch, label) in zip(inspector.touches.filter(\.location.isFinite), touchLabels) {
                // The ring, and the id label to its right, as wide as its text is.
                bounds = bounds.union(
                    Rect(
                        x: touch.location.x - reach, y: touch.location.y - reach - 24,
                        width: 2 * reach + label.size.width + 8, height: 2 * reach + 24))
            }
            if let keyboard = inspector.keyboard, let keyboardLabel {
                bounds = bounds.union(
                    Rect(
                        x: keyboard.location.x - reach, y: keyboard.location.y - reach - 24,
                        width: 2 * reach + keyboardLabel.size.width + 14, height: 2 * reach + 24))
            }
            bounds = bounds.union(Self.panelFrame(panelText))
        }
        if let noticeText {
            bounds = bounds.union(Self.noticeFrame(noticeText, canvas: canvas))
        }
        if let cursor = overlay.keyboardCursor {
            bounds = bounds.union(KeyboardCursor.crosshairFrame(at: cursor))
        }
        for ring in overlay.stylusRings where ring.center.isFinite {
            bounds = bounds.union(ring.frame.insetBy(dx: -2, dy: -2))
        }
        for frame in Self.hintFrames(hintLines, canvas: canvas) { bounds = bounds.union(frame) }
        if overlay.hintOnPanel, !hintLines.isEmpty { bounds = bounds.union(Self.hintPanel(hintLines, canvas: canvas)) }
        self.bounds = bounds.isNull ? bounds : bounds.insetBy(dx: -2, dy: -2)
    }

    func paint(in context: CairoContext) {
        if !hintLines.isEmpty { paintHint(in: context) }
        if let inspector = overlay.inspector { paintInspector(inspector, in: context) }
        if let cursor = overlay.keyboardCursor { Self.paintCrosshair(at: cursor, in: context) }
        for ring in overlay.stylusRings where ring.center.isFinite {
            Self.paintStylusRing(ring, in: context)
        }
        if let noticeText { paintNotice(noticeText, in: context) }
    }

    // MARK: Keyboard cursor

    static let crosshairColor = Color(red: 0.1, green: 0.3, blue: 0.85)

    /// The keyboard cursor: a small crosshair, a white edge under a blue one so it shows on lines and on white.
    private static func paintCrosshair(at point: Point, in context: CairoContext) {
        let cr = context.pointer
        let radius = KeyboardCursor.crosshairRadius
        context.save()
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        for (color, width) in [(Color.white, 4.0), (crosshairColor, 2.0)] {
            cairo_new_path(cr)
            cairo_move_to(cr, point.x - radius, point.y)
            cairo_line_to(cr, point.x + radius, point.y)
            cairo_move_to(cr, point.x, point.y - radius)
            cairo_line_to(cr, point.x, point.y + radius)
            context.setColor(color)
            cairo_set_line_width(cr, width)
            cairo_stroke(cr)
        }
        context.restore()
    }

    // MARK: Stylus

    static let penRingColor = Color(red: 0.1, green: 0.3, blue: 0.85)
    static let eraserRingColor = Color(red: 0.45, green: 0.45, blue: 0.5)

    /// A ring under the stylus: a white edge under a coloured one, so it shows on lines and on white; an eraser's
    /// is grey and faintly filled.
    private static func paintStylusRing(_ ring: StylusRing, in context: CairoContext) {
        let cr = context.pointer
        context.save()
        let isEraser = ring.tool == .eraser
        if isEraser {
            cairo_new_path(cr)
            cairo_arc(cr, ring.center.x, ring.center.y, ring.radius, 0, 2 * Double.pi)
            context.setColor(eraserRingColor.withAlpha(0.12))
            cairo_fill(cr)
        }
        for (color, width) in [(Color.white, 3.5), (isEraser ? eraserRingColor : penRingColor, 1.5)] {
            cairo_new_path(cr)
            cairo_arc(cr, ring.center.x, ring.center.y, ring.radius, 0, 2 * Double.pi)
            context.setColor(color)
            cairo_set_line_width(cr, width)
            cairo_stroke(cr)
        }
        context.restore()
    }

    // MARK: Inspector

    /// The panel's lines laid out: the heading and the touch count in the user's language, the recognizers' names
    /// and states as UIKit names them.
    private static func panelText(_ inspector: InspectorSnapshot, translate: Translate, in context: CairoContext)
        -> [TextLayout]
    {
        let lines =
            [
                Message.inspectorHeading.localized(translate),
                Message.inspectorTouches(inspector.touches.count).localized(translate),
            ] + inspector.recognizerLines
        return lines.map { TextLayout($0, size: panelFontSize, for: context) }
    }

    /// The panel around its laid-out lines.
    private static func panelFrame(_ text: [TextLayout]) -> Rect {
        let width = text.map(\.size.width).max() ?? 0
        return Rect(
            x: 8, y: 8, width: (width + 20).rounded(.up), height: (Double(text.count) * 20 + 12))
    }

    private func paintInspector(_ inspector: InspectorSnapshot, in context: CairoContext) {
        let cr = context.pointer
        context.save()
        for (touch, label) in zip(inspector.touches.filter(\.location.isFinite), touchLabels) {
            let center = touch.location
            let color = touch.isRejected ? Self.rejectedColor : Self.inspectorColor
            cairo_new_path(cr)
            cairo_arc(cr, center.x, center.y, Self.touchRadius, 0, 2 * Double.pi)
            context.setColor(color.withAlpha(0.25))
            cairo_fill_preserve(cr)
            context.setColor(color)
            cairo_set_line_width(cr, 3)
            if touch.isRejected {
                // A rejected palm is crossed out.
                let arm = Self.touchRadius * 0.7
                cairo_move_to(cr, center.x - arm, center.y - arm)
                cairo_line_to(cr, center.x + arm, center.y + arm)
                cairo_move_to(cr, center.x + arm, center.y - arm)
                cairo_line_to(cr, center.x - arm, center.y + arm)
            }
            cairo_stroke(cr)
            label.draw(
                baselineAt: Point(
                    x: center.x + (Self.touchRadius + 4), y: center.y - (Self.touchRadius - 4)),
                in: context)
        }
        if let keyboard = inspector.keyboard, keyboard.location.isFinite, let keyboardLabel {
            let center = keyboard.location
            let half = Self.touchRadius * 0.8
            cairo_new_path(cr)
            cairo_rectangle(cr, center.x - half, center.y - half, 2 * half, 2 * half)
            context.setColor(Self.inspectorColor.withAlpha(0.15))
            cairo_fill_preserve(cr)
            context.setColor(Self.inspectorColor)
            cairo_set_line_width(cr, 3)
            cairo_stroke(cr)
            keyboardLabel.draw(
                baselineAt: Point(x: center.x + half + 6, y: center.y - half + 8), in: context)
        }
        let text = panelText
        let panel = Self.panelFrame(text)
        context.setColor(Color(red: 0.08, green: 0.08, blue: 0.1, alpha: 0.85))
        context.fill(panel)
        for (index, line) in text.enumerated() {
            context.setColor(index == 0 ? Color(red: 0.55, green: 0.75, blue: 1) : .white)
            line.draw(
                baselineAt: Point(x: panel.minX + 10, y: panel.minY + (Double(index) * 20 + 22)), in: context)
        }
        context.restore()
    }

    // MARK: Notice

    /// The notice laid out to fit the window (less a margin each side).
    private static func noticeText(_ text: String, canvas: Rect, in context: CairoContext)
        -> TextLayout
    {
        TextLayout(text, size: noticeFontSize, maxWidth: canvas.width - 80, for: context)
    }

    /// The bar around the laid-out notice, at the bottom centre.
    private static func noticeFrame(_ text: TextLayout, canvas: Rect) -> Rect {
        let width = (text.size.width + 32).rounded(.up)
        let height = (max(36, text.size.height + 12)).rounded(.up)
        return Rect(
            x: ((canvas.width - width) / 2).rounded(), y: (canvas.maxY - height - 24).rounded(), width: width,
            height: height)
    }

    private func paintNotice(_ layout: TextLayout, in context: CairoContext) {
        let frame = Self.noticeFrame(layout, canvas: canvas)
        context.save()
        context.setColor(Color(red: 0.15, green: 0.15, blue: 0.18, alpha: 0.9))
        context.fill(frame)
        context.setColor(.white)
        layout.draw(at: Point(x: frame.minX + 16, y: frame.midY - layout.size.height / 2), in: context)
        context.restore()
    }

    // MARK: Hint

    static let hintFontSize = 15.0
    static let hintColor = Color(red: 0.45, green: 0.45, blue: 0.5)

    /// The hint's lines, each laid out to fit the window less a margin.
    private static func hintLines(_ text: String, canvas: Rect, in context: CairoContext)
        -> [TextLayout]
    {
        text.split(separator: "\n").map {
            TextLayout(String($0), size: hintFontSize, maxWidth: canvas.width - 40, for: context)
        }
    }

    /// Each line's place: centred, the block of lines in the middle of the window.
    private static func hintFrames(_ lines: [TextLayout], canvas: Rect) -> [Rect] {
        let spacing = 8.0
        let total = lines.map(\.size.height).reduce(0, +) + spacing * Double(max(0, lines.count - 1))
        var y = (canvas.midY - total / 2).rounded()
        return lines.map { line in
            defer { y += line.size.height + spacing }
            return Rect(
                x: ((canvas.width - line.size.width) / 2).rounded(), y: y, width: line.size.width.rounded(.up),
                height: line.size.height.rounded(.up))
        }
    }

    /// The panel under a hint drawn on one: its lines' frames and a margin.
    private static func hintPanel(_ lines: [TextLayout], canvas: Rect) -> Rect {
        hintFrames(lines, canvas: canvas).reduce(Rect.null) { $0.union($1) }.insetBy(dx: -14, dy: -12)
    }

    private func paintHint(in context: CairoContext) {
        context.save()
        if overlay.hintOnPanel {
            context.setColor(Color(red: 0.08, green: 0.08, blue: 0.1, alpha: 0.9))
            context.fill(Self.hintPanel(hintLines, canvas: canvas))
        }
        context.setColor(overlay.hintOnPanel ? .white : Self.hintColor)
        for (line, frame) in zip(hintLines, Self.hintFrames(hintLines, canvas: canvas)) {
            line.draw(at: frame.origin, in: context)
        }
        context.restore()
    }
}
