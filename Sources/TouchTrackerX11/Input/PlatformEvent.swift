import TouchKit
import TouchTracker

/// What the X11 translator makes of one X event, free of Xlib types.
enum PlatformEvent {
    case touch(TouchInput)
    /// The pointer moved with no button held (menu highlight).
    case hover(Point)
    /// A tablet's pen hovers within reach without touching (`tool`: `.pencil` for its tip, `.eraser`).
    case stylusHover(Point, tool: TouchType)
    /// A tablet's pen left the tablet's reach (XI 1's ProximityOut).
    case stylusLeft
    /// A wheel or touchpad scrolled (`ScrollValuators`); its location and distance are window pixels.
    case scroll(ScrollInput)
    /// Button 3 was pressed at a point (select and open the menu at once).
    case contextClick(Point)
    /// A slave device went away or was disabled: its touches are cancelled by the system.
    case deviceRemoved(sourceID: Int32)
    /// Part of the window must be repainted; `isLast` ends a batch (Expose `count == 0`).
    case expose(Rect, isLast: Bool)
    case resized(width: Int, height: Int)
    case mapped
    case closeRequested
    /// The window gained (true) or lost (false) the keyboard focus.
    case focusChanged(Bool)
    case key(KeyStroke)
    /// A key released, as the accessibility registry is told of it.
    case keyReleased(KeyEventReport)
    /// Selection traffic for the clipboard (`X11Clipboard`).
    case clipboard(ClipboardEvent)
    /// Another client's message to the window other than WM_DELETE_WINDOW: drag and drop (`XdndTarget`) among them.
    case clientMessage(ClientMessageData)
    /// The X resources on the root window changed (`xrdb`, or a desktop's scale setting): `Xft.dpi` may be new.
    case resourcesChanged
}
