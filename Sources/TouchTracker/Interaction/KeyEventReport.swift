/// A key pressed or released, as the window system reported it: what the AT-SPI registry is told before the app acts
/// on the key (a screen reader may consume it), in X11's terms, which AT-SPI keeps.
public struct KeyEventReport: Sendable, Hashable {
    public var pressed: Bool
    /// The keysym (XK_Tab, XK_a, …).
    public var keysym: UInt32
    /// The hardware key code, in X's numbering (evdev's plus 8).
    public var keycode: UInt32
    /// The modifiers held, as X's state mask: Shift 1, Lock 2, Control 4, Mod1 (Alt) 8, Mod2 (Num Lock) 16, Mod4
    /// (Super) 64.
    public var modifiers: UInt32
    /// The window system's time of the event, in milliseconds.
    public var time: UInt32
    /// What the key types ("a", "A"), or its keysym's name for a key that types nothing ("Tab", "Left").
    public var text: String
    /// Whether `text` is typed text rather than a key's name.
    public var isText: Bool

    public init(
        pressed: Bool, keysym: UInt32, keycode: UInt32, modifiers: UInt32, time: UInt32, text: String, isText: Bool
    ) {
        self.pressed = pressed
        self.keysym = keysym
        self.keycode = keycode
        self.modifiers = modifiers
        self.time = time
        self.text = text
        self.isText = isText
    }

    /// X's modifier mask bits.
    public static let shiftMask: UInt32 = 1
    public static let lockMask: UInt32 = 2
    public static let controlMask: UInt32 = 4
    public static let mod1Mask: UInt32 = 8
    public static let mod2Mask: UInt32 = 16
    public static let mod4Mask: UInt32 = 64
}
