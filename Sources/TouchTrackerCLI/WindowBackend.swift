import ArgumentParser

/// Which window system the window opens on: `--backend`, else Wayland when `WAYLAND_DISPLAY` is set, else X11 when
/// `DISPLAY` is (an explicit `--display` means X11). Without `--backend`, a Wayland compositor that cannot be
/// reached falls back to X11 when `DISPLAY` is set too, as GTK does.
enum WindowBackend: String, ExpressibleByArgument, CaseIterable {
    case wayland
    case x11

    /// The backend to try first, why (for `--verbose`), and whether X11 is the fallback.
    struct Choice: Equatable {
        var backend: WindowBackend
        var reason: String
        var fallsBackToX11: Bool
    }

    /// What to open given the options and the environment, or the one-line error when there is nothing to open.
    static func choose(requested: WindowBackend?, displayOption: String?, environment: [String: String])
        throws(ValidationError) -> Choice
    {
        let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let x11 = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        if let requested {
            return Choice(backend: requested, reason: "--backend \(requested.rawValue) given", fallsBackToX11: false)
        }
        if let displayOption {
            return Choice(backend: .x11, reason: "--display \(displayOption) given", fallsBackToX11: false)
        }
        if let wayland {
            return Choice(
                backend: .wayland, reason: "WAYLAND_DISPLAY=\(wayland) is set", fallsBackToX11: x11 != nil)
        }
        if let x11 {
            return Choice(
                backend: .x11, reason: "DISPLAY=\(x11) is set and WAYLAND_DISPLAY is not", fallsBackToX11: false)
        }
        throw ValidationError(
            "no display to open the window on: neither WAYLAND_DISPLAY nor DISPLAY is set; run touchtracker in a "
                + "desktop session, or set one of them")
    }
}
