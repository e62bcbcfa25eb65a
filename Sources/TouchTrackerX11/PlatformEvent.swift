import TouchKit

/// What the X11 translator makes of one X event, free of Xlib types.
enum PlatformEvent {
    case touch(TouchInput)
    /// The pointer moved with no button held (menu highlight).
    case hover(Point)
    /// Button 3 was pressed at a point (select and open the menu at once).
    case contextClick(Point)
    /// A slave device went away or was disabled: its touches are cancelled by the system.
    case deviceRemoved(sourceID: Int32)
    /// Part of the window must be repainted; `isLast` ends a batch (Expose `count == 0`).
    case expose(Rect, isLast: Bool)
    case resized(width: Int, height: Int)
    case mapped
    case closeRequested
    case key(KeyStroke)
    /// Selection traffic for the clipboard (`X11Clipboard`).
    case clipboard(ClipboardEvent)
}

/// The X selection protocol's events, as plain numbers (X ids, atoms and server times in milliseconds).
enum ClipboardEvent: Equatable {
    /// Another client asks the window, as a selection's owner, to convert it (`SelectionRequest`).
    case request(ConversionRequest)
    /// The window no longer owns `selection` (`SelectionClear`).
    case cleared(selection: UInt)
    /// The answer to a conversion the window asked for (`SelectionNotify`); `property` 0 means refused.
    case converted(selection: UInt, target: UInt, property: UInt)
    /// A property of some window changed (`PropertyNotify`): INCR transfers advance on these.
    case propertyChanged(window: UInt, property: UInt, deleted: Bool)
}

/// One `SelectionRequest` event: convert `selection` to `target` into `property` of `requestor`.
struct ConversionRequest: Equatable {
    var requestor: UInt
    var selection: UInt
    var target: UInt
    var property: UInt
    var time: UInt
}

/// A key pressed in the window: the keysym's name and the modifiers held.
struct KeyStroke: Hashable {
    var name: String
    var control: Bool
    var shift: Bool
    /// The server's time of the press (milliseconds): the clipboard takes ownership and asks for conversions
    /// with it, as ICCCM requires.
    var serverTime: UInt = 0
}
