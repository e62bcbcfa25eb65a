import CX11
import TouchTracker
import TouchTrackerSession

/// The window as owner of the CLIPBOARD selection after a Ctrl+C (ICCCM §2.2–2.7).
///
/// Every request is answered from `ClipboardOffer`: TARGETS, TIMESTAMP, MULTIPLE, SAVE_TARGETS, and the data
/// targets (`image/png`, the document's JSON, and that JSON as text). Data not yet encoded is encoded on a worker;
/// the request waits in `waiting` — the event loop goes on — and is answered by `service()` once the bytes are
/// there. Data larger than `chunkSize` goes out in an INCR transfer: the size first, then one chunk each time the
/// requestor deletes the property, then an empty property.
final class ClipboardOwner {
    private let display: X11Display
    private let window: CX11.Window
    private let atoms: ClipboardAtoms
    private let wakeUp: @Sendable () -> Void
    private let log: (String) -> Void
    /// What is offered while the window owns the clipboard; nil when it does not.
    private(set) var offer: ClipboardOffer?
    /// The server time ownership was taken at (requests from before it are refused; TIMESTAMP answers it).
    private var ownedSince: Time = 0
    private var waiting: [WaitingRequest] = []
    private var transfers: [TransferKey: IncrTransfer] = [:]
    /// The largest property written at once; larger data goes in INCR chunks of this size. ICCCM asks that a
    /// chunk fit in one request: the core protocol's limit (256 KiB) less room for the request's header.
    let chunkSize: Int
    /// A requestor that has not taken an INCR chunk or a waiting request not answered for this long (seconds) is
    /// given up: the requestor has gone away.
    static let staleAfter = 30.0

    /// One property to fill for a request (MULTIPLE asks for several).
    private struct Conversion {
        var target: Atom
        var property: Atom
    }

    private struct WaitingRequest {
        var request: ConversionRequest
        /// The property the answer is written to (`request.property`, or the target for obsolete clients).
        var property: Atom
        var conversions: [Conversion]
        var isMultiple: Bool
        var since: Double
    }

    private struct TransferKey: Hashable {
        var window: CX11.Window
        var property: Atom
    }

    private struct IncrTransfer {
        var type: Atom
        var bytes: [UInt8]
        /// How much has been written; at `bytes.count` the next deletion gets the empty property that ends it.
        var offset: Int
        var lastProgress: Double
    }

    init(_ connection: ClipboardConnection) {
        (display, window, atoms, wakeUp, log) = (
            connection.display, connection.window, connection.atoms, connection.wakeUp, connection.log
        )
        chunkSize = min(256 * 1024, max(4096, XMaxRequestSize(connection.display.pointer) * 4 - 1024))
    }

    /// When the owner last did something for a requestor (answered, sent a chunk) or an encoding finished: the
    /// hand-over to a clipboard manager waits while this moves.
    private(set) var lastActivity = 0.0

    /// When a waiting request or a stalled INCR transfer is next due to be given up (monotonic seconds).
    var nextDeadline: Double? {
        let oldest = (waiting.map(\.since) + transfers.values.map(\.lastProgress)).min()
        return oldest.map { $0 + Self.staleAfter }
    }

    /// Takes the clipboard for `offer` at server time `time`. Returns false when the server gave it to someone
    /// else (a later owner). The JSON is encoded at once (a paste elsewhere, or a clipboard manager, usually asks
    /// for it first); the PNG when someone asks for it.
    func take(_ offer: ClipboardOffer, time: Time) -> Bool {
        XSetSelectionOwner(display.pointer, atoms.clipboard, window, time)
        guard XGetSelectionOwner(display.pointer, atoms.clipboard) == window else {
            self.offer = nil
            return false
        }
        self.offer = offer
        ownedSince = time
        _ = offer.bytes(.document)
        return true
    }

    /// Another client owns the clipboard now: the offer is dropped and waiting requests are refused. INCR
    /// transfers already under way finish (they hold their bytes). A late SelectionClear, from before a newer
    /// Ctrl+C made the window the owner again, is ignored.
    func lost() {
        guard XGetSelectionOwner(display.pointer, atoms.clipboard) != window else { return }
        offer = nil
        for pending in waiting { refuse(pending.request) }
        waiting.removeAll()
    }

    func handle(_ request: ConversionRequest, now: Double) {
        let property = request.property == 0 ? request.target : request.property
        guard request.selection == atoms.clipboard, offer != nil, isAfterOwnership(request.time) else {
            refuse(request)
            return
        }
        var pending = WaitingRequest(
            request: request, property: property,
            conversions: [Conversion(target: request.target, property: property)], isMultiple: false, since: now)
        if request.target == atoms.multiple {
            // The requestor's property lists (target, property) pairs to convert; it must name one (ICCCM).
            guard request.property != 0, let pairs = display.readProperty(property, of: request.requestor),
                pairs.format == 32
            else {
                refuse(request)
                return
            }
            pending.isMultiple = true
            pending.conversions = stride(from: 0, to: pairs.longs.count - 1, by: 2).map {
                Conversion(target: Atom(pairs.longs[$0]), property: Atom(pairs.longs[$0 + 1]))
            }
        }
        if !answer(pending, now: now) { waiting.append(pending) }
    }

    /// Advances the INCR transfer to `window`'s `property`, if there is one: the requestor deleted the last chunk.
    func propertyDeleted(window: CX11.Window, property: Atom, now: Double) {
        let key = TransferKey(window: window, property: property)
        guard var transfer = transfers[key] else { return }
        let end = min(transfer.offset + chunkSize, transfer.bytes.count)
        display.writeProperty(property, of: window, type: transfer.type, bytes: transfer.bytes[transfer.offset..<end])
        if transfer.offset == transfer.bytes.count {
            // The empty property just written ends the transfer.
            transfers[key] = nil
            stopWatching(window)
        } else {
            transfer.offset = end
            transfer.lastProgress = now
            transfers[key] = transfer
        }
        lastActivity = now
        display.flush()
    }

    /// Answers the waiting requests whose data is ready, and gives up on requestors that went away.
    func service(now: Double) {
        if !waiting.isEmpty {
            var stillWaiting: [WaitingRequest] = []
            for pending in waiting {
                if offer == nil || now - pending.since > Self.staleAfter {
                    refuse(pending.request)
                } else if !answer(pending, now: now) {
                    stillWaiting.append(pending)
                }
            }
            waiting = stillWaiting
        }
        for (key, transfer) in transfers where now - transfer.lastProgress > Self.staleAfter {
            log("clipboard: \(key.window) stopped taking its INCR transfer; given up")
            transfers[key] = nil
            stopWatching(key.window)
        }
        display.flush()
    }

    /// Writes every conversion of `pending` and notifies its requestor; false (nothing written) while some data
    /// is still being encoded — every encoding it needs has been started by then.
    private func answer(_ pending: WaitingRequest, now: Double) -> Bool {
        guard let offer else { return false }
        var ready = true
        for conversion in pending.conversions {
            if let encoding = atoms.encoding(of: conversion.target), offer.bytes(encoding) == nil { ready = false }
        }
        guard ready else { return false }
        let request = pending.request
        var pairs: [UInt] = []
        var converted = false
        for conversion in pending.conversions {
            converted = convert(
                conversion, for: request.requestor, offer: offer, inMultiple: pending.isMultiple, now: now)
            pairs += [UInt(conversion.target), converted ? UInt(conversion.property) : 0]
        }
        if pending.isMultiple {
            display.writeProperty(pending.property, of: request.requestor, type: atoms.atomPair, longs: pairs)
            converted = true
        }
        display.sendSelectionNotify(
            requestor: request.requestor, selection: request.selection, target: request.target,
            property: converted ? pending.property : 0, time: request.time)
        lastActivity = now
        display.flush()
        return true
    }

    /// Fills `conversion.property` of `requestor`; false when the target is not one this owner converts to.
    private func convert(
        _ conversion: Conversion, for requestor: CX11.Window, offer: ClipboardOffer, inMultiple: Bool, now: Double
    ) -> Bool {
        let target = conversion.target
        let property = conversion.property
        guard property != 0 else { return false }
        if target == atoms.targets {
            display.writeProperty(property, of: requestor, type: XA_ATOM, longs: atoms.offeredTargets.map { UInt($0) })
        } else if target == atoms.timestamp {
            display.writeProperty(property, of: requestor, type: XA_INTEGER, longs: [UInt(ownedSince)])
        } else if target == atoms.saveTargets {
            // Asked of the owner, SAVE_TARGETS is only acknowledged (freedesktop's clipboard-manager spec).
            display.writeProperty(property, of: requestor, type: atoms.null, longs: [])
        } else if let encoding = atoms.encoding(of: target), case .ready(let bytes) = offer.bytes(encoding) {
            send(bytes, type: target, to: requestor, property: property, now: now)
        } else {
            if let encoding = atoms.encoding(of: target), case .failed(let reason) = offer.bytes(encoding) {
                log("clipboard: cannot make \(encoding): \(reason)")
            }
            return false
        }
        return true
    }

    /// Writes `bytes` at once, or starts an INCR transfer when they exceed `chunkSize`.
    private func send(_ bytes: [UInt8], type: Atom, to requestor: CX11.Window, property: Atom, now: Double) {
        guard bytes.count > chunkSize else {
            display.writeProperty(property, of: requestor, type: type, bytes: bytes[...])
            return
        }
        // Watch the requestor's properties first, so its deletion of the INCR property is seen.
        if requestor != window { XSelectInput(display.pointer, requestor, PropertyChangeMask) }
        display.writeProperty(property, of: requestor, type: atoms.incr, longs: [UInt(bytes.count)])
        transfers[TransferKey(window: requestor, property: property)] = IncrTransfer(
            type: type, bytes: bytes, offset: 0, lastProgress: now)
    }

    /// Stops watching a requestor's properties once no transfer to it is left (never the app's own window).
    private func stopWatching(_ requestor: CX11.Window) {
        guard requestor != window, !transfers.keys.contains(where: { $0.window == requestor }) else { return }
        XSelectInput(display.pointer, requestor, NoEventMask)
    }

    private func refuse(_ request: ConversionRequest) {
        display.sendSelectionNotify(
            requestor: request.requestor, selection: request.selection, target: request.target, property: 0,
            time: request.time)
        display.flush()
    }

    /// Whether a request's time is not before the ownership began (CurrentTime, 0, always passes). Server times
    /// wrap after 49 days, so "before" means less than half the range behind.
    private func isAfterOwnership(_ time: Time) -> Bool {
        guard time != 0, ownedSince != 0 else { return true }
        return UInt32(truncatingIfNeeded: time) &- UInt32(truncatingIfNeeded: ownedSince) < UInt32.max / 2
    }
}
