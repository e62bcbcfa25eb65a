import CX11
import Foundation

/// The X resources (as `xrdb` sets them on the root window) the app honours.
enum X11Resources {
    /// `Xft.dpi`, the desktop's text resolution, or nil when it is unset or not a sensible number.
    static func dpi(display: X11Display) -> Double? {
        // Xlib read the RESOURCE_MANAGER property when the display was opened.
        guard let text = XResourceManagerString(display.pointer) else { return nil }
        return dpi(inResources: String(cString: text))
    }

    /// `Xft.dpi` in resource-manager text such as "Xft.dpi:\t192\n", parsed with Xrm as every X client does.
    static func dpi(inResources text: String) -> Double? {
        XrmInitialize()
        guard let database = XrmGetStringDatabase(text) else { return nil }
        defer { XrmDestroyDatabase(database) }
        var type: UnsafeMutablePointer<CChar>?
        var value = XrmValue()
        guard XrmGetResource(database, "Xft.dpi", "Xft.Dpi", &type, &value) != 0, let address = value.addr else {
            return nil
        }
        let string = String(cString: address).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let dpi = Double(string), dpi.isFinite, (24...1000).contains(dpi) else { return nil }
        return dpi
    }
}
