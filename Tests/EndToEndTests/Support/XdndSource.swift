import CX11
import Foundation
import XorgTestSupport

/// A drag source speaking XDND version 5 by the book, as a file manager does: it owns `XdndSelection`, sends
/// `XdndEnter` (offering `text/uri-list`), `XdndPosition` and, once the target accepts, `XdndDrop`; it answers the
/// target's conversion of the selection with the list, and waits for `XdndFinished`. Synchronous, on its own
/// connection to the X server.
final class XdndSource {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What the target answered.
    struct Outcome: Equatable {
        /// `XdndStatus`: whether the target would take the drop, and the action it named.
        var accepted: Bool
        var statusAction: String
        /// `XdndFinished` (version 5): whether it took the drop, and the action it did.
        var finished: Bool
        var finishedAction: String
    }

    private let display: OpaquePointer
    private let window: Window

    init(display name: String) throws {
        guard let display = TestDisplayConnection.open(name) else {
            throw Failure(description: "cannot open display \(name)")
        }
        self.display = display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
    }

    deinit {
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    private func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }

    private func name(of atom: Atom) -> String {
        guard atom != 0, let text = XGetAtomName(display, atom) else { return "None" }
        defer { XFree(text) }
        return String(cString: text)
    }

    /// The XDND version `target` declares in `XdndAware`, nil when it declares none.
    func awareVersion(of target: Window) -> Int? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var remaining: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, target, atom("XdndAware"), 0, 1, 0, Atom(XA_ATOM), &type, &format, &count, &remaining, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 32, count == 1, let data else { return nil }
        return UnsafeRawPointer(data).load(as: Int.self)
    }

    /// Drags `data` (of type `offering`) over `target` at (`x`, `y`) (root coordinates) and drops it if accepted.
    func drop(
        _ data: String, on target: Window, at x: Int, _ y: Int, offering type: String = "text/uri-list",
        timeout: Double = 10
    ) throws -> Outcome {
        let selection = atom("XdndSelection")
        let uriListType = atom(type)
        XSetSelectionOwner(display, selection, window, UInt(CurrentTime))
        send(atom("XdndEnter"), to: target, [Int(window), 5 << 24, Int(uriListType), 0, 0])
        send(
            atom("XdndPosition"), to: target,
            [Int(window), 0, x << 16 | y, Int(CurrentTime), Int(atom("XdndActionCopy"))])
        let status = try waitFor(atom("XdndStatus"), timeout: timeout, serving: nil)
        var outcome = Outcome(
            accepted: status[1] & 1 == 1, statusAction: name(of: Atom(status[4])), finished: false,
            finishedAction: "None")
        guard outcome.accepted else {
            send(atom("XdndLeave"), to: target, [Int(window), 0, 0, 0, 0])
            return outcome
        }
        send(atom("XdndDrop"), to: target, [Int(window), 0, Int(CurrentTime), 0, 0])
        let finished = try waitFor(atom("XdndFinished"), timeout: timeout, serving: (uriListType, Array(data.utf8)))
        outcome.finished = finished[1] & 1 == 1
        outcome.finishedAction = name(of: Atom(finished[2]))
        return outcome
    }

    private func send(_ type: Atom, to target: Window, _ longs: [Int]) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.display = display
        event.xclient.window = target
        event.xclient.message_type = type
        event.xclient.format = 32
        event.xclient.data.l = (longs[0], longs[1], longs[2], longs[3], longs[4])
        XSendEvent(display, target, 0, NoEventMask, &event)
        XFlush(display)
    }

    /// Waits for a client message of `type` to the source window, answering selection requests for `serving`
    /// meanwhile; returns its five values.
    private func waitFor(_ type: Atom, timeout: Double, serving: (target: Atom, bytes: [UInt8])?) throws -> [Int] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard XPending(display) > 0 else {
                usleep(5_000)
                continue
            }
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == ClientMessage, event.xclient.message_type == type {
                let l = event.xclient.data.l
                return [l.0, l.1, l.2, l.3, l.4]
            }
            if event.type == SelectionRequest, let serving {
                answer(event.xselectionrequest, with: serving)
            }
        }
        throw Failure(description: "no \(name(of: type)) from the target within \(timeout) s")
    }

    /// Writes the list into the requestor's property and tells it (refusing any other target).
    private func answer(_ request: XSelectionRequestEvent, with serving: (target: Atom, bytes: [UInt8])) {
        var notify = XEvent()
        notify.xselection.type = SelectionNotify
        notify.xselection.requestor = request.requestor
        notify.xselection.selection = request.selection
        notify.xselection.target = request.target
        notify.xselection.time = request.time
        notify.xselection.property = 0
        if request.target == serving.target {
            serving.bytes.withUnsafeBufferPointer {
                _ = XChangeProperty(
                    display, request.requestor, request.property, serving.target, 8, PropModeReplace,
                    $0.baseAddress, Int32($0.count))
            }
            notify.xselection.property = request.property
        }
        XSendEvent(display, request.requestor, 0, NoEventMask, &notify)
        XFlush(display)
    }
}
