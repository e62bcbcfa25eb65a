/// A key press as the app understands it: an X keysym name and the modifiers held.
public struct KeyCommand: Hashable, Sendable, CustomStringConvertible {
    /// The keysym name (`Delete`, `Escape`, `Return`, `z`, `F10`, `Menu`, ...).
    public var key: String
    public var control: Bool
    public var shift: Bool

    public init(key: String, control: Bool = false, shift: Bool = false) {
        self.key = key
        self.control = control
        self.shift = shift
    }

    /// Parses `ctrl+shift+z`, `Delete`, `shift+F10`: modifiers (ctrl, control, shift) in any case, then a keysym.
    public init?(parsing text: String) {
        var parts = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        guard let key = parts.popLast(), !key.isEmpty else { return nil }
        var control = false
        var shift = false
        for modifier in parts {
            switch modifier.lowercased() {
            case "ctrl", "control": control = true
            case "shift": shift = true
            default: return nil
            }
        }
        self.init(key: key, control: control, shift: shift)
    }

    /// The key name compared without case for single letters (X reports `Z` with shift held, `z` without).
    var normalizedKey: String { key.count == 1 ? key.lowercased() : key }

    public var description: String {
        (control ? "ctrl+" : "") + (shift ? "shift+" : "") + key
    }
}
