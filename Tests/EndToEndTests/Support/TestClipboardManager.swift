import CX11
import Foundation
import Synchronization
import XorgTestSupport

/// A clipboard manager as freedesktop's clipboard-manager spec describes one, just large enough for the hand-over
/// test (no such program is among the test packages): it owns `CLIPBOARD_MANAGER`; asked to convert it to
/// `SAVE_TARGETS`, it asks the clipboard's owner for its TARGETS and then for the TouchTracker document (whole or in
/// an INCR transfer), takes the CLIPBOARD itself, and answers. From then on it serves the saved document.
///
/// It runs on a thread of its own with its own connection, which no other thread touches.
final class TestClipboardManager: Sendable {
    struct State {
        var ready = false
        var stopping = false
        var finished = false
        var targetsSeen: [String] = []
        var saved: [UInt8]?
        var problem: String?
    }

    let state = Mutex(State())
    private let display: String

    init(display: String) {
        self.display = display
    }

    /// Starts the manager and returns once it owns `CLIPBOARD_MANAGER`.
    func start() async throws {
        let thread = Thread { [self] in run() }
        thread.start()
        try await waitUntil("the clipboard manager to start", timeout: .seconds(5), poll: .milliseconds(20)) {
            state.withLock { $0.ready || $0.problem != nil }
        }
        if let problem = state.withLock({ $0.problem }) { throw AppProcess.AppError(description: problem) }
    }

    /// Stops the manager and waits until its connection is closed (Xlib exits the whole process when a server
    /// goes away under an open connection).
    func stop() {
        state.withLock { $0.stopping = true }
        while !state.withLock({ $0.finished }) { usleep(10_000) }
    }

    private func run() {
        guard let dpy = TestDisplayConnection.open(display) else {
            state.withLock {
                $0.problem = "the test clipboard manager cannot open \(display)"
                $0.finished = true
            }
            return
        }
        defer {
            XCloseDisplay(dpy)
            state.withLock { $0.finished = true }
        }
        func atom(_ name: String) -> Atom { XInternAtom(dpy, name, 0) }
        let manager = atom("CLIPBOARD_MANAGER")
        let clipboard = atom("CLIPBOARD")
        let saveTargets = atom("SAVE_TARGETS")
        let targets = atom("TARGETS")
        let document = atom("application/x-touchtracker+json")
        let incr = atom("INCR")
        let transfer = atom("TEST_MANAGER_TRANSFER")
        let window = XCreateSimpleWindow(dpy, XDefaultRootWindow(dpy), 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(dpy, window, PropertyChangeMask)
        XSetSelectionOwner(dpy, manager, window, Time(CurrentTime))
        XSync(dpy, 0)
        state.withLock { $0.ready = XGetSelectionOwner(dpy, manager) == window }

        var saveRequest: XSelectionRequestEvent?
        var incoming: [UInt8]?
        func notify(_ request: XSelectionRequestEvent, property: Atom) {
            var event = XEvent()
            event.xselection.type = SelectionNotify
            event.xselection.requestor = request.requestor
            event.xselection.selection = request.selection
            event.xselection.target = request.target
            event.xselection.property = property
            event.xselection.time = request.time
            XSendEvent(dpy, request.requestor, 0, 0, &event)
            XFlush(dpy)
        }
        func read(delete: Bool) -> (type: Atom, format: Int32, bytes: [UInt8], longs: [UInt]) {
            var type: Atom = 0
            var format: Int32 = 0
            var count: UInt = 0
            var remaining: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            XGetWindowProperty(
                dpy, window, transfer, 0, 0x7FFF_FFFF, delete ? 1 : 0, Atom(AnyPropertyType), &type, &format, &count,
                &remaining, &data)
            defer { if let data { XFree(data) } }
            guard let data else { return (type, format, [], []) }
            if format == 32 {
                let longs = UnsafeRawPointer(data).assumingMemoryBound(to: UInt.self)
                return (type, format, [], Array(UnsafeBufferPointer(start: longs, count: Int(count))))
            }
            return (type, format, Array(UnsafeBufferPointer(start: data, count: Int(count))), [])
        }
        func finishSaving(_ bytes: [UInt8]) {
            state.withLock { $0.saved = bytes }
            XSetSelectionOwner(dpy, clipboard, window, Time(CurrentTime))
            if let saveRequest { notify(saveRequest, property: saveRequest.property) }
            saveRequest = nil
        }

        while !state.withLock({ $0.stopping }) {
            var descriptor = pollfd(fd: XConnectionNumber(dpy), events: Int16(POLLIN), revents: 0)
            if XPending(dpy) == 0 { _ = poll(&descriptor, 1, 50) }
            while XPending(dpy) > 0 {
                var event = XEvent()
                XNextEvent(dpy, &event)
                switch event.type {
                case SelectionRequest:
                    let request = event.xselectionrequest
                    if request.selection == manager, request.target == saveTargets {
                        saveRequest = request
                        XConvertSelection(dpy, clipboard, targets, transfer, window, request.time)
                    } else if request.selection == clipboard, request.target == document,
                        let saved = state.withLock({ $0.saved })
                    {
                        // Served whole: the test's documents are small.
                        XChangeProperty(
                            dpy, request.requestor, request.property, document, 8, PropModeReplace, saved,
                            Int32(saved.count))
                        notify(request, property: request.property)
                    } else {
                        notify(request, property: 0)
                    }
                case SelectionNotify:
                    let answer = event.xselection
                    if answer.target == targets {
                        let names = read(delete: true).longs.compactMap { atom -> String? in
                            guard let name = XGetAtomName(dpy, Atom(atom)) else { return nil }
                            defer { XFree(name) }
                            return String(cString: name)
                        }
                        state.withLock { $0.targetsSeen = names }
                        XConvertSelection(dpy, clipboard, document, transfer, window, answer.time)
                    } else if answer.target == document {
                        guard answer.property != 0 else {
                            state.withLock { $0.problem = "the owner refused the document" }
                            if let saveRequest { notify(saveRequest, property: 0) }
                            continue
                        }
                        let value = read(delete: true)
                        if value.type == incr {
                            incoming = []
                        } else {
                            finishSaving(value.bytes)
                        }
                    }
                case PropertyNotify:
                    let change = event.xproperty
                    guard change.window == window, change.atom == transfer, change.state == PropertyNewValue,
                        incoming != nil
                    else { continue }
                    let piece = read(delete: true).bytes
                    if piece.isEmpty {
                        finishSaving(incoming ?? [])
                        incoming = nil
                    } else {
                        incoming? += piece
                    }
                default:
                    break
                }
                XFlush(dpy)
            }
        }
    }
}
