import TouchTracker

/// A key pressed in the window: the keysym's name and the modifiers held.
struct KeyStroke: Hashable {
    var name: String
    var control: Bool
    var shift: Bool
    /// Alt (Mod1) or Super (Mod4) held.
    var alt = false
    /// The server's time of the press (milliseconds): the clipboard takes ownership and asks for conversions
    /// with it, as ICCCM requires.
    var serverTime: UInt = 0
    /// The press as the accessibility registry is told of it.
    var report: KeyEventReport?
}
