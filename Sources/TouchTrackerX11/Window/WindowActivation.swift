import CX11
import Foundation

/// Asks for another window to come forward, as a second `touchtracker` on an open document does for the window
/// that has it: a `_NET_ACTIVE_WINDOW` client message to the root window, which is how EWMH window managers expect
/// a program to activate a window (source 1: an application). Where no window manager runs (no
/// `_NET_SUPPORTING_WM_CHECK` on the root window) nobody would act on the message, so the window is raised
/// directly as well.
public enum WindowActivation {
    /// Opens `displayName` (or `$DISPLAY`), asks for `window` to come forward and closes the connection.
    public static func activate(
        window: UInt, displayName: String?, environment: [String: String]
    ) throws(X11Error) {
        let display = try X11Display(name: displayName, environment: environment)
        let dpy = display.pointer
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.send_event = 1
        event.xclient.display = dpy
        event.xclient.window = Window(window)
        event.xclient.message_type = display.atom("_NET_ACTIVE_WINDOW")
        event.xclient.format = 32
        event.xclient.data.l.0 = 1
        event.xclient.data.l.1 = Int(CurrentTime)
        event.xclient.data.l.2 = 0
        XSendEvent(
            dpy, display.rootWindow, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        if !hasWindowManager(display) { XRaiseWindow(dpy, Window(window)) }
        // A window that is gone by now is a protocol error the display's handler logs in one line; the message is
        // sent either way.
        display.sync()
    }

    /// Whether an EWMH window manager says it is running (it keeps `_NET_SUPPORTING_WM_CHECK` on the root window).
    private static func hasWindowManager(_ display: X11Display) -> Bool {
        let check = display.readProperty(display.atom("_NET_SUPPORTING_WM_CHECK"), of: display.rootWindow)
        return check?.type == XA_WINDOW && check?.longs.count == 1
    }
}
