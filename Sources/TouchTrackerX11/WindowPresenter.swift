import CCairo
import CX11
import TouchKit
import TouchTrackerRender

/// Copies finished frames from the off-screen canvas to the window through a Cairo Xlib surface.
final class WindowPresenter {
    private let window: X11Window
    private let surface: CairoSurface
    private let context: CairoContext

    init(window: X11Window) throws(CairoError) {
        let display = window.display
        let visual = XDefaultVisual(display.pointer, display.screen)
        surface = try CairoSurface(
            taking: cairo_xlib_surface_create(
                display.pointer, window.id, visual, Int32(window.width), Int32(window.height)),
            operation: "cairo_xlib_surface_create")
        context = try CairoContext(surface: surface)
        self.window = window
    }

    func resize(width: Int, height: Int) {
        cairo_xlib_surface_set_size(surface.pointer, Int32(width), Int32(height))
    }

    /// Shows `region` of `canvas` in the window in one copy, so no half-drawn frame is ever visible.
    func present(_ canvas: CairoSurface, region: Rect) {
        context.save()
        context.clip(to: region)
        context.paint(canvas)
        context.restore()
        surface.flush()
        window.display.flush()
    }
}
