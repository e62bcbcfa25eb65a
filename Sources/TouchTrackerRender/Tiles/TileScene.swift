import TouchKit
import TouchTracker

/// What a tile shows, frozen at one moment so a painter thread can read it while the event loop goes on editing:
/// the complete shapes (a copy that shares storage with the view's until it changes them), less the selected
/// shape (drawn live on top), with the styles to stroke them in.
struct TileScene: Sendable {
    /// Increases with every change to what tiles show; a tile painted from a newer scene replaces an older one.
    let version: Int
    /// Tile pixels per drawing unit: the shapes are in units, the tiles in pixels.
    let scale: Double
    let shapes: ShapeCollection
    let hidden: ShapeID?
    let lineWidth: Double
    /// The widest stroke of any shape, so the index query reaches every shape that can paint into a tile.
    let widestStroke: Double
    let background: Color
    let completeColor: Color
    /// Whether strokes whose shape the tile cannot show (a pen of at most a pixel, a dot of a circle) are painted as
    /// the ink they leave (`CoveragePainter`) rather than stroked by Cairo.
    let levelOfDetail: Bool

    init(
        version: Int, view: DrawingView, scale: Double, background: Color, completeColor: Color,
        levelOfDetail: Bool = true
    ) {
        self.version = version
        self.scale = scale
        shapes = view.shapes
        hidden = view.selection
        lineWidth = view.lineWidth
        widestStroke = view.widestStroke
        self.background = background
        self.completeColor = completeColor
        self.levelOfDetail = levelOfDetail
    }

    /// Whether no tile can show anything (every tile is the plain background).
    var isBlank: Bool {
        shapes.isEmpty || (shapes.count == 1 && hidden != nil)
    }

    /// Paints the tile at `rect` (canvas pixels): the background, then the shapes that reach it in stacking
    /// order. Nil when nothing reaches it (the tile is plain background and needs no pixels).
    func paintTile(at rect: Rect, size: Int) throws(CairoError) -> CairoSurface? {
        let shapes = shapes(touching: rect)
        guard !shapes.isEmpty else { return nil }
        let surface = try CairoSurface(width: size, height: size, format: .screen)
        try stroke(shapes, onto: surface, tileAt: rect)
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
        let strokes = try CairoSurface(width: size, height: size, format: .screen)
        // The region's whole pixels in the tile (its origin is a whole pixel), and the shapes that reach them.
        let boxes = region.map { part in
            PixelBox(
                Rect(x: part.minX - rect.minX, y: part.minY - rect.minY, width: part.width, height: part.height),
                within: strokes)
        }.filter { !$0.isEmpty }
        var reached: [ShapeID: IdentifiedShape] = [:]
        for box in boxes {
            let part = Rect(
                x: rect.minX + Double(box.x0), y: rect.minY + Double(box.y0), width: Double(box.x1 - box.x0),
                height: Double(box.y1 - box.y0))
            for item in shapes(touching: part) { reached[item.id] = item }
        }
        try stroke(reached.keys.sorted().map { reached[$0]! }, onto: strokes, tileAt: rect)
        let surface = try CairoSurface(width: size, height: size, format: .screen)
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

    /// The shapes whose stroke may touch `rect` (tile pixels), bottom to top, less the hidden one. (The grid hands
    /// back every shape filed near it; only those whose stroke can reach it are kept.)
    private func shapes(touching pixels: Rect) -> [IdentifiedShape] {
        // In drawing units, a unit wider at other scales than 1, so no rounding of the division leaves a shape out.
        let rect = scale == 1 ? pixels : pixels.scaled(by: 1 / scale).insetBy(dx: -1, dy: -1)
        let reach = rect.insetBy(dx: -widestStroke, dy: -widestStroke)
        return shapes.shapes(reaching: reach).filter { item in
            item.id != hidden && item.shape.strokeMayTouch(rect, defaultWidth: lineWidth)
        }
    }

    /// Paints `surface`, the tile at `rect`: the background, then `shapes` in their order, each stroked by Cairo
    /// or, when the tile cannot show its shape (`CoveragePainter`), laid straight into the pixels as its ink.
    private func stroke(_ shapes: [IdentifiedShape], onto surface: CairoSurface, tileAt rect: Rect) throws(CairoError) {
        let context = try CairoContext(surface: surface)
        context.paint(solid: background)
        context.translate(x: -rect.minX, y: -rect.minY)
        context.scale(by: scale)
        guard levelOfDetail, var ink = CoveragePainter(surface: surface, tileAt: rect, scale: scale) else {
            for item in shapes {
                context.strokeStyled(item.shape, defaultColor: completeColor, defaultWidth: lineWidth)
            }
            try context.checkStatus("painting a tile")
            surface.flush()
            return
        }
        for item in shapes {
            let color = item.shape.color.map(Color.init) ?? completeColor
            if ink.paint(item.shape, width: item.shape.width ?? lineWidth, color: color) { continue }
            ink.handBack()
            context.strokeStyled(item.shape, defaultColor: completeColor, defaultWidth: lineWidth)
        }
        ink.handBack()
        try context.checkStatus("painting a tile")
        surface.flush()
    }
}
