import CCairo
import TouchKit

/// The tiles of an earlier zoom (or screen scale), shown scaled where the tiles of the zoom now shown are not
/// painted yet: during a pinch or a run of Ctrl+wheel clicks each frame is composed from these, never blank, while
/// the sharp tiles are painted in the background.
///
/// Nearest-pixel scaling through Cairo: pixels only, no shape stroked.
struct FallbackTiles {
    /// Tile pixels per drawing unit of these tiles.
    let pixelsPerUnit: Double
    let grid: TileGrid
    /// The tiles that had pixels; a tile not here is plain background.
    private(set) var tiles: [TileKey: PaintedTile]
    /// The tiles painted plain (nothing reaches them): background when sampled, and plain again when the view
    /// zooms back.
    private(set) var plain: Set<TileKey>

    init(pixelsPerUnit: Double, grid: TileGrid, tiles: [TileKey: PaintedTile], plain: Set<TileKey> = []) {
        self.pixelsPerUnit = pixelsPerUnit
        self.grid = grid
        self.tiles = tiles
        self.plain = plain
    }

    var isEmpty: Bool { tiles.isEmpty }

    /// Forgets the tiles under `rect` (tile pixels of the zoom `pixelsPerUnit` shown now): the drawing changed
    /// there, and these show it as it was.
    mutating func forget(_ rect: Rect, shownAt pixelsPerUnit: Double) {
        let mine = rect.scaled(by: self.pixelsPerUnit / pixelsPerUnit).insetBy(dx: -1, dy: -1)
        for key in grid.keys(in: mine) {
            tiles[key] = nil
            plain.remove(key)
        }
    }

    /// Paints into `boxes` of `canvas` (window pixels, already filled with the background; the window's top-left
    /// corner is the tile pixel `origin` of the zoom `pixelsPerUnit` shown now) these tiles scaled to that zoom,
    /// through Cairo: pixman's nearest-pixel scaling, several times quicker than a pixel loop, samples the pixel
    /// under each window pixel's centre (as the tests' reference loop, `sample`, does). Each tile is painted once,
    /// clipped to where it lands within the boxes; plain tiles are the background already there.
    func paintScaled(into canvas: CairoSurface, boxes: [PixelBox], origin: (x: Int, y: Int), pixelsPerUnit: Double) {
        let ratio = self.pixelsPerUnit / pixelsPerUnit
        guard !boxes.isEmpty, !tiles.isEmpty, ratio.isFinite, ratio > 0,
            let context = try? CairoContext(surface: canvas)
        else { return }
        var bounds = PixelBox(x0: .max, y0: .max, x1: .min, y1: .min)
        for box in boxes {
            bounds = PixelBox(
                x0: min(bounds.x0, box.x0), y0: min(bounds.y0, box.y0), x1: max(bounds.x1, box.x1),
                y1: max(bounds.y1, box.y1))
        }
        // The tiles under the boxes' bounds, in these tiles' pixels.
        let under = Rect(
            x: Double(bounds.x0 + origin.x) * ratio, y: Double(bounds.y0 + origin.y) * ratio,
            width: Double(bounds.x1 - bounds.x0) * ratio, height: Double(bounds.y1 - bounds.y0) * ratio)
        let size = Double(grid.size)
        cairo_set_operator(context.pointer, CAIRO_OPERATOR_SOURCE)
        for key in grid.keys(in: under) {
            guard let surface = tiles[key]?.surface else { continue }
            // Where the tile lands in the window: its edges over the ratio, less the window's corner.
            let landing = Rect(
                x: Double(key.column) * size / ratio - Double(origin.x),
                y: Double(key.row) * size / ratio - Double(origin.y), width: size / ratio, height: size / ratio)
            var clipped = false
            for box in boxes {
                let part = landing.intersection(
                    Rect(
                        x: Double(box.x0), y: Double(box.y0), width: Double(box.x1 - box.x0),
                        height: Double(box.y1 - box.y0)))
                guard !part.isNull, part.width > 0, part.height > 0 else { continue }
                // Whole pixels: a window pixel belongs to the tile its centre samples.
                let x0 = (part.minX - 0.5).rounded(.up)
                let y0 = (part.minY - 0.5).rounded(.up)
                let x1 = (part.maxX - 0.5).rounded(.up)
                let y1 = (part.maxY - 0.5).rounded(.up)
                guard x1 > x0, y1 > y0 else { continue }
                cairo_rectangle(context.pointer, x0, y0, x1 - x0, y1 - y0)
                clipped = true
            }
            guard clipped else { continue }
            context.save()
            cairo_clip(context.pointer)
            cairo_set_source_surface(context.pointer, surface.pointer, 0, 0)
            if let pattern = cairo_get_source(context.pointer) {
                // Window pixel q shows the tile's pixel at q·ratio + origin·ratio − the tile's corner.
                var matrix = cairo_matrix_t()
                cairo_matrix_init(
                    &matrix, ratio, 0, 0, ratio, Double(origin.x) * ratio - Double(key.column) * size,
                    Double(origin.y) * ratio - Double(key.row) * size)
                cairo_pattern_set_matrix(pattern, &matrix)
                cairo_pattern_set_filter(pattern, CAIRO_FILTER_NEAREST)
                // A sample that rounds onto the next tile's first pixel (pixman takes a centre that falls on a
                // pixel's edge to the left) takes this tile's edge pixel instead of nothing.
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
            }
            cairo_paint(context.pointer)
            context.restore()
        }
        canvas.flush()
    }
}
