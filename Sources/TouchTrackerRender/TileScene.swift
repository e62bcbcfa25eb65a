import TouchKit
import TouchTracker

/// What a tile shows, frozen at one moment so a painter thread can read it while the event loop goes on editing:
/// the complete lines and circles (copies that share storage with the view's until it changes them), less the
/// selected shape (drawn live on top), with the styles to stroke them in.
struct TileScene: Sendable {
    /// Increases with every change to what tiles show; a tile painted from a newer scene replaces an older one.
    let version: Int
    let lines: LineCollection
    let circles: CircleCollection
    let hiddenLine: LineID?
    let hiddenCircle: CircleID?
    let lineWidth: Double
    /// The widest stroke of any line, so the index query reaches every line that can paint into a tile.
    let widestStroke: Double
    let background: Color
    let completeColor: Color

    init(version: Int, view: DrawingView, background: Color, completeColor: Color) {
        self.version = version
        lines = view.lines
        circles = view.circles
        hiddenLine = view.selectedLineID
        hiddenCircle = view.selectedCircleID
        lineWidth = view.lineWidth
        widestStroke = view.widestStroke
        self.background = background
        self.completeColor = completeColor
    }

    /// Whether no tile can show anything (every tile is the plain background).
    var isBlank: Bool {
        (lines.isEmpty || (lines.count == 1 && hiddenLine != nil))
            && (circles.isEmpty || (circles.count == 1 && hiddenCircle != nil))
    }

    /// Paints the tile at `rect` (window coordinates): the background, then the lines that reach it in stacking
    /// order, then the circles. Nil when nothing reaches it (the tile is plain background and needs no pixels).
    func paintTile(at rect: Rect, size: Int) throws(CairoError) -> CairoSurface? {
        let reach = rect.insetBy(dx: -widestStroke, dy: -widestStroke)
        // The grid hands back every line filed near the tile; stroke only those whose stroke can reach it.
        let lines = self.lines.lines(crossing: reach).filter { item in
            item.id != hiddenLine && item.line.strokeMayTouch(rect, width: item.line.width ?? lineWidth)
        }
        let circles = self.circles.circles(reaching: rect, defaultWidth: lineWidth).filter { $0.id != hiddenCircle }
        guard !lines.isEmpty || !circles.isEmpty else { return nil }
        let surface = try CairoSurface(width: size, height: size)
        let context = try CairoContext(surface: surface)
        context.paint(solid: background)
        context.translate(x: -rect.minX, y: -rect.minY)
        for item in lines { context.strokeStyled(item.line, defaultColor: completeColor, defaultWidth: lineWidth) }
        for item in circles {
            context.strokeStyled(item.circle, defaultColor: completeColor, defaultWidth: lineWidth)
        }
        try context.checkStatus("painting a tile")
        surface.flush()
        return surface
    }
}
