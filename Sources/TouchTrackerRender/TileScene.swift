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
}
