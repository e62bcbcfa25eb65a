import TouchKit
import TouchTracker

/// Draws a `DrawingView`'s state with Cairo, keeping the complete lines in a cached surface so a frame costs only
/// the damaged region, not the whole drawing.
///
/// `frame` composes into `canvas`, an off-screen buffer the size of the window that holds exactly what the window
/// should show; the platform copies the returned region of it to the screen, so a half-drawn frame is never seen.
public final class DrawingRenderer {
    public private(set) var canvas: CairoSurface
    private var canvasContext: CairoContext
    /// White background plus every complete line, except while one is selected or moving (drawn on top instead).
    private var cache: CairoSurface
    private var cacheContext: CairoContext
    private var cacheIsStale = true
    /// The overlay last drawn and the pixels it covered, so a change repaints both the old and the new place.
    private var lastOverlay = Overlay()
    private var lastOverlayBounds = Rect.null

    public var backgroundColor = Color.white
    public var completeColor = Color.black
    public var inProgressColor = Color.red

    public init(width: Int, height: Int) throws(CairoError) {
        canvas = try CairoSurface(width: width, height: height)
        canvasContext = try CairoContext(surface: canvas)
        cache = try CairoSurface(width: width, height: height)
        cacheContext = try CairoContext(surface: cache)
    }

    public var width: Int { canvas.width }
    public var height: Int { canvas.height }

    /// Matches the window size. Everything is redrawn on the next frame.
    public func resize(width: Int, height: Int) throws(CairoError) {
        guard width != canvas.width || height != canvas.height else { return }
        canvas = try CairoSurface(width: width, height: height)
        canvasContext = try CairoContext(surface: canvas)
        cache = try CairoSurface(width: width, height: height)
        cacheContext = try CairoContext(surface: cache)
        cacheIsStale = true
        lastOverlay = Overlay()
        lastOverlayBounds = .null
    }

    public var selectedColor = Color.green

    /// Draws what changed in `view` (and the popup `menu`, and the `overlay` above both) since the last frame and
    /// clears the view's damage. Returns the region of `canvas` that changed (nil when nothing did), for the
    /// platform to present.
    public func frame(
        for view: DrawingView, menu: PopupMenu? = nil, overlay: Overlay = Overlay(), forceFull: Bool = false
    ) -> Rect? {
        let full = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        var damage = view.damage
        view.damage = Damage()
        if damage.cacheNeedsRebuild || cacheIsStale {
            rebuildCache(view)
            damage.add(full)
        } else {
            for rect in damage.staleCacheRegions { refreshCache(view, in: rect.intersection(full)) }
        }
        if forceFull { damage.add(full) }
        if overlay != lastOverlay {
            damage.add(lastOverlayBounds)
            lastOverlay = overlay
            lastOverlayBounds =
                overlay.isEmpty ? .null : OverlayPainter.bounds(of: overlay, canvas: full, in: canvasContext)
            damage.add(lastOverlayBounds)
        }
        let region = damage.region.intersection(full)
        guard !region.isEmpty else { return nil }
        compose(view, menu: menu, overlay: overlay, in: region)
        return region
    }

    /// Redraws the whole cache: every complete line but the selected one, then every circle but the selected one
    /// (circles lie above lines).
    private func rebuildCache(_ view: DrawingView) {
        cacheContext.save()
        cacheContext.paint(solid: backgroundColor)
        let selected = view.selectedLineID
        for id in view.lines.order where id != selected {
            cacheContext.strokeStyled(view.lines[id]!, defaultColor: completeColor, defaultWidth: view.lineWidth)
        }
        let selectedCircle = view.selectedCircleID
        for id in view.circles.order where id != selectedCircle {
            cacheContext.strokeStyled(view.circles[id]!, defaultColor: completeColor, defaultWidth: view.lineWidth)
        }
        cacheContext.restore()
        cache.flush()
        cacheIsStale = false
    }

    /// Redraws one region of the cache from the spatial index: only the lines that cross it, in stacking order.
    private func refreshCache(_ view: DrawingView, in region: Rect) {
        guard !region.isEmpty else { return }
        cacheContext.save()
        cacheContext.clip(to: region)
        cacheContext.paint(solid: backgroundColor)
        let selected = view.selectedLineID
        let reach = region.insetBy(dx: -view.widestStroke, dy: -view.widestStroke)
        // The grid hands back every line filed near the region; stroke only those whose stroke can reach it.
        for item in view.lines.lines(crossing: reach)
        where item.id != selected && item.line.strokeMayTouch(region, width: item.line.width ?? view.lineWidth) {
            cacheContext.strokeStyled(item.line, defaultColor: completeColor, defaultWidth: view.lineWidth)
        }
        let selectedCircle = view.selectedCircleID
        for item in view.circles.circles(reaching: region, defaultWidth: view.lineWidth)
        where item.id != selectedCircle {
            cacheContext.strokeStyled(item.circle, defaultColor: completeColor, defaultWidth: view.lineWidth)
        }
        cacheContext.restore()
        cache.flush()
    }

    private func compose(_ view: DrawingView, menu: PopupMenu?, overlay: Overlay, in region: Rect) {
        canvasContext.save()
        canvasContext.clip(to: region)
        canvasContext.paint(cache)
        if let selected = view.selectedLine, selected.strokeBounds(defaultWidth: view.lineWidth).intersects(region) {
            canvasContext.setColor(selectedColor)
            canvasContext.stroke(selected, width: selected.width ?? view.lineWidth)
        }
        if let selected = view.selectedCircle, selected.strokeBounds(defaultWidth: view.lineWidth).intersects(region) {
            canvasContext.setColor(selectedColor)
            canvasContext.stroke(selected, width: selected.width ?? view.lineWidth)
        }
        // In progress: red, or the line's own colour when colour by angle gives it one.
        for line in view.visibleLinesInProgress
        where line.strokeBounds(defaultWidth: view.lineWidth).intersects(region) {
            canvasContext.strokeStyled(line, defaultColor: inProgressColor, defaultWidth: view.lineWidth)
        }
        canvasContext.setColor(inProgressColor)
        for circle in view.visibleCirclesInProgress
        where circle.strokeBounds(defaultWidth: view.lineWidth).intersects(region) {
            canvasContext.stroke(circle, width: view.lineWidth)
        }
        if let menu, menu.damageFrame.intersects(region) { MenuPainter.paint(menu, in: canvasContext) }
        if !overlay.isEmpty, lastOverlayBounds.intersects(region) {
            OverlayPainter.paint(
                overlay, canvas: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), in: canvasContext)
        }
        canvasContext.restore()
        canvas.flush()
    }
}
