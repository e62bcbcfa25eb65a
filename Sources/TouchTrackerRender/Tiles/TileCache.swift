import TouchKit
import TouchTracker

/// The complete lines and circles of the window, kept as tiles painted off the event loop: the one place that owns
/// the tiles and the painters.
///
/// The event loop tells it what changed (`invalidate`), hands it a scene to paint from (`schedule`), takes the
/// tiles painters finished (`swapInFinished`) and composes tiles into the frame (`compose`). A tile is replaced
/// only by a whole newer one, so the window never shows a half-painted tile: while a tile is repainted after an
/// edit the old one keeps showing, and a tile never painted yet (while a drawing opens) shows the plain background.
///
/// With no painter threads (`painterThreads: 0`) tiles are painted on the calling thread as they are scheduled:
/// replay and tests get every frame complete and deterministic.
final class TileCache {
    private struct Tile {
        /// What the tile shows; nil when it is plain background (or not painted yet).
        var pixels: PaintedTile?
        /// The scene version the tile shows; -1 while it was never painted.
        var shownVersion = -1
        /// The newest version that changed what this tile must show.
        var neededVersion = 0
        /// The newest version that changed all of it (everything changed, or the tile is new): a repaint up to it
        /// paints the whole tile.
        var wholeVersion = 0
        /// The parts of it that changed since, each with its version (window coordinates, within the tile): what a
        /// repaint of the tile shown must redraw.
        var changes: [(version: Int, rect: Rect)] = []
        /// The version of the newest scene a painter has the tile queued or in hand from (nil: none).
        var queuedVersion: Int?

        var isCurrent: Bool { shownVersion >= neededVersion }
        /// Whether a painter will bring the tile up to date: it has it from a scene at least as new as it needs.
        var isQueuedCurrent: Bool { (queuedVersion ?? -1) >= neededVersion }

        /// `rect` of it (window coordinates, within the tile) changed at `version`.
        mutating func change(_ rect: Rect, at version: Int) {
            neededVersion = version
            changes.append((version, rect))
            // Edits piling up on a tile no painter got to yet: it is repainted whole anyway.
            if changes.count > 2 * TileCache.partialRepaintLimit { changeAll(at: version) }
        }

        /// All of it changed at `version` (or it is new): it is repainted whole.
        mutating func changeAll(at version: Int) {
            neededVersion = version
            wholeVersion = version
            changes.removeAll()
        }

        /// It shows `pixels` (nil: plain background), painted from the scene of `version`.
        mutating func show(_ pixels: PaintedTile?, version: Int) {
            self.pixels = pixels
            shownVersion = version
            changes.removeAll { $0.version <= version }
        }
    }

    let grid: TileGrid
    private var tiles: [TileKey: Tile] = [:]
    private var width: Int
    private var height: Int
    private let pool: TilePainterPool?
    /// Bumped by every change to what tiles show.
    private(set) var version = 0
    /// Tiles painted and swapped in so far (plain ones included), for tests and measurements.
    private(set) var tilesPainted = 0
    /// Repaints queued for only the changed parts of a tile, for tests.
    private(set) var partialRepaints = 0
    /// Whether some tile may be stale and not queued: `schedule` has work (most frames it has none).
    private var mayNeedScheduling = true
    /// The oldest version whose tiles may be shown: tiles painted before the last change of scale are the wrong
    /// size, and are dropped when a painter hands them in.
    private var oldestShownVersion = 0
    /// What the window showed before the last change of scale, stretched to the new one: shown where a tile has
    /// not been painted at the new scale yet (nil once every tile has been).
    private var backdrop: CairoSurface?

    init(
        width: Int, height: Int, grid: TileGrid = TileGrid(), painterThreads: Int,
        onTileFinished: @escaping @Sendable () -> Void
    ) {
        self.grid = grid
        self.width = width
        self.height = height
        pool =
            painterThreads > 0
            ? TilePainterPool(threads: painterThreads, tileSize: grid.size, onFinished: onTileFinished) : nil
    }

    deinit {
        pool?.stop()
    }

    /// Painter threads working in the background (0: tiles are painted as they are scheduled).
    var painterThreads: Int { pool?.threadCount ?? 0 }

    /// Starts a new version of what tiles show; `invalidate` then marks the tiles it changes.
    func beginChange() {
        version += 1
    }

    /// Marks the tiles under `rect` as needing the current version.
    func invalidate(_ rect: Rect) {
        mayNeedScheduling = true
        for key in grid.keys(in: rect, width: width, height: height) {
            tiles[key, default: Tile()].change(rect.intersection(grid.rect(of: key)), at: version)
        }
    }

    /// Marks every tile of the window as needing the current version (the old ones keep showing until then).
    func invalidateAll() {
        mayNeedScheduling = true
        for key in grid.keys(coveringWidth: width, height: height) {
            tiles[key, default: Tile()].changeAll(at: version)
        }
    }

    /// The parts of `tile` a painter must redraw over the tile shown to bring it up to date, or nil when it must
    /// paint the whole tile: one never painted or changed all over, or changed in so many places (or so much of
    /// it) that stroking everything is as quick.
    private func partialRepaint(of tile: Tile) -> [Rect]? {
        guard tile.shownVersion >= 0, tile.wholeVersion <= tile.shownVersion else { return nil }
        let region = tile.changes.filter { $0.version > tile.shownVersion }.map(\.rect).filter { !$0.isEmpty }
        let area = region.reduce(0) { $0 + $1.width * $1.height }
        guard !region.isEmpty, region.count <= Self.partialRepaintLimit,
            area <= Double(grid.size * grid.size) / 2
        else { return nil }
        return region
    }

    /// Most changed parts a tile is repainted in (a burst of edits beyond this repaints it whole).
    static let partialRepaintLimit = 32

    /// Follows the window's size: tiles still inside are kept, tiles outside are dropped, new ones are painted by
    /// the next `schedule`.
    func resize(width: Int, height: Int) {
        mayNeedScheduling = true
        self.width = width
        self.height = height
        let kept = Set(grid.keys(coveringWidth: width, height: height))
        tiles = tiles.filter { kept.contains($0.key) }
        pool?.cancel { !kept.contains($0) }
        // A tile new to the window needs this version whole: what a painter still returns for it from before it
        // left the window (older) is shown meanwhile, but is neither current nor the base of a partial repaint.
        for key in kept where tiles[key] == nil { tiles[key, default: Tile()].changeAll(at: version) }
    }

    /// Follows a change of the screen's scale (`width` x `height` pixels now): every tile is painted again at the new
    /// scale, and until a tile is, `backdrop` (the window as it was, stretched to the new scale) shows in its place.
    /// What painters still have from the old scale is taken back, or dropped when it comes in.
    func rescale(width: Int, height: Int, backdrop: CairoSurface) {
        mayNeedScheduling = true
        self.width = width
        self.height = height
        pool?.cancel { _ in true }
        version += 1
        oldestShownVersion = version
        tiles.removeAll()
        for key in grid.keys(coveringWidth: width, height: height) {
            tiles[key, default: Tile()].changeAll(at: version)
        }
        self.backdrop = backdrop
    }

    /// Whether every tile of the window shows the current version.
    var isComplete: Bool {
        grid.keys(coveringWidth: width, height: height).allSatisfy { tiles[$0]?.isCurrent ?? false }
    }

    /// Whether every tile under `region` shows `version` or newer.
    func shows(_ region: DamageRegion, atLeast version: Int) -> Bool {
        region.rects.allSatisfy { rect in
            grid.keys(in: rect, width: width, height: height).allSatisfy {
                (tiles[$0]?.shownVersion ?? -1) >= version
            }
        }
    }

    /// Queues every stale tile that no painter has from a scene as new as it needs, from the scene `makeScene`
    /// builds (only called when some tile needs it): a tile a painter has not taken yet is then painted once, from
    /// this scene. A scene with nothing to show makes every stale tile plain at once, with no painter, and takes
    /// back the ones queued: a clear shows in full at once, even while a large drawing's tiles are being painted.
    /// Returns the window region of tiles that changed on the spot.
    func schedule(_ makeScene: () -> TileScene) -> Rect {
        guard mayNeedScheduling else { return .null }
        mayNeedScheduling = false
        var changed = Rect.null
        var scene: TileScene?
        var takenBack: Set<TileKey> = []
        for key in grid.keys(coveringWidth: width, height: height) {
            guard var tile = tiles[key], !tile.isCurrent, !tile.isQueuedCurrent else { continue }
            let current = scene ?? makeScene()
            scene = current
            let rect = grid.rect(of: key)
            if let pool, !current.isBlank {
                // A tile changed in a few places (a line drawn, deleted or moved) is the tile shown with those
                // places redrawn: only the shapes that reach them are stroked.
                let over = partialRepaint(of: tile).map { TileRepaint(base: tile.pixels, region: $0) }
                if over != nil { partialRepaints += 1 }
                pool.paint(key, rect: rect, from: current, urgent: tile.shownVersion >= 0, over: over)
                tile.queuedVersion = current.version
            } else {
                // Nothing to show (cleared), or no painter threads: painted here and now. A tile that cannot get
                // its pixels (out of memory) is shown plain rather than never. What a painter still has of it is
                // older, and is not swapped in over this.
                if tile.queuedVersion != nil { takenBack.insert(key) }
                tile.queuedVersion = nil
                let surface = current.isBlank ? nil : try? current.paintTile(at: rect, size: grid.size)
                tile.show(
                    surface.map { PaintedTile(key: key, version: current.version, surface: $0) },
                    version: current.version)
                tilesPainted += 1
                changed = changed.union(rect)
            }
            tiles[key] = tile
        }
        if !takenBack.isEmpty { pool?.cancel { takenBack.contains($0) } }
        return changed
    }

    /// Swaps in the tiles painters finished, each only if it is newer than the one it replaces. Returns the window
    /// region that changed.
    func swapInFinished() -> Rect {
        guard let pool else { return .null }
        var changed = Rect.null
        for painted in pool.takeFinished() {
            // Resized away meanwhile, or painted at the scale before the last change.
            guard var tile = tiles[painted.key], painted.version >= oldestShownVersion else { continue }
            // No painter has the tile any more, unless it was queued again from a newer scene meanwhile.
            if let queued = tile.queuedVersion, painted.version >= queued { tile.queuedVersion = nil }
            // One that could not be painted stays as it is until the next change queues it again.
            if painted.failed {
                tiles[painted.key] = tile
                continue
            }
            // A tile painted from an older scene than it now needs, and not queued again, is by the next `schedule`.
            if painted.version < tile.neededVersion, tile.queuedVersion == nil { mayNeedScheduling = true }
            if painted.version > tile.shownVersion {
                tile.show(painted.surface == nil ? nil : painted, version: painted.version)
                tilesPainted += 1
                changed = changed.union(grid.rect(of: painted.key))
            }
            tiles[painted.key] = tile
        }
        if backdrop != nil, isComplete { backdrop = nil }
        return changed
    }

    /// Waits until every tile shows the current version or `timeout` seconds pass, scheduling from `makeScene` as
    /// tiles come in (tests, the benchmark, and replay). Returns whether the tiles are complete.
    /// Returns whether the tiles are complete, and the window region that changed meanwhile.
    func waitUntilComplete(timeout: Double, _ makeScene: () -> TileScene) -> (complete: Bool, changed: Rect) {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        var changed = Rect.null
        while true {
            changed = changed.union(schedule(makeScene))
            changed = changed.union(swapInFinished())
            if isComplete { return (true, changed) }
            guard clock.now < deadline, let pool else { return (isComplete, changed) }
            _ = pool.waitForFinished(timeout: 0.05)
        }
    }

    /// Copies the tiles under each box of `region` into `canvas` (the window's pixels), plain background where a
    /// tile has no pixels. A straight copy of rows: through Cairo, under a clip of a long line's hundred boxes, it
    /// costs ten times as much. The region's boxes come top to bottom, so each tile of a row of tiles is looked up
    /// once while the boxes are in that row: a diagonal's boxes in one band can lie in two tiles, and looking a
    /// tile up again at each box (hashing its key, retaining its pixels) costs a long line's frame ~1 µs in-process
    /// and more in the running app, where that memory is cold.
    func compose(into canvas: CairoSurface, region: PixelRegion, background: Color) {
        canvas.flush()
        guard let target = ImagePixels(canvas) else { return }
        let size = grid.size
        let columns = (target.width + size - 1) / size
        // The tiles of `tileRow` looked up so far, by column (nil: not yet; .some(nil): plain background).
        var tileRow = -1
        var rowTiles = [ImagePixels??](repeating: nil, count: columns)
        let backdropPixels = backdrop.flatMap(ImagePixels.init)
        for box in region.boxes where !box.isEmpty {
            for row in max(0, box.y0) / size...max(0, box.y1 - 1) / size {
                if row != tileRow {
                    tileRow = row
                    for column in rowTiles.indices { rowTiles[column] = nil }
                }
                let firstColumn = max(0, box.x0) / size
                let lastColumn = min(columns - 1, max(0, box.x1 - 1) / size)
                guard firstColumn <= lastColumn else { continue }
                for column in firstColumn...lastColumn {
                    let pixels: ImagePixels?
                    if let known = rowTiles[column] {
                        pixels = known
                    } else {
                        let tile = tiles[TileKey(column: column, row: row)]
                        pixels =
                            tile?.pixels?.surface.flatMap(ImagePixels.init)
                            ?? ((tile?.shownVersion ?? -1) < 0 ? backdropPixels : nil)
                        rowTiles[column] = .some(pixels)
                    }
                    let origin = (x: column * size, y: row * size)
                    let part = box.intersection(
                        PixelBox(x0: origin.x, y0: origin.y, x1: origin.x + size, y1: origin.y + size))
                    if let pixels, pixels.data == backdropPixels?.data {
                        // The backdrop covers the window from its top-left corner, which may have grown since: the
                        // background goes only where it does not reach.
                        let covered = PixelBox(x0: 0, y0: 0, x1: pixels.width, y1: pixels.height)
                        if !covered.contains(part) { target.fill(part, with: background) }
                        target.copy(from: pixels, at: (0, 0), into: part)
                    } else if let pixels {
                        target.copy(from: pixels, at: origin, into: part)
                    } else {
                        target.fill(part, with: background)
                    }
                }
            }
        }
        canvas.markDirty()
    }
}
