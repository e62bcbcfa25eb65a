import CCairo
import TouchKit

/// The tiles of an earlier zoom (or screen scale), shown scaled where the tiles of the zoom now shown are not
/// painted yet: during a pinch or a run of Ctrl+wheel clicks each frame is composed from these, never blank, while
/// the sharp tiles are painted in the background.
///
/// Nearest-pixel sampling: pixels only, no shape stroked, each window pixel written once (a row that samples the
/// same row as the one above is a copy of it).
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

    /// Draws into `box` of `target` (window pixels; the window's top-left corner is the tile pixel `origin` of the
    /// zoom `pixelsPerUnit` shown now) these tiles scaled to that zoom, and `background` where they have none.
    func sample(
        into target: ImagePixels, box: PixelBox, origin: (x: Int, y: Int), pixelsPerUnit: Double,
        background: Color
    ) {
        let ratio = self.pixelsPerUnit / pixelsPerUnit
        let x0 = max(box.x0, 0)
        let x1 = min(box.x1, target.width)
        let y0 = max(box.y0, 0)
        let y1 = min(box.y1, target.height)
        guard x1 > x0, y1 > y0, ratio.isFinite, ratio > 0 else { return }
        let size = grid.size
        let word = background.opaqueWord
        // For each window column, the column inside the tile it samples; and the runs of window columns that sample
        // one tile column, each with that column.
        var inside = [Int](repeating: 0, count: x1 - x0)
        var runs: [(column: Int, start: Int, end: Int)] = []
        for x in x0..<x1 {
            let pixel = Self.sample(x + origin.x, ratio: ratio)
            let column = grid.index(of: pixel)
            inside[x - x0] = pixel - column * size
            if let last = runs.last, last.column == column {
                runs[runs.count - 1].end = x - x0 + 1
            } else {
                runs.append((column, x - x0, x - x0 + 1))
            }
        }
        // Each run's tile in the tile row sampled now, looked up once per tile row (not per window row: a lookup
        // hashes a key and asks Cairo for the surface's memory four times).
        var tileRow = Int.min
        var runPixels = [ImagePixels?](repeating: nil, count: runs.count)
        var lastRow: Int?
        inside.withUnsafeBufferPointer { inside in
            for y in y0..<y1 {
                let pixelRow = Self.sample(y + origin.y, ratio: ratio)
                let out = (target.data + y * target.stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
                if pixelRow == lastRow {
                    out.update(from: out - target.stride / 4, count: x1 - x0)
                    continue
                }
                lastRow = pixelRow
                let row = grid.index(of: pixelRow)
                if row != tileRow {
                    tileRow = row
                    for (index, run) in runs.enumerated() {
                        runPixels[index] = tiles[TileKey(column: run.column, row: row)]?.surface.flatMap(
                            ImagePixels.init)
                    }
                }
                let insideRow = pixelRow - row * size
                for (index, run) in runs.enumerated() {
                    guard let pixels = runPixels[index] else {
                        (out + run.start).update(repeating: word, count: run.end - run.start)
                        continue
                    }
                    let source = UnsafePointer(
                        (pixels.data + insideRow * pixels.stride).assumingMemoryBound(to: UInt32.self))
                    for x in run.start..<run.end { out[x] = source[inside[x]] | 0xFF00_0000 }
                }
            }
        }
    }

    /// The pixel of these tiles nearest to the centre of the pixel `pixel` shown now.
    private static func sample(_ pixel: Int, ratio: Double) -> Int {
        Int(((Double(pixel) + 0.5) * ratio).rounded(.down))
    }

    /// Paints into `boxes` of `canvas` (window pixels, already filled with the background; the window's top-left
    /// corner is the tile pixel `origin` of the zoom `pixelsPerUnit` shown now) these tiles scaled to that zoom,
    /// through Cairo: pixman's nearest-pixel scaling, several times quicker than a pixel loop, samples the same pixel
    /// `sample` would (the one under each window pixel's centre). Each tile is painted once, clipped to where it
    /// lands within the boxes; plain tiles are the background already there.
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
