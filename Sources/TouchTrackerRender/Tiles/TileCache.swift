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
    /// Tile pixels per drawing unit: the zoom times the screen's scale.
    private(set) var pixelsPerUnit: Double
    /// The tile pixel at the window's top-left corner.
    private(set) var origin: (x: Int, y: Int)
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
    /// The oldest version whose tiles may be shown: tiles painted before the last change of zoom are the wrong
    /// size, and are dropped when a painter hands them in.
    private var oldestShownVersion = 0
    /// The tiles of the zoom shown before (or of an earlier one that covered the window better), shown scaled where
    /// a tile of this one has not been painted yet, and shown as they are when the view zooms back to them. Kept
    /// until the next change of zoom: one window's worth of tiles (8 MB at 1920x1080) buys an instant zoom back.
    private var fallback: FallbackTiles?
    /// Until when a new zoom's tiles wait before painters start on them: during a run of zoom steps (a wheel's
    /// clicks, a pinch) each step's frame is composed from the stand-ins while the two painters would otherwise start
    /// on tiles the next step makes useless, on the processors the frame needs.
    private var paintingHeldUntil: ContinuousClock.Instant?
    /// How long a new zoom's tiles wait, in seconds: a little more than a wheel's clicks are apart.
    static let zoomSettleDelay = 0.06

    /// Where the tiles nearest to are painted first after a change of zoom (window pixels): the pointer or the
    /// pinch it zoomed about.
    private var focus: Point?

    init(
        width: Int, height: Int, pixelsPerUnit: Double = 1, grid: TileGrid = TileGrid(), painterThreads: Int,
        onTileFinished: @escaping @Sendable () -> Void
    ) {
        self.grid = grid
        self.width = width
        self.height = height
        self.pixelsPerUnit = pixelsPerUnit
        origin = (0, 0)
        pool =
            painterThreads > 0
            ? TilePainterPool(threads: painterThreads, tileSize: grid.size, onFinished: onTileFinished) : nil
    }

    deinit {
        pool?.stop()
    }

    /// Painter threads working in the background (0: tiles are painted as they are scheduled).
    var painterThreads: Int { pool?.threadCount ?? 0 }

    /// The window, in tile pixels.
    private var windowRect: Rect {
        Rect(x: Double(origin.x), y: Double(origin.y), width: Double(width), height: Double(height))
    }

    /// The tiles the window shows, nearest to `focus` first when there is one.
    private var windowKeys: [TileKey] {
        let keys = grid.keys(in: windowRect)
        guard let focus else { return keys }
        let centre = Point(x: focus.x + Double(origin.x), y: focus.y + Double(origin.y))
        return keys.sorted {
            grid.rect(of: $0).center.distance(to: centre) < grid.rect(of: $1).center.distance(to: centre)
        }
    }

    /// The tiles kept and painted: the window's, then, with painters in the background, a ring of one tile around
    /// it, so a scroll finds its next tiles painted. (Painted on the spot, as replay and export paint, the window's
    /// alone.)
    private var wantedKeys: [TileKey] {
        let window = windowKeys
        guard pool != nil else { return window }
        let shown = Set(window)
        let ring = grid.keys(in: windowRect.insetBy(dx: -Double(grid.size), dy: -Double(grid.size)))
        return window + ring.filter { !shown.contains($0) }
    }

    /// Starts a new version of what tiles show; `invalidate` then marks the tiles it changes.
    func beginChange() {
        version += 1
    }

    /// Marks the tiles under `rect` (tile pixels) as needing the current version; the earlier zoom's tiles there
    /// are forgotten (they show the drawing as it was).
    func invalidate(_ rect: Rect) {
        mayNeedScheduling = true
        let wanted = windowRect.insetBy(dx: -Double(grid.size), dy: -Double(grid.size))
        for key in grid.keys(in: rect.intersection(wanted)) {
            tiles[key, default: Tile()].change(rect.intersection(grid.rect(of: key)), at: version)
        }
        fallback?.forget(rect, shownAt: pixelsPerUnit)
    }

    /// Marks every tile kept as needing the current version (the old ones keep showing until then); the earlier
    /// zoom's tiles are forgotten.
    func invalidateAll() {
        mayNeedScheduling = true
        for key in wantedKeys {
            tiles[key, default: Tile()].changeAll(at: version)
        }
        fallback = nil
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

    /// Follows the window's size and place over the drawing (a resize, a scroll): tiles still near the window are
    /// kept, tiles farther are dropped, new ones are painted by the next `schedule`.
    func move(width: Int, height: Int, origin: (x: Int, y: Int)) {
        guard width != self.width || height != self.height || origin != self.origin else { return }
        mayNeedScheduling = true
        self.width = width
        self.height = height
        self.origin = origin
        let wanted = wantedKeys
        let kept = Set(wanted)
        pool?.discard(tiles.filter { !kept.contains($0.key) }.values.compactMap(\.pixels))
        tiles = tiles.filter { kept.contains($0.key) }
        pool?.cancel { !kept.contains($0) }
        // A tile new to the window needs this version whole: what a painter still returns for it from before it
        // left (older) is shown meanwhile, but is neither current nor the base of a partial repaint.
        for key in wanted where tiles[key] == nil { tiles[key, default: Tile()].changeAll(at: version) }
    }

    /// Follows a change of zoom or of the screen's scale (`pixelsPerUnit` tile pixels per unit now, the window
    /// `width` x `height` at `origin`): every tile is painted again at the new size, those nearest `focus` (window
    /// pixels) first, and until a tile is, the tiles of the earlier zoom show in its place, scaled. What painters
    /// still have from the old zoom is taken back, or dropped when it comes in.
    func changeZoom(pixelsPerUnit: Double, width: Int, height: Int, origin: (x: Int, y: Int), focus: Point?) {
        mayNeedScheduling = true
        pool?.cancel { _ in true }
        // The tiles shown now stand in for the new ones, unless an earlier zoom's cover the window better: during a
        // pinch, the zooms it passes are rarely painted before the next, and the last complete one stays.
        let shown = shownTiles()
        // Back to the zoom the stand-ins were painted at (Ctrl++ then Ctrl+-, a pinch undone): they are that zoom's
        // tiles, as current as ever (an edit forgets those it touches), and show again at once.
        let returning = fallback.flatMap { $0.pixelsPerUnit == pixelsPerUnit ? $0 : nil }
        if fallback == nil || returning != nil || shown.count >= grid.keys(in: windowRect).count {
            pool?.discard(fallback.map { Array($0.tiles.values) } ?? [])
            fallback = FallbackTiles(
                pixelsPerUnit: self.pixelsPerUnit, grid: grid, tiles: shown.painted, plain: shown.plain)
        }
        self.pixelsPerUnit = pixelsPerUnit
        self.width = width
        self.height = height
        self.origin = origin
        self.focus = focus
        if let pool {
            paintingHeldUntil = ContinuousClock.now + .seconds(Self.zoomSettleDelay)
            pool.wake(after: Self.zoomSettleDelay + 0.002)
        }
        version += 1
        oldestShownVersion = version
        pool?.discard(tiles.values.compactMap(\.pixels))
        tiles.removeAll()
        for key in wantedKeys {
            if let returning, returning.tiles[key] != nil || returning.plain.contains(key) {
                var tile = Tile()
                tile.show(returning.tiles[key], version: version)
                tiles[key] = tile
            } else {
                tiles[key, default: Tile()].changeAll(at: version)
            }
        }
    }

    /// The window's tiles painted at this zoom and current (their count), those of them with pixels and those
    /// plain.
    private func shownTiles() -> (count: Int, painted: [TileKey: PaintedTile], plain: Set<TileKey>) {
        var count = 0
        var painted: [TileKey: PaintedTile] = [:]
        var plain: Set<TileKey> = []
        for key in grid.keys(in: windowRect) {
            guard let tile = tiles[key], tile.shownVersion >= 0, tile.isCurrent else { continue }
            count += 1
            if let pixels = tile.pixels { painted[key] = pixels } else { plain.insert(key) }
        }
        return (count, painted, plain)
    }

    /// Whether every tile of the window shows the current version.
    var isComplete: Bool {
        grid.keys(in: windowRect).allSatisfy { tiles[$0]?.isCurrent ?? false }
    }

    /// Whether every tile under `region` (tile pixels) shows `version` or newer.
    func shows(_ region: DamageRegion, atLeast version: Int) -> Bool {
        region.rects.allSatisfy { rect in
            grid.keys(in: rect.intersection(windowRect)).allSatisfy {
                (tiles[$0]?.shownVersion ?? -1) >= version
            }
        }
    }

    /// Queues every stale tile that no painter has from a scene as new as it needs, from the scene `makeScene`
    /// builds (only called when some tile needs it): a tile a painter has not taken yet is then painted once, from
    /// this scene. A scene with nothing to show makes every stale tile plain at once, with no painter, and takes
    /// back the ones queued: a clear shows in full at once, even while a large drawing's tiles are being painted.
    /// Returns the window region (window pixels) of tiles that changed on the spot.
    func schedule(_ makeScene: () -> TileScene) -> Rect {
        guard mayNeedScheduling else { return .null }
        if let held = paintingHeldUntil {
            // The zoom may still be moving: the stand-ins show meanwhile, and the pool wakes the loop when it is time.
            guard ContinuousClock.now >= held else { return .null }
            paintingHeldUntil = nil
        }
        mayNeedScheduling = false
        var changed = Rect.null
        var scene: TileScene?
        var takenBack: Set<TileKey> = []
        for key in wantedKeys {
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
                changed = changed.union(windowRect(of: key))
            }
            tiles[key] = tile
        }
        if !takenBack.isEmpty { pool?.cancel { takenBack.contains($0) } }
        return changed
    }

    /// Where the tile `key` lies in the window, in window pixels.
    private func windowRect(of key: TileKey) -> Rect {
        let rect = grid.rect(of: key)
        return Rect(
            x: rect.minX - Double(origin.x), y: rect.minY - Double(origin.y), width: rect.width, height: rect.height)
    }

    /// Swaps in the tiles painters finished, each only if it is newer than the one it replaces. Returns the window
    /// region (window pixels) that changed.
    func swapInFinished() -> Rect {
        guard let pool else { return .null }
        var changed = Rect.null
        for painted in pool.takeFinished() {
            // Scrolled or resized away meanwhile, or painted at the zoom before the last change.
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
                changed = changed.union(windowRect(of: painted.key))
            }
            tiles[painted.key] = tile
        }
        return changed
    }

    /// Waits until every tile shows the current version or `timeout` seconds pass, scheduling from `makeScene` as
    /// tiles come in (tests, the benchmark, and replay). Returns whether the tiles are complete, and the window
    /// region that changed meanwhile.
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

    /// Copies the tiles under each box of `region` (window pixels) into `canvas`, plain background where a tile
    /// has no pixels, and the earlier zoom's tiles scaled where a tile was never painted at this one. A straight
    /// copy of rows: through Cairo, under a clip of a long line's hundred boxes, it costs ten times as much. The
    /// region's boxes come top to bottom, so each tile of a row of tiles is looked up once while the boxes are in
    /// that row: a diagonal's boxes in one band can lie in two tiles, and looking a tile up again at each box
    /// (hashing its key, retaining its pixels) costs a long line's frame ~1 µs in-process and more in the running
    /// app, where that memory is cold.
    func compose(into canvas: CairoSurface, region: PixelRegion, background: Color) {
        canvas.flush()
        guard let target = ImagePixels(canvas) else { return }
        let size = grid.size
        // The window's tiles, from the first column and row it shows.
        let firstColumn = grid.index(of: origin.x)
        let columns = grid.index(of: origin.x + max(1, target.width) - 1) - firstColumn + 1
        enum Shown {
            case pixels(ImagePixels)
            case plain
            case notPainted
        }
        // The tiles of `tileRow` looked up so far, by column from `firstColumn` (nil: not yet).
        var tileRow = Int.min
        var rowTiles = [Shown?](repeating: nil, count: columns)
        // The parts of tiles not painted at this zoom yet, where the earlier zoom's tiles stand in.
        var standIns: [PixelBox] = []
        for box in region.boxes where !box.isEmpty {
            let y0 = max(0, box.y0) + origin.y
            let y1 = max(0, box.y1 - 1) + origin.y
            for row in grid.index(of: y0)...grid.index(of: y1) {
                if row != tileRow {
                    tileRow = row
                    for column in rowTiles.indices { rowTiles[column] = nil }
                }
                let from = max(0, grid.index(of: max(0, box.x0) + origin.x) - firstColumn)
                let to = min(columns - 1, grid.index(of: max(0, box.x1 - 1) + origin.x) - firstColumn)
                guard from <= to else { continue }
                for index in from...to {
                    let shown: Shown
                    if let known = rowTiles[index] {
                        shown = known
                    } else {
                        let tile = tiles[TileKey(column: firstColumn + index, row: row)]
                        if let pixels = tile?.pixels?.surface.flatMap(ImagePixels.init) {
                            shown = .pixels(pixels)
                        } else {
                            shown = (tile?.shownVersion ?? -1) < 0 ? .notPainted : .plain
                        }
                        rowTiles[index] = shown
                    }
                    // The tile's place in the window.
                    let tileOrigin = (x: (firstColumn + index) * size - origin.x, y: row * size - origin.y)
                    let part = box.intersection(
                        PixelBox(
                            x0: tileOrigin.x, y0: tileOrigin.y, x1: tileOrigin.x + size, y1: tileOrigin.y + size))
                    guard !part.isEmpty else { continue }
                    switch shown {
                    case .pixels(let pixels):
                        target.copy(from: pixels, at: tileOrigin, into: part)
                    case .plain:
                        target.fill(part, with: background)
                    case .notPainted:
                        // The background now; the earlier zoom's tiles over it at the end, scaled by Cairo.
                        target.fill(part, with: background)
                        if fallback != nil { standIns.append(part) }
                    }
                }
            }
        }
        canvas.markDirty()
        if let fallback, !standIns.isEmpty {
            fallback.paintScaled(into: canvas, boxes: standIns, origin: origin, pixelsPerUnit: pixelsPerUnit)
        }
    }
}
