import TouchKit

/// What the X11 translator makes of one X event, free of Xlib types.
enum PlatformEvent {
    case touch(TouchInput)
    /// A slave device went away or was disabled: its touches are cancelled by the system.
    case deviceRemoved(sourceID: Int32)
    /// Part of the window must be repainted; `isLast` ends a batch (Expose `count == 0`).
    case expose(Rect, isLast: Bool)
    case resized(width: Int, height: Int)
    case mapped
    case closeRequested
    case key(KeyStroke)
}

/// A key pressed in the window: the keysym's name and the modifiers held.
struct KeyStroke: Hashable {
    var name: String
    var control: Bool
    var shift: Bool
}
