import TouchTrackerSession
import TouchTrackerStore
import TouchTrackerWayland
import TouchTrackerX11

/// What the command line needs of a window, whichever window system it is on.
protocol DrawingWindow: AnyObject {
    var session: DrawingSession { get }
    /// The window as the document's lock records it, for a second `touchtracker` to bring forward.
    var lockWindow: DocumentLock.Window { get }
    /// The size and position to remember for next time.
    var windowGeometry: WindowGeometry { get }
    /// Runs until the window closes; returns the exit status.
    func run() -> Int32
}

extension X11App: DrawingWindow {
    var lockWindow: DocumentLock.Window { .x11(windowID) }
}

extension WaylandApp: DrawingWindow {
    var lockWindow: DocumentLock.Window { .wayland }
}
