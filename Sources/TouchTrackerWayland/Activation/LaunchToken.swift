import Glibc

/// The xdg-activation token a launcher hands the app it starts on Wayland: `XDG_ACTIVATION_TOKEN`, or, from a
/// launcher on GLib before 2.76 (Debian 12's GNOME 43), `DESKTOP_STARTUP_ID`, the only name it passes a Wayland
/// launch's token under.
public enum LaunchToken {
    /// The variables a token comes in, in the order they are read.
    public static let variables = ["XDG_ACTIVATION_TOKEN", "DESKTOP_STARTUP_ID"]

    /// The token in `environment`, nil when none is set (or it is empty).
    public static func read(from environment: [String: String]) -> String? {
        variables.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
    }

    /// The token in this process's environment, taken out of it, so no program started later spends it.
    static func take() -> String? {
        var token: String?
        for name in variables {
            guard let value = getenv(name) else { continue }
            let text = String(decoding: UnsafeRawBufferPointer(start: value, count: strlen(value)), as: UTF8.self)
            if token == nil, !text.isEmpty { token = text }
            unsetenv(name)
        }
        return token
    }
}
