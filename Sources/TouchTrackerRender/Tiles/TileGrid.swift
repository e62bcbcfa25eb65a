import TouchKit

/// One square of the window's fixed grid of tiles: column and row from the window's top-left corner.
struct TileKey: Hashable, Sendable, Comparable {
    var column: Int
    var row: Int

    static func < (lhs: TileKey, rhs: TileKey) -> Bool { (lhs.row, lhs.column) < (rhs.row, rhs.column) }
}

/// The geometry of the tile grid. Tiles are anchored at the window's origin and do not move when the window is
/// resized, so a resize keeps every tile still in the window and only paints the new ones.
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

    /// The tiles that cover a `width` x `height` window.
    func keys(coveringWidth width: Int, height: Int) -> [TileKey] {
        keys(in: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), width: width, height: height)
    }

    /// The tiles of a `width` x `height` window that `rect` overlaps, top row first.
    func keys(in rect: Rect, width: Int, height: Int) -> [TileKey] {
        guard !rect.isNull, rect.width > 0, rect.height > 0, width > 0, height > 0,
            rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite
        else { return [] }
        let columns = (width + size - 1) / size
        let rows = (height + size - 1) / size
        let c0 = max(0, Int((rect.minX / Double(size)).rounded(.down)))
        let r0 = max(0, Int((rect.minY / Double(size)).rounded(.down)))
        let c1 = min(columns - 1, Int((rect.maxX / Double(size)).rounded(.up)) - 1)
        let r1 = min(rows - 1, Int((rect.maxY / Double(size)).rounded(.up)) - 1)
        guard c0 <= c1, r0 <= r1 else { return [] }
        var keys: [TileKey] = []
        keys.reserveCapacity((c1 - c0 + 1) * (r1 - r0 + 1))
        for row in r0...r1 {
            for column in c0...c1 { keys.append(TileKey(column: column, row: row)) }
        }
        return keys
    }
}
