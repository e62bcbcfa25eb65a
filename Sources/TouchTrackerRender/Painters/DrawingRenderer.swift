import TouchKit
import TouchTracker

/// Draws a `DrawingView`'s state with Cairo. The complete lines and circles live in tiles painted off the event
/// loop (`TileCache`); a frame only copies tiles and draws what is live on top, so its cost is the damaged region,
/// never the size of the drawing.
///
/// `frame` composes into `canvas`, an off-screen buffer the size of the window that holds exactly what the window
/// should show; the platform shows the returned region of it on the screen, so a half-drawn frame is never seen.
/// (Where the canvas is memory the display reads, as the X window's shared image is, the platform must make sure
/// the display has read the last frame before calling `frame` again.)
///
/// What is live — lines and circles in progress, the selected shape, shapes just drawn or put back whose tiles are
/// still being repainted, the menu and the overlay — is drawn on top of the tiles in every frame, whatever the
/// painters are doing. Hit testing never looks at tiles: it asks the view's spatial index.
///
/// The view is in drawing units (one unit is one pixel on a 100 % screen), shown at its `viewport`'s zoom and
/// place; the canvas and its tiles are in pixels, `scale` of them per window unit (DESIGN.md §2a, §2b). The drawing
/// (the view's damage and shapes) goes to the pixels through the viewport and the scale, the menu and the overlay
/// (window units) through the scale alone, here and nowhere else. The tiles are kept for the zoom shown; after a
/// change of zoom the earlier zoom's tiles are shown scaled until the new ones are painted.
public final class DrawingRenderer {
    public private(set) var canvas: CairoSurface
    /// Canvas pixels per drawing unit: the screen's scale.
    public private(set) var scale: Double
    private var canvasContext: CairoContext
    private let makeCanvas: (_ width: Int, _ height: Int) throws(CairoError) -> CairoSurface
    private let tiles: TileCache
    /// Whether the tiles were ever asked for (the first frame asks for all of them).
    private var tilesStarted = false
    /// What a `waitUntilTilesComplete` took from the view and left for the next frame to draw.
    private var carried: WindowChanges?
    /// Shapes that went into the tiles at a version the tiles under them do not show yet, drawn live meanwhile.
    private var pendingShapes: [ShapeID: Int] = [:]
    /// The overlay last shown, laid out, with the pixels it covers (nil: none), so a change repaints both the old
    /// and the new place.
    private var shownOverlay: OverlayPainter?

    public var backgroundColor = Color.white
    public var completeColor = Color.black
    public var inProgressColor = Color.red
    public var selectedColor = Color.green
    /// Whether strokes whose shape the tiles cannot show (zoomed far out: lines with a pen of at most a pixel, dots
    /// of circles) are painted as the ink they leave, without Cairo (`CoveragePainter`); off, Cairo strokes every
    /// shape, as the benchmark compares. The tiles painted from then on follow it.
    public var levelOfDetail = true
    /// Puts the menu's titles, notices and the inspector's labels in the user's language.
    public var translate: Translate = untranslated
    /// For the benchmark's floor only (`touchtracker-bench`'s long-line row, through `TOUCHTRACKER_BENCH_FLOOR`):
    /// each frame works out its region as usual but draws nothing into it, so the platform presents the same band
    /// unchanged — what presenting alone costs, against which the app's drawing is measured. The first frame
    /// after it is turned off redraws the whole window. Never set otherwise.
    public var drawsNothingForBenchmarkFloor = false
    /// Whether a frame drew nothing for the floor since the last one that drew: the canvas then lags behind what
    /// the window should show, and the next frame that draws redraws it all.
    private var drewNothing = false

    /// A renderer for a `width` x `height` window. With `painterThreads` > 0 tiles are painted by that many threads
    /// in the background and `onTileFinished` is called (on a painter's thread) each time one is ready, so the
    /// platform can wake its event loop for the next frame. With 0, tiles are painted inside `frame`, so every
    /// frame is complete (replay, export, tests).
    ///
    /// `makeCanvas` makes the canvas for a window size (at first and on every resize): the platform's, where frames
    /// can be drawn straight into memory the display reads.
    public init(
        width: Int, height: Int, scale: Double = 1, painterThreads: Int = 0,
        onTileFinished: @escaping @Sendable () -> Void = {},
        makeCanvas: @escaping (_ width: Int, _ height: Int) throws(CairoError) -> CairoSurface = {
            try CairoSurface(width: $0, height: $1)
        }
    ) throws(CairoError) {
        self.makeCanvas = makeCanvas
        self.scale = Self.usable(scale)
        canvas = try makeCanvas(width, height)
        canvasContext = try CairoContext(surface: canvas)
        tiles = TileCache(
            width: width, height: height, pixelsPerUnit: self.scale, painterThreads: painterThreads,
            onTileFinished: onTileFinished)
    }

    public var width: Int { canvas.width }
    public var height: Int { canvas.height }

    /// Painter threads in use (0: tiles are painted inside `frame`).
    public var painterThreads: Int { tiles.painterThreads }

    /// Whether every tile shows the drawing as it is (nothing left for the painters).
    public var tilesComplete: Bool { tiles.isComplete }

    /// Tiles painted and swapped in so far, for tests and measurements.
    public var tilesPainted: Int { tiles.tilesPainted }
    /// Repaints of only the changed parts of a tile queued so far (for tests).
    public var tilesRepaintedInPart: Int { tiles.partialRepaints }

    /// Shapes drawn live on top of the tiles because the tiles under them do not show them yet, for tests and
    /// measurements: none once the painters have caught up.
    public var shapesDrawnLive: Int { pendingShapes.count }

    /// A scale the renderer can paint at: finite and positive (1 otherwise).
    private static func usable(_ scale: Double) -> Double {
        scale.isFinite && scale > 0 ? scale : 1
    }

    /// Matches the window size (`width` x `height` pixels) and, when `scale` is given, the screen's scale. At the
    /// same scale, tiles still inside the window are kept and only new ones are painted. At a new scale every tile
    /// is painted again, in the background; meanwhile the picture the window showed is shown stretched to the new
    /// scale (`TileCache.rescale`), so the drawing keeps its size and place and the window is never blank. The
    /// whole window is recomposed on the next frame.
    public func resize(width: Int, height: Int, scale newScale: Double? = nil) throws(CairoError) {
        let newScale = newScale.map(Self.usable) ?? scale
        guard width != canvas.width || height != canvas.height || newScale != scale else { return }
        canvas = try makeCanvas(width, height)
        canvasContext = try CairoContext(surface: canvas)
        // A new scale is a new zoom of the tiles, which the next frame follows (`followViewport`).
        scale = newScale
        tiles.move(width: width, height: height, origin: tiles.origin)
        shownOverlay = nil
        resized = true
    }

    /// Whether the canvas was made anew since the last frame (it is composed whole).
    private var resized = false

    // MARK: From the drawing to the pixels

    /// Canvas pixels per drawing unit: the zoom times the screen's scale.
    private var pixelsPerUnit: Double { tiles.pixelsPerUnit }

    /// The zoomed drawing's pixel at the canvas's top-left corner.
    private var pixelOrigin: Point { Point(x: Double(tiles.origin.x), y: Double(tiles.origin.y)) }

    /// Where the drawing's `region` lies on the canvas, a pixel more on every side for antialiasing.
    private func canvasRegion(_ region: DamageRegion) -> DamageRegion {
        region.transformed(scale: pixelsPerUnit, offset: pixelOrigin, margin: 1)
    }

    /// Where the drawing's `rect` lies on the canvas, a pixel more on every side for antialiasing.
    private func canvasRect(_ rect: Rect) -> Rect {
        canvasRegion(DamageRegion(rect)).bounds
    }

    /// Where the drawing's `rect` lies among the tiles (tile pixels), a pixel more on every side.
    private func tileRect(_ rect: Rect) -> Rect {
        DamageRegion(rect).transformed(scale: pixelsPerUnit, offset: .zero, margin: 1).bounds
    }

    /// Follows the view's zoom and place: a new zoom (or screen scale) paints the tiles anew, the old ones shown
    /// scaled meanwhile, nearest first to the point the zoom held still; a scroll keeps the tiles and paints those
    /// it brings in. Returns whether the window must be composed whole.
    private func followViewport(of view: DrawingView) -> Bool {
        let viewport = view.viewport
        let ppu = viewport.zoom * scale
        guard ppu.isFinite, ppu > 0, viewport.offset.isFinite else { return false }
        func pixel(_ value: Double) -> Int { Int(Swift.min(Swift.max((value * scale).rounded(), -1e15), 1e15)) }
        let origin = (x: pixel(viewport.offset.x), y: pixel(viewport.offset.y))
        if ppu != tiles.pixelsPerUnit {
            tiles.changeZoom(
                pixelsPerUnit: ppu, width: width, height: height, origin: origin,
                focus: heldPoint(from: tiles.pixelsPerUnit, pixelOrigin, to: ppu, origin))
            return true
        }
        guard origin != tiles.origin else { return false }
        tiles.move(width: width, height: height, origin: origin)
        return true
    }

    /// The window pixel that shows the same drawing point before and after a change of zoom (the pointer of a
    /// Ctrl+wheel, the centre of a key's zoom or a pinch), or nil when there is none in the window.
    private func heldPoint(
        from ppu0: Double, _ origin0: Point, to ppu1: Double, _ origin1: (x: Int, y: Int)
    ) -> Point? {
        // d·ppu0 − o0 = d·ppu1 − o1 for the drawing point d held still, which shows at d·ppu0 − o0.
        let o1 = Point(x: Double(origin1.x), y: Double(origin1.y))
        let held = Point(
            x: (origin0.x - o1.x) / (ppu0 - ppu1) * ppu0 - origin0.x,
            y: (origin0.y - o1.y) / (ppu0 - ppu1) * ppu0 - origin0.y)
        let window = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        return held.isFinite && window.contains(held) ? held : nil
    }

    /// Draws from now on into `canvas`, which holds exactly what the current canvas holds (a platform that rotates
    /// frames through several buffers brought the next one up to date first). Same size; nothing is repainted.
    public func retarget(to canvas: CairoSurface) throws(CairoError) {
        guard canvas !== self.canvas else { return }
        precondition(canvas.width == self.canvas.width && canvas.height == self.canvas.height, "retarget changes size")
        canvasContext = try CairoContext(surface: canvas)
        self.canvas = canvas
    }

    /// Draws what changed in `view` (and the popup `menu`, and the `overlay` above both) since the last frame, and
    /// tiles painters finished since then, and clears the view's damage. Returns the region of `canvas` that
    /// changed (nil when nothing did), for the platform to present.
    public func frame(
        for view: DrawingView, menu: PopupMenu? = nil, overlay: Overlay = Overlay(), forceFull: Bool = false
    ) -> DamageRegion? {
        let full = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let moved = followViewport(of: view)
        var damage = takeTileChanges(from: view)
        if moved || resized { damage.add(full) }
        resized = false
        damage.add(tiles.schedule { scene(of: view) })
        damage.add(tiles.swapInFinished())
        damage.add(prunePendingShapes(of: view))
        if forceFull || (drewNothing && !drawsNothingForBenchmarkFloor) { damage.add(full) }
        if overlay != (shownOverlay?.overlay ?? Overlay()) {
            damage.add(shownOverlay.map { $0.bounds.scaled(by: scale) } ?? .null)
            shownOverlay = overlay.isEmpty ? nil : layOut(overlay)
            damage.add(shownOverlay.map { $0.bounds.scaled(by: scale) } ?? .null)
        }
        let region = damage.region.intersection(full)
        guard !region.isEmpty else { return nil }
        drewNothing = drawsNothingForBenchmarkFloor
        if !drawsNothingForBenchmarkFloor {
            compose(view, menu: menu, in: region, redrawn: damage.redrawnLinesInProgress)
        }
        return region
    }

    /// Lays `overlay` out in drawing units, for the window's size in them, with the text measured at the scale it is
    /// painted at.
    private func layOut(_ overlay: Overlay) -> OverlayPainter {
        canvasContext.save()
        defer { canvasContext.restore() }
        canvasContext.scale(by: scale)
        let window = Rect(x: 0, y: 0, width: Double(width), height: Double(height)).scaled(by: 1 / scale)
        return OverlayPainter(overlay, canvas: window, translate: translate, in: canvasContext)
    }

    /// Waits (up to `timeout` seconds) until the painters have brought every tile up to date with `view`. For
    /// tests, the benchmark and anything that needs a complete picture; the window never waits.
    @discardableResult
    public func waitUntilTilesComplete(for view: DrawingView, timeout: Double = 30) -> Bool {
        let moved = followViewport(of: view)
        carried = takeTileChanges(from: view)
        if moved { carried?.add(Rect(x: 0, y: 0, width: Double(width), height: Double(height))) }
        let (complete, changed) = tiles.waitUntilComplete(timeout: timeout) { scene(of: view) }
        // The tiles swapped in, and what the view changed, are drawn by the next frame.
        carried?.add(changed)
        return complete
    }

    /// Takes what the view changed, turns its complete shapes' part into tile changes, and returns what is left to
    /// draw in the window (with what an earlier `waitUntilTilesComplete` carried over). The view is only read from:
    /// the renderer keeps its own bookkeeping.
    private func takeTileChanges(from view: DrawingView) -> WindowChanges {
        let changes = view.takeChanges()
        var rest = carried ?? WindowChanges()
        carried = nil
        rest.add(canvasRegion(changes.region))
        rest.redrawnLinesInProgress.formUnion(changes.redrawnLinesInProgress)
        if changes.everythingChanged || !tilesStarted {
            // The first frame shows the whole window; later rebuilds show each tile as it is swapped in (tiles with
            // nothing to show are made plain at once by `schedule`, which returns where).
            if !tilesStarted { rest.add(Rect(x: 0, y: 0, width: Double(width), height: Double(height))) }
            tilesStarted = true
            tiles.beginChange()
            tiles.invalidateAll()
            // Shapes drawn live stay live until the repainted tiles show them: the tiles showing meanwhile were
            // painted before them (a line finished just before a paste, or before its document arrived, would
            // vanish for as long as the repaint takes). Shapes gone with the change are pruned next.
            for shape in Array(pendingShapes.keys) + (changes.shapesCompleted ?? []) {
                pendingShapes[shape] = tiles.version
            }
        } else if !changes.completeShapesChanged.isEmpty {
            tiles.beginChange()
            for rect in changes.completeShapesChanged.rects { tiles.invalidate(tileRect(rect)) }
            for shape in changes.shapesCompleted ?? [] { pendingShapes[shape] = tiles.version }
        }
        return rest
    }

    /// What is left to draw in the window once the tiles have taken their part of the view's changes.
    private struct WindowChanges {
        var region = DamageRegion()
        /// Lines in progress whose whole stroke, old place and new, is in `region`.
        var redrawnLinesInProgress: Set<UInt64> = []

        mutating func add(_ rect: Rect) { region.add(rect) }
        mutating func add(_ other: DamageRegion) { region.add(other) }
    }

    private func scene(of view: DrawingView) -> TileScene {
        TileScene(
            version: tiles.version, view: view, scale: pixelsPerUnit, background: backgroundColor,
            completeColor: completeColor, levelOfDetail: levelOfDetail)
    }

    /// Forgets shapes the tiles now show (or that are gone). A shape is shown once the tiles under its stroke's
    /// band show its version: those are the tiles its insertion made stale. (Its bounding box would not do: for a
    /// diagonal line that is tiles nobody repaints, and the line would stay live, stroked again every frame.)
    /// Returns where the shapes it forgot were drawn live: the tiles there were swapped in while the shape was still
    /// stroked over them (they finish in different frames), so those pixels hold it twice until they are composed
    /// again from the tiles alone.
    private func prunePendingShapes(of view: DrawingView) -> DamageRegion {
        var redraw = DamageRegion()
        guard !pendingShapes.isEmpty else { return redraw }
        pendingShapes = pendingShapes.filter { id, version in
            guard let shape = view.shapes[id] else { return false }
            let band = DamageRegion.stroke(of: shape, defaultWidth: view.lineWidth)
            guard tiles.shows(band.transformed(scale: pixelsPerUnit, offset: .zero, margin: 1), atLeast: version)
            else { return true }
            redraw.add(canvasRegion(band))
            return false
        }
        return redraw
    }

    /// Redraws `region` of the canvas: tiles, then everything live on top, under a clip of the region's
    /// rectangles. Lines in progress are drawn by `LineRaster` straight into the canvas's pixels, within the
    /// region's boxes; one whose whole stroke lies in the region (`redrawn`: it moved) within the region's bounds
    /// instead, the same pixels without cutting the line at each box.
    private func compose(
        _ view: DrawingView, menu: PopupMenu?, in region: DamageRegion, redrawn: Set<UInt64>
    ) {
        let pixels = PixelRegion(region, within: canvas)
        tiles.compose(into: canvas, region: pixels, background: backgroundColor)
        // What Cairo draws is clipped to the region's rectangles, a clip set up only once something Cairo draws lies
        // in the region: a long line's hundred boxes cost ~65 µs a frame to clip to, for nothing when only lines in
        // progress (drawn by `LineRaster`, within the region's boxes) are there. Under the clip, Cairo draws in
        // drawing units, zoomed and scrolled; the menu and the overlay are drawn in window units (`inWindowUnits`).
        var clipped = false
        let clip = {
            guard !clipped else { return }
            clipped = true
            self.canvasContext.save()
            self.canvasContext.clip(to: region)
            self.canvasContext.translate(x: -self.pixelOrigin.x, y: -self.pixelOrigin.y)
            self.canvasContext.scale(by: self.pixelsPerUnit)
        }
        drawPendingShapes(of: view, in: region, clip: clip)
        if let selected = view.selectedShape, region.intersects(canvasBounds(of: selected, in: view)) {
            clip()
            canvasContext.setColor(selectedColor)
            canvasContext.stroke(selected, width: selected.width ?? view.lineWidth)
        }
        drawLinesInProgress(of: view, in: region, pixels: pixels, redrawn: redrawn)
        for circle in view.visibleCirclesInProgress
        where region.intersects(canvasRect(circle.strokeBounds(defaultWidth: view.lineWidth))) {
            clip()
            canvasContext.setColor(inProgressColor)
            canvasContext.stroke(circle, width: view.lineWidth)
        }
        if let menu, region.intersects(menu.damageFrame.scaled(by: scale)) {
            clip()
            inWindowUnits { MenuPainter.paint(menu, translate: translate, in: canvasContext) }
        }
        if let shownOverlay, region.intersects(shownOverlay.bounds.scaled(by: scale)) {
            clip()
            inWindowUnits { shownOverlay.paint(in: canvasContext) }
        }
        if clipped { canvasContext.restore() }
        canvas.flush()
    }

    /// Draws with Cairo in window units (the menu, the overlay): the screen's scale alone, under the clip set.
    private func inWindowUnits(_ draw: () -> Void) {
        canvasContext.save()
        canvasContext.scale(by: 1 / pixelsPerUnit)
        canvasContext.translate(x: pixelOrigin.x, y: pixelOrigin.y)
        canvasContext.scale(by: scale)
        draw()
        canvasContext.restore()
    }

    /// Lines in progress, in red or the line's own colour and width, stacked in the order of their touches' keys
    /// (the same in every frame, whichever line moved).
    private func drawLinesInProgress(
        of view: DrawingView, in region: DamageRegion, pixels: PixelRegion, redrawn: Set<UInt64>
    ) {
        let lines = view.tracker.identifiedLinesInProgress.filter {
            region.intersects(canvasRect($0.line.strokeBounds(defaultWidth: view.lineWidth)))
        }
        guard !lines.isEmpty else { return }
        canvas.flush()
        let bounds = pixels.bounds
        for (touch, line) in lines {
            let onCanvas = Line(
                begin: line.begin * pixelsPerUnit - pixelOrigin, end: line.end * pixelsPerUnit - pixelOrigin)
            let raster = LineRaster(onCanvas, width: (line.width ?? view.lineWidth) * pixelsPerUnit)
            let color = line.color.map(Color.init) ?? inProgressColor
            raster.draw(in: color, into: canvas, within: redrawn.contains(touch) ? [bounds] : pixels.boxes)
        }
        canvas.markDirty()
    }

    /// Shapes just drawn or put back, in their own colours, until their tiles are repainted: bottom to top, as
    /// the tiles stack them.
    private func drawPendingShapes(of view: DrawingView, in region: DamageRegion, clip: () -> Void) {
        guard !pendingShapes.isEmpty else { return }
        for id in pendingShapes.keys.sorted() where id != view.selection {
            guard let shape = view.shapes[id], region.intersects(canvasBounds(of: shape, in: view)) else { continue }
            clip()
            canvasContext.strokeStyled(shape, defaultColor: completeColor, defaultWidth: view.lineWidth)
        }
    }

    /// Where `shape`'s stroke lies on the canvas, in pixels.
    private func canvasBounds(of shape: Shape, in view: DrawingView) -> Rect {
        canvasRect(shape.strokeBounds(defaultWidth: view.lineWidth))
    }
}
