import TouchKit
import TouchTracker

/// What a host's window system reported, in the session's terms (no window system's types), its points in drawing
/// units (the window's pixels over the scale, DESIGN.md §2a). The window's own events go to their own calls: a new
/// size to `DrawingSession.resize`, an exposed area to `drawFrame(exposed:)`, both in pixels.
public enum SessionEvent {
    /// A touch, a pointer drag or a pen: TouchKit's input.
    case touch(TouchInput)
    /// The pointer moved with no button held (menu highlight).
    case hover(Point)
    /// A stylus hovers within the tablet's reach without touching (`tool`: `.pencil` for its tip, `.eraser`).
    case stylusHover(Point, tool: TouchType)
    /// The stylus left the tablet's reach (proximity out).
    case stylusLeft
    /// The secondary button was pressed at a point (select and open the menu at once).
    case contextClick(Point)
    /// A wheel or touchpad scroll: scrolls the view over the drawing, or zooms it with Ctrl.
    case scroll(ScrollInput)
    /// An input device went away: its touches are cancelled by the system.
    case deviceRemoved(sourceID: Int32)
    /// A key, with its modifiers.
    case key(KeyCommand)
    /// A key pressed or released as the window system reported it, with the command a press carries (nil for a
    /// release, or a key the app has no use for): a screen reader hears it first, and may consume it, before the app
    /// acts on the command (`RegistryKeyGate`).
    case keyEvent(KeyEventReport, command: KeyCommand?)
    /// The window gained (true) or lost (false) the keyboard focus: a screen reader is told the window is active,
    /// and where the focus is in it.
    case focusChanged(Bool)
}
