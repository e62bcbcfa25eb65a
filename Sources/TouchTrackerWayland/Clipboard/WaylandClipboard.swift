import BackgroundWork
internal import CWayland
import Glibc
import Synchronization
import TouchTracker
import TouchTrackerSession

/// The window's clipboard through `wl_data_device` (DESIGN.md §2.10a): Ctrl+C offers the copy as the same MIME
/// types as on X11, and each reader's request is written into the pipe it hands over, on a worker (a 100,000-line
/// copy never stalls a frame); Ctrl+V reads the best type offered — the document's own, else text that may hold
/// one — from a pipe on a worker, and decodes it there. The window's own copy is pasted directly. Drags onto the
/// window come through the same data device and go to `drop` (`WaylandDrop`).
///
/// Unlike X11, no clipboard manager takes a copy over when the window closes: Wayland has no such hand-over, so a
/// copy lasts as long as the window (unless the desktop's clipboard manager has already read it).
final class WaylandClipboard {
    private let connection: WaylandConnection
    private let manager: OpaquePointer
    private let device: OpaquePointer
    private let wakeUp: @Sendable () -> Void
    private let log: @Sendable (String) -> Void
    private let deviceListener: WaylandListener<wl_data_device_listener>
    private let offerListener: WaylandListener<wl_data_offer_listener>
    private let sourceListener: WaylandListener<wl_data_source_listener>
    /// Offers the compositor introduced, with the MIME types each has announced so far.
    private var offers: [OpaquePointer: [String]] = [:]
    /// The clipboard's contents now, as another client (or this window) offers them.
    private var selection: OpaquePointer?
    /// This window's copy while it owns the clipboard.
    private var source: (proxy: OpaquePointer, offer: ClipboardOffer)?
    /// Readers waiting for an encoding still being made: their pipes, what they asked for, and of which copy (the
    /// one on the clipboard when they asked, answered even once a newer copy or another client's replaced it).
    private var waitingReaders: [(fd: Int32, encoding: ClipboardOffer.Encoding, offer: ClipboardOffer)] = []
    /// Where the paste's worker leaves its outcome.
    private let pasted = PastedOutcome()
    private var isPasting = false
    /// Files dragged onto the window: each drag's offer is handed there as it enters.
    let drop: WaylandDrop

    /// The types a paste reads, best first: the document's own, then text (which may hold a document).
    static let pasteTypes = [ClipboardShapes.documentType] + ClipboardOffer.textTypes + ["UTF8_STRING", "TEXT"]
    /// A paste gives up on an owner that sends nothing for this long (seconds).
    static let timeout = 5.0

    init(
        connection: WaylandConnection, manager: OpaquePointer, seat: OpaquePointer,
        wakeUp: @escaping @Sendable () -> Void, log: @escaping @Sendable (String) -> Void
    ) {
        self.connection = connection
        self.manager = manager
        self.wakeUp = wakeUp
        self.log = log
        device = wl_data_device_manager_get_data_device(manager, seat)
        drop = WaylandDrop(connection: connection, wakeUp: wakeUp, log: log)
        offerListener = WaylandListener(
            wl_data_offer_listener(
                offer: { data, offer, mimeType in
                    guard let offer, let mimeType else { return }
                    listenerOwner(data, as: WaylandClipboard.self).offers[offer, default: []].append(
                        String(cString: mimeType))
                },
                source_actions: { _, _, _ in },
                action: { data, offer, action in
                    if let offer { listenerOwner(data, as: WaylandClipboard.self).drop.chose(action, for: offer) }
                }))
        deviceListener = WaylandListener(
            wl_data_device_listener(
                data_offer: { data, _, offer in
                    guard let offer else { return }
                    let clipboard = listenerOwner(data, as: WaylandClipboard.self)
                    clipboard.offers[offer] = []
                    wl_data_offer_add_listener(offer, clipboard.offerListener.pointer, data)
                },
                // A drag's offer is the drop target's from here on (`WaylandDrop`).
                enter: { data, _, serial, _, _, _, offer in
                    guard let offer else { return }
                    let clipboard = listenerOwner(data, as: WaylandClipboard.self)
                    let types = clipboard.offers.removeValue(forKey: offer) ?? []
                    clipboard.drop.enter(offer, serial: serial, types: types)
                },
                leave: { data, _ in listenerOwner(data, as: WaylandClipboard.self).drop.leave() },
                motion: { _, _, _, _, _ in },
                drop: { data, _ in listenerOwner(data, as: WaylandClipboard.self).drop.drop() },
                selection: { data, _, offer in listenerOwner(data, as: WaylandClipboard.self).select(offer) }))
        sourceListener = WaylandListener(
            wl_data_source_listener(
                target: { _, _, _ in },
                send: { data, _, mimeType, fd in
                    listenerOwner(data, as: WaylandClipboard.self).send(
                        mimeType.map { String(cString: $0) } ?? "", to: fd)
                },
                cancelled: { data, source in
                    // Another client took the clipboard: this copy is no longer offered.
                    let clipboard = listenerOwner(data, as: WaylandClipboard.self)
                    if clipboard.source?.proxy == source { clipboard.source = nil }
                    wl_data_source_destroy(source)
                },
                dnd_drop_performed: { _, _ in }, dnd_finished: { _, _ in }, action: { _, _, _ in }))
        wl_data_device_add_listener(device, deviceListener.pointer, listenerData(self))
    }

    deinit {
        for reader in waitingReaders { close(reader.fd) }
        if let source { wl_data_source_destroy(source.proxy) }
        for offer in offers.keys { wl_data_offer_destroy(offer) }
        wl_data_device_release(device)
    }

    /// Ctrl+C: offers `offer` on the clipboard, answering the input event with `serial`.
    func copy(_ offer: ClipboardOffer, serial: UInt32) -> Bool {
        if let source { wl_data_source_destroy(source.proxy) }
        guard let proxy = wl_data_device_manager_create_data_source(manager) else { return false }
        wl_data_source_add_listener(proxy, sourceListener.pointer, listenerData(self))
        for type in ClipboardOffer.mimeTypes + ["UTF8_STRING", "TEXT", "STRING"] { wl_data_source_offer(proxy, type) }
        wl_data_device_set_selection(device, proxy, serial)
        source = (proxy, offer)
        connection.flush()
        return true
    }

    /// Ctrl+V: the window's own copy at once, or nil while another client's is read (`service` returns it).
    func paste() -> PasteOutcome? {
        if let source { return .ownCopy(source.offer.shapes.snapshot) }
        guard !isPasting else { return nil }
        guard let selection, let types = offers[selection],
            let type = Self.pasteTypes.first(where: types.contains)
        else {
            return .nothing
        }
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            log("clipboard: cannot make a pipe: \(String(cString: strerror(errno))); nothing pasted")
            return .nothing
        }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        wl_data_offer_receive(selection, type, fds[1])
        close(fds[1])
        connection.flush()
        isPasting = true
        let readFD = fds[0]
        let mimeType = type == ClipboardShapes.documentType ? type : "text/plain"
        let log = log
        Worker.run("clipboard paste", wakeUp: wakeUp) { [pasted] in
            let outcome: PasteOutcome
            switch PipeTransfer.readAll(from: readFD, limit: DocumentCodec.maximumFileSize, timeout: Self.timeout) {
            case .success(let bytes): outcome = PasteOutcome.decode(bytes, mimeType: mimeType)
            case .failure(let problem):
                log("clipboard: \(problem); nothing pasted")
                outcome = .nothing
            }
            close(readFD)
            pasted.value.withLock { $0 = outcome }
        }
        return nil
    }

    /// Once a frame: answers readers whose encoding is now ready, and hands over a paste's outcome once read.
    func service() -> PasteOutcome? {
        if !waitingReaders.isEmpty {
            waitingReaders.removeAll { reader in
                guard let bytes = reader.offer.bytes(reader.encoding) else { return false }
                write(bytes, to: reader.fd)
                return true
            }
        }
        guard isPasting, let outcome = pasted.value.withLock({ $0.take() }) else { return nil }
        isPasting = false
        return outcome
    }

    private func select(_ offer: OpaquePointer?) {
        if let selection, selection != offer { forget(selection) }
        selection = offer
    }

    private func forget(_ offer: OpaquePointer) {
        offers[offer] = nil
        wl_data_offer_destroy(offer)
        if selection == offer { selection = nil }
    }

    /// A reader asked for `mimeType` into pipe `fd`.
    private func send(_ mimeType: String, to fd: Int32) {
        guard let offer = source?.offer,
            let encoding = ClipboardOffer.Encoding(mimeType: mimeType) ?? Self.x11TextEncoding(mimeType)
        else {
            close(fd)
            return
        }
        if let bytes = offer.bytes(encoding) {
            write(bytes, to: fd)
        } else {
            waitingReaders.append((fd, encoding, offer))
        }
    }

    /// Text names X11 clients under Xwayland ask for.
    private static func x11TextEncoding(_ mimeType: String) -> ClipboardOffer.Encoding? {
        ["UTF8_STRING", "TEXT", "STRING"].contains(mimeType) ? .document : nil
    }

    /// Writes `bytes` into the reader's pipe on a worker (the reader may take its time), then closes it.
    private func write(_ bytes: ClipboardOffer.Bytes, to fd: Int32) {
        guard case .ready(let data) = bytes else {
            close(fd)
            return
        }
        let log = log
        Worker.run("clipboard send") {
            if let problem = PipeTransfer.writeAll(data, to: fd, timeout: Self.timeout) {
                log("clipboard: \(problem)")
            }
            close(fd)
        }
    }
}

/// The outcome a paste's worker hands to the event loop.
private final class PastedOutcome: Sendable {
    let value = Mutex<PasteOutcome?>(nil)
}
