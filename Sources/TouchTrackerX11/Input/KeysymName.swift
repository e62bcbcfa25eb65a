import CX11

/// X keysym names, as replay scripts and the hosts spell keys (`space`, `Delete`, `ISO_Left_Tab`).
public enum KeysymName {
    /// Whether `name` is a keysym's name. Names are case-sensitive: `space` is one, `Space` is not. A table lookup
    /// in Xlib: no display is needed.
    public static func isKnown(_ name: String) -> Bool { XStringToKeysym(name) != 0 }
}
