import TouchTrackerSession
import TouchTrackerStore
import TouchTrackerWayland
import TouchTrackerX11

/// What the command line needs of a window, whichever window system it is on.
protocol DrawingWindow: AnyObject {
    var session: DrawingSession { get }
    /// The window as the document's lock records it, for a second `touchtracker` to bring forward.
    var lockWindow: DocumentLock.Window { get }
    /// The size (when not maximized) and position to remember for next time, in drawing units; a nil position: the
    /// window system tells none.
    var rememberedGeometry: (width: Int, height: Int, x: Int?, y: Int?) { get }
    /// Whether the window is maximized now.
    var isMaximized: Bool { get }
    /// Runs until the window closes; returns the exit status.
    func run() -> Int32
}

extension X11App: DrawingWindow {
    var lockWindow: DocumentLock.Window { .x11(windowID) }
    var rememberedGeometry: (width: Int, height: Int, x: Int?, y: Int?) {
        let geometry = windowGeometryInDrawingUnits
        return (geometry.width, geometry.height, geometry.x, geometry.y)
    }
    // X11 windows remember their geometry, which a maximized window's is too (as before).
    var isMaximized: Bool { false }
}

extension WaylandApp: DrawingWindow {
    var lockWindow: DocumentLock.Window { .wayland }
    var rememberedGeometry: (width: Int, height: Int, x: Int?, y: Int?) {
        (windowGeometry.width, windowGeometry.height, nil, nil)
    }
}
