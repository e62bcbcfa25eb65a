/// Why the X11 platform could not start or went away.
public enum X11Error: Error, CustomStringConvertible {
    /// `$DISPLAY` is not set.
    case noDisplayVariable
    /// The display named by `$DISPLAY` or by --display (`byOption`) could not be opened.
    case cannotOpenDisplay(String, byOption: Bool = false)
    case windowCreationFailed(String)

    public var description: String {
        switch self {
        case .noDisplayVariable:
            "DISPLAY is not set; run TouchTracker inside an X11 session or set DISPLAY (for example DISPLAY=:0)"
        case .cannotOpenDisplay(let name, let byOption):
            "cannot open X display \"\(name)\" named by \(byOption ? "--display" : "DISPLAY"); check that the X server is running and that you "
                + "may connect to it (xhost, XAUTHORITY)"
        case .windowCreationFailed(let detail): "cannot create the window: \(detail)"
        }
    }
}
