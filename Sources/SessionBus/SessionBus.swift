import Glibc

/// The desktop's session bus, as its D-Bus clients here (the accessibility bridge, the file dialog) find it.
public enum SessionBus {
    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, or the socket `XDG_RUNTIME_DIR/bus` where it exists.
    /// Nil otherwise: GLib would then try to launch a bus through X11, which the app must not cause.
    public static func address(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        var info = stat()
        guard stat(runtime + "/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + runtime + "/bus"
    }
}
