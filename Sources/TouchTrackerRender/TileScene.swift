import TouchKit
import TouchTracker

/// What a tile shows, frozen at one moment so a painter thread can read it while the event loop goes on editing:
/// the complete shapes (a copy that shares storage with the view's until it changes them), less the selected
/// shape (drawn live on top), with the styles to stroke them in.
struct TileScene: Sendable {
    /// Increases with every change to what tiles show; a tile painted from a newer scene replaces an older one.
    let version: Int
    let shapes: ShapeCollection
    let hidden: ShapeID?
    let lineWidth: Double
    /// The widest stroke of any shape, so the index query reaches every shape that can paint into a tile.
    let widestStroke: Double
    let background: Color
    let completeColor: Color

    init(version: Int, view: DrawingView, background: Color, completeColor: Color) {
        self.version = version
        shapes = view.shapes
        hidden = view.selection
        lineWidth = view.lineWidth
        widestStroke = view.widestStroke
        self.background = background
        self.completeColor = completeColor
    }

    /// Whether no tile can show anything (every tile is the plain background).
    var isBlank: Bool {
        shapes.isEmpty || (shapes.count == 1 && hidden != nil)
    }

    /// Paints the tile at `rect` (window coordinates): the background, then the shapes that reach it in stacking
    /// order. Nil when nothing reaches it (the tile is plain background and needs no pixels).
    func paintTile(at rect: Rect, size: Int) throws(CairoError) -> CairoSurface? {
        let reach = rect.insetBy(dx: -widestStroke, dy: -widestStroke)
        // The grid hands back every shape filed near the tile; stroke only those whose stroke can reach it.
        let shapes = self.shapes.shapes(reaching: reach).filter { item in
            item.id != hidden && item.shape.strokeMayTouch(rect, defaultWidth: lineWidth)
        }
        guard !shapes.isEmpty else { return nil }
        let surface = try CairoSurface(width: size, height: size)
        let context = try CairoContext(surface: surface)
        context.paint(solid: background)
        context.translate(x: -rect.minX, y: -rect.minY)
        for item in shapes { context.strokeStyled(item.shape, defaultColor: completeColor, defaultWidth: lineWidth) }
        try context.checkStatus("painting a tile")
        surface.flush()
        return surface
    }

    /// Repaints `region` (window coordinates, within the tile at `rect`) of the tile `base` (nil: plain
    /// background): its pixels, with the region's whole pixels exactly as `paintTile` paints them. The shapes that
    /// reach the region are stroked, as `paintTile` would (no clip: Cairo rasterizes a clipped stroke a few levels
    /// differently), into pixels of their own, and the region's pixels copied over the base's. `base` is only read
    /// (its pixels copied, found with Cairo's getters, which only read): the event loop may be reading it too.
    func repaintTile(at rect: Rect, size: Int, over base: CairoSurface?, within region: [Rect]) throws(CairoError)
        -> CairoSurface
    {
        let origin = (x: Int(rect.minX), y: Int(rect.minY))
        // Whole pixels of the tile, and the same boxes in window coordinates for the shapes that reach them.
        let boxes = region.map { part in
            PixelBox(
                x0: max(0, Int(part.minX.rounded(.down)) - origin.x),
                y0: max(0, Int(part.minY.rounded(.down)) - origin.y),
                x1: min(size, Int(part.maxX.rounded(.up)) - origin.x),
                y1: min(size, Int(part.maxY.rounded(.up)) - origin.y))
        }.filter { !$0.isEmpty }
        var reached: [ShapeID: Shape] = [:]
        for box in boxes {
            let part = Rect(
                x: Double(box.x0 + origin.x), y: Double(box.y0 + origin.y), width: Double(box.x1 - box.x0),
                height: Double(box.y1 - box.y0))
            let reach = part.insetBy(dx: -widestStroke, dy: -widestStroke)
            for item in shapes.shapes(reaching: reach)
            where item.id != hidden && item.shape.strokeMayTouch(part, defaultWidth: lineWidth) {
                reached[item.id] = item.shape
            }
        }
        let strokes = try CairoSurface(width: size, height: size)
        let context = try CairoContext(surface: strokes)
        context.paint(solid: background)
        context.translate(x: -rect.minX, y: -rect.minY)
        // Bottom to top, as `paintTile` stacks them.
        for id in reached.keys.sorted() {
            context.strokeStyled(reached[id]!, defaultColor: completeColor, defaultWidth: lineWidth)
        }
        try context.checkStatus("repainting a tile")
        strokes.flush()
        let surface = try CairoSurface(width: size, height: size)
        guard let to = ImagePixels(surface), let from = ImagePixels(strokes) else { return strokes }
        let whole = PixelBox(x0: 0, y0: 0, x1: size, y1: size)
        if let base, let shown = ImagePixels(base) {
            to.copy(from: shown, at: (0, 0), into: whole)
        } else {
            to.fill(whole, with: background)
        }
        withExtendedLifetime(strokes) {
            for box in boxes { to.copy(from: from, at: (0, 0), into: box) }
        }
        surface.markDirty()
        return surface
    }
}
