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
