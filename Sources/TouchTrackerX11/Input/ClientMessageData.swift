import CX11

/// A `ClientMessage` to the window as plain numbers: its type (an atom) and, for format 32, its five values.
struct ClientMessageData: Equatable {
    var type: UInt
    var longs: [Int]

    init(type: UInt, longs: [Int]) {
        self.type = type
        self.longs = longs
    }

    init(_ event: XClientMessageEvent) {
        let l = event.data.l
        self.init(type: event.message_type, longs: event.format == 32 ? [l.0, l.1, l.2, l.3, l.4] : [])
    }
}
