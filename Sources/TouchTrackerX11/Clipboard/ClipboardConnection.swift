import CX11

/// What the clipboard's owner and its paster share: the X connection, the window that owns the selection and
/// receives conversions, the atoms, a way for their worker threads to wake the event loop, and the log.
struct ClipboardConnection {
    let display: X11Display
    let window: CX11.Window
    let atoms: ClipboardAtoms
    let wakeUp: @Sendable () -> Void
    let log: (String) -> Void
}
