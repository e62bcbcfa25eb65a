import TouchKit

/// One square of the grid of tiles at one zoom: column and row from the drawing's origin, negative ones included
/// (the drawing has no edge).
struct TileKey: Hashable, Sendable, Comparable {
    var column: Int
    var row: Int

    static func < (lhs: TileKey, rhs: TileKey) -> Bool { (lhs.row, lhs.column) < (rhs.row, rhs.column) }
}

/// The geometry of the tile grid, in tile pixels: the drawing at one zoom, `pixelsPerUnit` of them per drawing
/// unit, cut into squares from the drawing's origin. The grid does not move with the window: a scroll or a resize
/// keeps every tile still in view and only paints the new ones.
struct TileGrid: Sendable {
    /// Tile edge in pixels: 256 px (256 KB of pixels) is a few milliseconds of stroking on a dense drawing, small
    /// enough that a pool of painters shares the window's tiles evenly, large enough that a 4K screen is 135 tiles.
    let size: Int

    init(size: Int = 256) {
        self.size = size
    }

    func rect(of key: TileKey) -> Rect {
        Rect(
            x: Double(key.column * size), y: Double(key.row * size), width: Double(size), height: Double(size))
    }

    /// Most tiles a query returns: a window of 8K pixels with a ring around it is well under this; a rectangle
    /// larger (a damaged area of an enormous stroke) is cut to this many rows and columns around its start.
    static let maximumSpan = 256

    /// The tiles `rect` (tile pixels) overlaps, top row first.
    func keys(in rect: Rect) -> [TileKey] {
        guard !rect.isNull, rect.width > 0, rect.height > 0,
            rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite
        else { return [] }
        let size = Double(self.size)
        let limit = Double(Int32.max)
        func index(_ value: Double, _ rule: FloatingPointRoundingRule) -> Int {
            Int((value / size).rounded(rule).clamped(-limit, limit))
        }
        let c0 = index(rect.minX, .down)
        let r0 = index(rect.minY, .down)
        let c1 = min(index(rect.maxX, .up) - 1, c0 + Self.maximumSpan - 1)
        let r1 = min(index(rect.maxY, .up) - 1, r0 + Self.maximumSpan - 1)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var keys: [TileKey] = []
        keys.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for row in r0...r1 {
            for column in c0...c1 { keys.append(TileKey(column: column, row: row)) }
        }
        return keys
    }

    /// The tile holding the tile pixel `x` (or row `y`): floor division, right for negative pixels too.
    func index(of pixel: Int) -> Int {
        pixel >= 0 ? pixel / size : -((-pixel + size - 1) / size)
    }
}

extension Double {
    fileprivate func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
