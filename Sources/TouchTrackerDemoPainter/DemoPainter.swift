import CCairo
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerDemos
import TouchTrackerRender

/// Draws a demo scene with Cairo at the scene clock's current time: the farm's animals as vector pictures (with the
/// long press's flip and the clearing cross-dissolve), the circle, the swipe labels, and a title bar with the
/// scene's name and the switcher's keys. Text is laid out by Pango (`TextLayout`), as everywhere in the app.
public enum DemoPainter {
    /// The title bar's height; it is drawn over the top of the scene.
    public static let titleBarHeight = 28.0

    /// The demos' fixed labels, each written once, translated by the catalogs in `Resources/po` (a test checks
    /// they are all there).
    enum Label: String, CaseIterable {
        case title = "TouchTracker demo: {1}"
        case farmHint =
            "Tap: new hen.  Tap an animal: hen → egg → chicken.  Hold: roast or fry.  Drag, pinch, turn.  Swipe in from the left edge: clear."
        case circleHint = "Tap: place the circle.  Drag: move it.  Pinch: size it."
        case rawHeading = "Raw touches"
        case rawRule = "touchesBegan / touchesEnded: ≥ 30 px along, ≤ 5 px across"
        case rawPrompt = "swipe here"
        case recognizersHeading = "Recognizers"
        case recognizersRule = "SwipeGestureRecognizer (requires the Z to fail) + Z"
        case recognizersPrompt = "swipe or draw a Z here"
        case counts = "swipes: {1}   Zs: {2}"
    }

    /// What the swipe demo's scenes report (kept in English in their snapshots), shown translated.
    static let swipeNames = ["Horizontal", "Vertical", "Right", "Left", "Up", "Down"]

    /// Every text the demos translate: their labels, the scenes' names and the switcher's keys.
    public static let labels: [String] =
        Label.allCases.map(\.rawValue) + DemoSceneKind.allCases.map(\.title) + [DemoHost.switcherHint] + swipeNames

    /// Draws all of `scene` into `context`, which should cover the scene's size, its labels put in the user's
    /// language by `translate` (what the scenes report, such as a swipe's direction, is translated as it is shown).
    public static func paint(_ scene: any DemoScene, translate: Translate = untranslated, in context: CairoContext) {
        let size = scene.size
        context.save()
        switch scene {
        case let farm as FarmScene: paintFarm(farm, translate: translate, in: context)
        case let circle as CircleScene: paintCircle(circle, translate: translate, in: context)
        case let swipe as SwipeScene: paintSwipe(swipe, translate: translate, in: context)
        default: context.paint(solid: .white)
        }
        paintTitleBar(title: scene.kind.title, width: size.width, translate: translate, in: context)
        context.restore()
    }

    /// A new image surface of the given size with `scene` drawn on it (for `demo --png` and tests).
    public static func render(_ scene: any DemoScene, width: Int, height: Int) throws(CairoError) -> CairoSurface {
        let surface = try CairoSurface(width: width, height: height)
        let context = try CairoContext(surface: surface)
        paint(scene, in: context)
        surface.flush()
        return surface
    }

    // MARK: Title bar and text

    private static func paintTitleBar(title: String, width: Double, translate: Translate, in context: CairoContext) {
        context.setColor(Color(red: 0.13, green: 0.14, blue: 0.17, alpha: 0.88))
        context.fill(Rect(x: 0, y: 0, width: width, height: titleBarHeight))
        text(
            context, Message(Label.title.rawValue, .message(Message(title))).localized(translate), x: 10,
            baseline: 19, size: 15, bold: true, color: .white)
        text(
            context, translate(DemoHost.switcherHint), x: width - 10, baseline: 19, size: 12,
            color: Color(red: 0.8, green: 0.82, blue: 0.86), align: .right)
    }

    enum Alignment { case left, center, right }

    static func text(
        _ context: CairoContext, _ string: String, x: Double, baseline: Double, size: Double, bold: Bool = false,
        color: Color, align: Alignment = .left
    ) {
        let layout = TextLayout(string, size: size, bold: bold, for: context)
        let width = layout.size.width
        let start: Double
        switch align {
        case .left: start = x
        case .center: start = x - width / 2
        case .right: start = x - width
        }
        context.setColor(color)
        layout.draw(baselineAt: Point(x: start, y: baseline), in: context)
    }

    // MARK: Farm

    private static func paintFarm(_ farm: FarmScene, translate: Translate, in context: CairoContext) {
        let cr = context.pointer
        let size = farm.size
        let now = farm.clock.now
        context.paint(solid: Color(red: 0.80, green: 0.91, blue: 0.66))
        text(
            context, translate(Label.farmHint.rawValue), x: 10, baseline: size.height - 12, size: 12,
            color: Color(red: 0.2, green: 0.35, blue: 0.15))
        for animal in farm.animals { paintAnimal(animal, opacity: 1, at: now, in: cr) }
        for (animal, start) in farm.leaving {
            paintAnimal(animal, opacity: FarmScene.dissolveOpacity(start: start, at: now), at: now, in: cr)
        }
    }

    private static func paintAnimal(_ animal: AnimalView, opacity: Double, at time: Double, in cr: OpaquePointer) {
        guard opacity > 0 else { return }
        let (kind, widthFactor) = animal.appearance(at: time)
        cairo_save(cr)
        if opacity < 1 { cairo_push_group(cr) }
        cairo_translate(cr, animal.center.x, animal.center.y)
        cairo_rotate(cr, animal.rotation)
        cairo_scale(cr, animal.scale, animal.scale)
        // The flip turns the picture about its vertical axis; never squeeze it to nothing (a singular matrix).
        cairo_scale(cr, max(widthFactor, 0.001), 1)
        paintPicture(kind, in: cr)
        if opacity < 1 {
            cairo_pop_group_to_source(cr)
            cairo_identity_matrix(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
        cairo_restore(cr)
    }

    /// Draws `kind`'s picture centred on the origin, inside its `pictureSize`.
    static func paintPicture(_ kind: AnimalKind, in cr: OpaquePointer) {
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        switch kind {
        case .hen: paintHen(cr)
        case .egg: paintEgg(cr)
        case .chicken: paintChicken(cr)
        case .friedEgg: paintFriedEgg(cr)
        case .roast: paintRoast(cr)
        }
    }

    private static func rgb(_ cr: OpaquePointer, _ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        cairo_set_source_rgba(cr, r, g, b, a)
    }

    private static func ellipse(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ rx: Double, _ ry: Double) {
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, rx, ry)
        cairo_new_sub_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
        cairo_restore(cr)
    }

    private static func polygon(_ cr: OpaquePointer, _ points: [(Double, Double)]) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(cr, point.0, point.1) }
        cairo_close_path(cr)
    }

    private static func outline(_ cr: OpaquePointer, width: Double = 2) {
        rgb(cr, 0.25, 0.15, 0.08)
        cairo_set_line_width(cr, width)
        cairo_stroke(cr)
    }

    private static func eye(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ r: Double) {
        ellipse(cr, x, y, r, r)
        rgb(cr, 0.05, 0.05, 0.05)
        cairo_fill(cr)
        ellipse(cr, x + r * 0.35, y - r * 0.35, r * 0.35, r * 0.35)
        rgb(cr, 1, 1, 1)
        cairo_fill(cr)
    }

    /// A brown hen facing right: tail, round body with a wing, head with a red comb and wattle, yellow beak, legs.
    private static func paintHen(_ cr: OpaquePointer) {
        // Legs and toes.
        rgb(cr, 0.93, 0.6, 0.1)
        cairo_set_line_width(cr, 3.5)
        for x in [-12.0, 8.0] {
            cairo_move_to(cr, x, 40)
            cairo_line_to(cr, x, 52)
            cairo_move_to(cr, x - 6, 53)
            cairo_line_to(cr, x + 7, 53)
        }
        cairo_stroke(cr)
        // Tail feathers.
        polygon(cr, [(-40, -2), (-58, -30), (-50, -6), (-60, -14), (-44, 10)])
        rgb(cr, 0.45, 0.2, 0.08)
        cairo_fill_preserve(cr)
        outline(cr, width: 1.5)
        // Body.
        ellipse(cr, -6, 10, 46, 34)
        rgb(cr, 0.78, 0.45, 0.2)
        cairo_fill_preserve(cr)
        outline(cr)
        // Wing.
        ellipse(cr, -12, 12, 24, 15)
        rgb(cr, 0.62, 0.32, 0.13)
        cairo_fill_preserve(cr)
        outline(cr, width: 1.5)
        // Comb.
        for (x, y) in [(24.0, -42.0), (31.0, -46.0), (38.0, -43.0)] { ellipse(cr, x, y, 5.5, 5.5) }
        rgb(cr, 0.9, 0.1, 0.1)
        cairo_fill(cr)
        // Head.
        ellipse(cr, 32, -26, 17, 17)
        rgb(cr, 0.78, 0.45, 0.2)
        cairo_fill_preserve(cr)
        outline(cr)
        // Beak and wattle.
        polygon(cr, [(47, -31), (59, -24), (47, -18)])
        rgb(cr, 0.98, 0.75, 0.1)
        cairo_fill_preserve(cr)
        outline(cr, width: 1.2)
        ellipse(cr, 45, -12, 4.5, 7)
        rgb(cr, 0.9, 0.1, 0.1)
        cairo_fill(cr)
        eye(cr, 37, -30, 3)
    }

    /// An egg: a cream oval, narrower at the top, with a highlight.
    private static func paintEgg(_ cr: OpaquePointer) {
        cairo_move_to(cr, 0, -38)
        cairo_curve_to(cr, 18, -38, 29, -4, 29, 12)
        cairo_curve_to(cr, 29, 29, 16, 38, 0, 38)
        cairo_curve_to(cr, -16, 38, -29, 29, -29, 12)
        cairo_curve_to(cr, -29, -4, -18, -38, 0, -38)
        cairo_close_path(cr)
        rgb(cr, 0.99, 0.93, 0.8)
        cairo_fill_preserve(cr)
        outline(cr)
        ellipse(cr, -10, -14, 5, 9)
        rgb(cr, 1, 1, 1, 0.9)
        cairo_fill(cr)
    }

    /// A yellow chick facing right: round body with a wing, head with a tuft, orange beak, legs.
    private static func paintChicken(_ cr: OpaquePointer) {
        rgb(cr, 0.93, 0.55, 0.1)
        cairo_set_line_width(cr, 3)
        for x in [-12.0, 4.0] {
            cairo_move_to(cr, x, 34)
            cairo_line_to(cr, x, 40)
            cairo_move_to(cr, x - 5, 40)
            cairo_line_to(cr, x + 5, 40)
        }
        cairo_stroke(cr)
        ellipse(cr, -5, 12, 28, 24)
        rgb(cr, 1, 0.86, 0.2)
        cairo_fill_preserve(cr)
        outline(cr)
        ellipse(cr, -10, 14, 13, 9)
        rgb(cr, 0.95, 0.72, 0.1)
        cairo_fill_preserve(cr)
        outline(cr, width: 1.2)
        ellipse(cr, 14, -17, 17, 17)
        rgb(cr, 1, 0.86, 0.2)
        cairo_fill_preserve(cr)
        outline(cr)
        cairo_move_to(cr, 10, -33)
        cairo_curve_to(cr, 8, -42, 16, -42, 14, -34)
        outline(cr, width: 2)
        polygon(cr, [(30, -21), (40, -16), (30, -11)])
        rgb(cr, 0.98, 0.5, 0.05)
        cairo_fill_preserve(cr)
        outline(cr, width: 1.2)
        eye(cr, 19, -21, 2.8)
    }

    /// A fried egg seen from above: a wavy white with a round yolk.
    private static func paintFriedEgg(_ cr: OpaquePointer) {
        let blobs: [(Double, Double, Double)] = [(-20, -6, 33), (14, -13, 30), (22, 16, 27), (-16, 19, 26)]
        // A slightly larger grey copy underneath outlines the white without stroking the circles' inner arcs.
        for (x, y, r) in blobs { ellipse(cr, x, y, r + 1.5, r + 1.5) }
        rgb(cr, 0.6, 0.58, 0.55)
        cairo_fill(cr)
        for (x, y, r) in blobs { ellipse(cr, x, y, r, r) }
        rgb(cr, 1, 1, 0.98)
        cairo_fill(cr)
        ellipse(cr, -2, 2, 17, 17)
        rgb(cr, 1, 0.68, 0.05)
        cairo_fill_preserve(cr)
        outline(cr, width: 1.5)
        ellipse(cr, -8, -4, 5, 4)
        rgb(cr, 1, 0.95, 0.7, 0.9)
        cairo_fill(cr)
    }

    /// A roast chicken on a plate: golden body, two drumsticks with paper frills on the bones.
    private static func paintRoast(_ cr: OpaquePointer) {
        ellipse(cr, 0, 28, 68, 18)
        rgb(cr, 0.95, 0.95, 0.97)
        cairo_fill_preserve(cr)
        rgb(cr, 0.55, 0.58, 0.65)
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
        // Drumsticks behind the body, bones and frills at their ends.
        for (angle, y) in [(-0.45, -8.0), (0.35, 14.0)] {
            cairo_save(cr)
            cairo_translate(cr, 30, y)
            cairo_rotate(cr, angle)
            ellipse(cr, 8, 0, 20, 11)
            rgb(cr, 0.72, 0.4, 0.12)
            cairo_fill_preserve(cr)
            outline(cr, width: 1.5)
            cairo_rectangle(cr, 26, -3, 10, 6)
            rgb(cr, 0.97, 0.94, 0.86)
            cairo_fill(cr)
            for dy in [-5.0, 0, 5] { ellipse(cr, 37, dy, 3.5, 3.5) }
            rgb(cr, 1, 1, 1)
            cairo_fill_preserve(cr)
            rgb(cr, 0.7, 0.7, 0.7)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            cairo_restore(cr)
        }
        ellipse(cr, -8, 4, 44, 30)
        rgb(cr, 0.8, 0.48, 0.15)
        cairo_fill_preserve(cr)
        outline(cr)
        ellipse(cr, -20, -8, 16, 8)
        rgb(cr, 1, 0.85, 0.55, 0.7)
        cairo_fill(cr)
    }

    // MARK: Circle

    private static func paintCircle(_ scene: CircleScene, translate: Translate, in context: CairoContext) {
        let cr = context.pointer
        context.paint(solid: .white)
        text(
            context, translate(Label.circleHint.rawValue), x: 10, baseline: scene.size.height - 12,
            size: 12, color: Color(red: 0.35, green: 0.35, blue: 0.4))
        cairo_new_path(cr)
        cairo_arc(cr, scene.center.x, scene.center.y, scene.radius, 0, 2 * .pi)
        context.setColor(.red)
        cairo_fill(cr)
    }

    // MARK: Swipe

    private static func paintSwipe(_ scene: SwipeScene, translate: Translate, in context: CairoContext) {
        let raw = scene.rawView.frame
        let recognized = scene.recognizerView.frame
        context.setColor(Color(red: 0.92, green: 0.95, blue: 1))
        context.fill(raw)
        context.setColor(Color(red: 1, green: 0.96, blue: 0.89))
        context.fill(recognized)
        context.setColor(Color(red: 0.6, green: 0.6, blue: 0.65))
        context.fill(Rect(x: recognized.minX - 1, y: titleBarHeight, width: 2, height: raw.maxY - titleBarHeight))
        let heading = Color(red: 0.2, green: 0.22, blue: 0.3)
        let note = Color(red: 0.4, green: 0.42, blue: 0.5)
        let top = titleBarHeight
        text(
            context, translate(Label.rawHeading.rawValue), x: raw.midX, baseline: top + 32, size: 17, bold: true,
            color: heading,
            align: .center)
        text(
            context, translate(Label.rawRule.rawValue), x: raw.midX,
            baseline: top + 52,
            size: 12, color: note, align: .center)
        text(
            context, translate(scene.rawView.label.isEmpty ? Label.rawPrompt.rawValue : scene.rawView.label),
            x: raw.midX,
            baseline: raw.midY,
            size: 30, bold: !scene.rawView.label.isEmpty, color: scene.rawView.label.isEmpty ? note : heading,
            align: .center)
        text(
            context, translate(Label.recognizersHeading.rawValue), x: recognized.midX, baseline: top + 32, size: 17,
            bold: true,
            color: heading,
            align: .center)
        text(
            context, translate(Label.recognizersRule.rawValue), x: recognized.midX,
            baseline: top + 52,
            size: 12, color: note, align: .center)
        let big = scene.lastRecognized == "Z" ? "Z" : scene.swipeLabel
        text(
            context, translate(big.isEmpty ? Label.recognizersPrompt.rawValue : big), x: recognized.midX,
            baseline: recognized.midY,
            size: 30, bold: !big.isEmpty, color: big.isEmpty ? note : heading, align: .center)
        text(
            context,
            Message(Label.counts.rawValue, .literal("\(scene.swipeCount)"), .literal("\(scene.zCount)"))
                .localized(translate), x: recognized.midX,
            baseline: recognized.midY + 36, size: 14, color: note, align: .center)
    }
}
