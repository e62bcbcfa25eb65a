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
        // For each window column, the sampled pixel's tile column and the column inside that tile.
        let sampled = (x0..<x1).map { x in
            let pixel = Self.sample(x + origin.x, ratio: ratio)
            let column = grid.index(of: pixel)
            return (column: column, inside: pixel - column * size)
        }
        var lastRow: Int?
        for y in y0..<y1 {
            let pixelRow = Self.sample(y + origin.y, ratio: ratio)
            let out = (target.data + y * target.stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
            if pixelRow == lastRow {
                out.update(from: out - target.stride / 4, count: x1 - x0)
                continue
            }
            lastRow = pixelRow
            let row = grid.index(of: pixelRow)
            let insideRow = pixelRow - row * size
            var index = 0
            while index < sampled.count {
                // A run of window columns that sample one tile: looked up once.
                let column = sampled[index].column
                var end = index + 1
                while end < sampled.count, sampled[end].column == column { end += 1 }
                if let surface = tiles[TileKey(column: column, row: row)]?.surface,
                    let pixels = ImagePixels(surface)
                {
                    let source = UnsafePointer(
                        (pixels.data + insideRow * pixels.stride).assumingMemoryBound(to: UInt32.self))
                    for x in index..<end { out[x] = source[sampled[x].inside] | 0xFF00_0000 }
                } else {
                    (out + index).update(repeating: word, count: end - index)
                }
                index = end
            }
        }
    }

    /// The pixel of these tiles nearest to the centre of the pixel `pixel` shown now.
    private static func sample(_ pixel: Int, ratio: Double) -> Int {
        Int(((Double(pixel) + 0.5) * ratio).rounded(.down))
    }
}
