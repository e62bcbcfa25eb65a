import TouchTrackerSession
import TouchTrackerWayland
import TouchTrackerX11

/// What the command line needs of a window, whichever window system it is on.
protocol DrawingWindow: AnyObject {
    var session: DrawingSession { get }
    /// The X window's id, for the document's lock (a second `touchtracker` brings that window forward); nil on
    /// Wayland, which gives clients no ids of windows.
    var lockWindowID: UInt? { get }
    /// The size and position to remember for next time.
    var windowGeometry: WindowGeometry { get }
    /// Runs until the window closes; returns the exit status.
    func run() -> Int32
}

extension X11App: DrawingWindow {
    var lockWindowID: UInt? { windowID }
}

extension WaylandApp: DrawingWindow {
    var lockWindowID: UInt? { nil }
}
