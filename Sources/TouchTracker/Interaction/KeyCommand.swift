/// A key press as the app understands it: an X keysym name and the modifiers held.
public struct KeyCommand: Hashable, Sendable, CustomStringConvertible {
    /// The keysym name (`Delete`, `Escape`, `Return`, `z`, `F10`, `Menu`, ...).
    public var key: String
    public var control: Bool
    public var shift: Bool
    /// Alt or Super (the logo key) held. No key of TouchTracker's uses them, so such a press does nothing: Alt+C is
    /// a shortcut of the desktop's or nothing, never the colour menu.
    public var alt: Bool

    public init(key: String, control: Bool = false, shift: Bool = false, alt: Bool = false) {
        self.key = key
        self.control = control
        self.shift = shift
        self.alt = alt
    }

    /// Parses `ctrl+shift+z`, `Delete`, `shift+F10`, `alt+c`: modifiers (ctrl, control, shift, alt, super) in any
    /// case, then a keysym.
    public init?(parsing text: String) {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let key = parts.popLast(), !key.isEmpty else { return nil }
        var control = false
        var shift = false
        var alt = false
        for modifier in parts {
            switch modifier.lowercased() {
            case "ctrl", "control": control = true
            case "shift": shift = true
            case "alt", "super": alt = true
            default: return nil
            }
        }
        self.init(key: key, control: control, shift: shift, alt: alt)
    }

    /// The key name compared without case for single letters (X reports `Z` with shift held, `z` without).
    var normalizedKey: String { key.count == 1 ? key.lowercased() : key }

    public var description: String {
        (control ? "ctrl+" : "") + (alt ? "alt+" : "") + (shift ? "shift+" : "") + key
    }
}
