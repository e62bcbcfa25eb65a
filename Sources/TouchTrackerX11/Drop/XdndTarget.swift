import CX11
import TouchTrackerSession

/// The window as a drop target of XDND, version 5 (freedesktop's drag-and-drop protocol for X), for files dragged
/// from a file manager: `XdndAware` on the window says it takes drops; the source's `XdndEnter` lists the types it
/// offers (or `XdndTypeList` on its window, for more than three), each `XdndPosition` is answered with an
/// `XdndStatus` accepting a copy when `text/uri-list` is among them, and `XdndDrop` converts `XdndSelection` to
/// `text/uri-list` into a property of the window's own, read when `SelectionNotify` comes, after which
/// `XdndFinished` tells the source. The event loop never waits: each step is an event.
///
/// Which dropped files open is the session's policy (`DroppedFiles`); this is only the protocol.
final class XdndTarget {
    /// Where a drag stands, from the window's side. The transitions are `handle` and `converted`.
    enum Stage: Equatable {
        case idle
        /// A drag from `source` (speaking `version`) is over the window; `accepts`: it offers `text/uri-list`.
        case over(source: CX11.Window, version: Int, accepts: Bool)
        /// Dropped: the list is asked of the source, whose `SelectionNotify` is awaited.
        case fetching(source: CX11.Window, version: Int)
    }

    /// The protocol version the window speaks (`XdndAware`).
    static let version = 5
    /// The oldest source version taken: version 3 brought `XdndSelection` conversions at the drop's time, which every
    /// file manager of the last twenty years speaks.
    static let oldestVersion = 3

    private let display: X11Display
    private let window: CX11.Window
    private let log: (String) -> Void
    private let verbose: Bool
    private(set) var stage = Stage.idle

    private let enter: Atom
    private let position: Atom
    private let status: Atom
    private let leave: Atom
    private let drop: Atom
    private let finished: Atom
    private let typeList: Atom
    private let actionCopy: Atom
    private let uriList: Atom
    /// The selection a drop's data is converted from.
    let selection: Atom
    /// The window's property the list arrives in.
    private let property: Atom

    /// Marks `window` as a drop target (`XdndAware`, version 5).
    init(display: X11Display, window: CX11.Window, verbose: Bool, log: @escaping (String) -> Void) {
        self.display = display
        self.window = window
        self.verbose = verbose
        self.log = log
        enter = display.atom("XdndEnter")
        position = display.atom("XdndPosition")
        status = display.atom("XdndStatus")
        leave = display.atom("XdndLeave")
        drop = display.atom("XdndDrop")
        finished = display.atom("XdndFinished")
        typeList = display.atom("XdndTypeList")
        actionCopy = display.atom("XdndActionCopy")
        uriList = display.atom(DroppedFiles.mimeType)
        selection = display.atom("XdndSelection")
        property = display.atom("TOUCHTRACKER_DROP")
        display.writeProperty(display.atom("XdndAware"), of: window, type: XA_ATOM, longs: [UInt(Self.version)])
    }

    /// An XDND message to the window (any other client message is let be).
    func handle(_ message: ClientMessageData) {
        guard message.longs.count == 5 else { return }
        let source = CX11.Window(UInt(bitPattern: message.longs[0]))
        switch message.type {
        case enter:
            let version = (message.longs[1] >> 24) & 0xFF
            guard version >= Self.oldestVersion else {
                if verbose { log("drop: a drag of XDND version \(version) is too old to take") }
                stage = .idle
                return
            }
            let types = message.longs[1] & 1 == 1 ? listedTypes(of: source) : message.longs[2...4].map { Atom($0) }
            stage = .over(source: source, version: version, accepts: types.contains(uriList))
        case position:
            guard case .over(let current, _, let accepts) = stage, current == source else { return }
            send(
                status, to: source,
                // Bit 0: the drop would be taken; bit 1: send every position (no rectangle to stay quiet in).
                [Int(window), accepts ? 0b11 : 0b10, 0, 0, accepts ? Int(actionCopy) : 0])
        case leave:
            if case .over(let current, _, _) = stage, current == source { stage = .idle }
        case drop:
            guard case .over(let current, let version, let accepts) = stage, current == source else { return }
            guard accepts else {
                log("drop: the dragged data is not a list of files (text/uri-list); nothing opened")
                finish(source, version: version, accepted: false)
                return
            }
            stage = .fetching(source: source, version: version)
            XDeleteProperty(display.pointer, window, property)
            XConvertSelection(display.pointer, selection, uriList, property, window, Time(message.longs[2]))
            display.flush()
        default:
            break
        }
    }

    /// A `SelectionNotify` for `XdndSelection`: the dropped list's bytes once read (the source is told the drop
    /// is done), nil when it was refused or is not this drop's.
    func converted(target: Atom, property converted: Atom) -> [UInt8]? {
        guard case .fetching(let source, let version) = stage, target == uriList else { return nil }
        let value = converted == 0 ? nil : display.readProperty(converted, of: window, delete: true)
        guard let value, value.format == 8, value.type != display.atom("INCR") else {
            log("drop: the source did not hand over its list of files; nothing opened")
            finish(source, version: version, accepted: false)
            return nil
        }
        finish(source, version: version, accepted: true)
        return value.bytes
    }

    /// The types a source with more than three lists in `XdndTypeList` on its window.
    private func listedTypes(of source: CX11.Window) -> [Atom] {
        var types: [Atom] = []
        _ = display.withErrorsTrapped {
            types = display.readProperty(typeList, of: source).map { $0.longs.map { Atom($0) } } ?? []
        }
        return types
    }

    /// `XdndFinished` to the source (version 5: whether the drop was taken, and the action done), back to idle.
    private func finish(_ source: CX11.Window, version: Int, accepted: Bool) {
        stage = .idle
        let result = version >= 5 ? [accepted ? 1 : 0, accepted ? Int(actionCopy) : 0] : [0, 0]
        send(finished, to: source, [Int(window)] + result + [0, 0])
    }

    /// A format-32 client message of `type` with `longs` to the source's window (which may be gone: an error
    /// trapped, not fatal).
    private func send(_ type: Atom, to source: CX11.Window, _ longs: [Int]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.display = display.pointer
        event.xclient.window = source
        event.xclient.message_type = type
        event.xclient.format = 32
        event.xclient.data.l = (longs[0], longs[1], longs[2], longs[3], longs[4])
        _ = display.withErrorsTrapped {
            XSendEvent(display.pointer, source, 0, NoEventMask, &event)
            display.sync()
        }
    }
}
