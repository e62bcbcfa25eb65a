import BackgroundWork
import CX11
import Foundation
import Synchronization
import TouchTracker
import TouchTrackerSession

/// Ctrl+V from another client's clipboard: asks the owner for its TARGETS, then for the best one it has — the
/// document's JSON, or else text (which may hold such a document) — reads it whole or in an INCR transfer, and
/// decodes it on a worker thread. The event loop never waits: each step is an event, and `service()` hands over
/// the outcome once decoded.
final class ClipboardPaster {
    typealias Outcome = PasteOutcome

    private enum Stage {
        case idle
        case askingTargets
        case askingData(Atom)
        /// An INCR transfer of `target`: the pieces so far.
        case receiving(Atom, [UInt8])
        case decoding
    }

    private let display: X11Display
    private let window: CX11.Window
    private let atoms: ClipboardAtoms
    private let wakeUp: @Sendable () -> Void
    private let log: (String) -> Void
    private var stage = Stage.idle
    private var time: Time = 0
    private var lastProgress = 0.0
    /// Where the decoding thread leaves its outcome.
    private let decoded = DecodedOutcome()
    /// An owner that stops answering for this long (seconds) is given up on.
    static let timeout = 5.0
    /// The most a paste reads: the largest document the app reads (a 100,000-line document is 12 MB), so any
    /// drawing the app saved can be pasted; an owner sending more is not sending a drawing anyone drew, and memory
    /// is not spent on it.
    static let maximumBytes = DocumentCodec.maximumFileSize

    init(_ connection: ClipboardConnection) {
        (display, window, atoms, wakeUp, log) = (
            connection.display, connection.window, connection.atoms, connection.wakeUp, connection.log
        )
    }

    var isBusy: Bool {
        if case .idle = stage { return false }
        return true
    }

    /// When an owner that stopped answering is given up on (monotonic seconds), while one is awaited.
    var nextDeadline: Double? {
        switch stage {
        case .askingTargets, .askingData, .receiving: lastProgress + Self.timeout
        case .idle, .decoding: nil
        }
    }

    /// The property conversions arrive in: a fresh one for each paste (from a few, used in turn), so an owner
    /// still sending an abandoned INCR transfer never writes into the next paste's.
    private var property: Atom { atoms.transferProperties[pasteNumber % atoms.transferProperties.count] }
    private var pasteNumber = 0

    /// Starts a paste at server time `time` (a Ctrl+V while one is under way is ignored).
    func start(time: Time, now: Double) {
        guard !isBusy else { return }
        pasteNumber += 1
        self.time = time
        ask(for: atoms.targets, now: now)
        stage = .askingTargets
    }

    /// A `SelectionNotify` for the window: the owner's answer.
    func converted(target: Atom, property: Atom, now: Double) -> Outcome? {
        // An answer on another property is a late one to an earlier paste that gave up: not this paste's.
        guard property == 0 || property == self.property else { return nil }
        switch stage {
        case .askingTargets where target == atoms.targets:
            guard property != 0, let value = display.readProperty(property, of: window, delete: true),
                value.format == 32
            else { return finish(.nothing) }
            let offered = Set(value.longs.map { Atom($0) })
            guard let chosen = ([atoms.document] + atoms.textTargets).first(where: offered.contains) else {
                return finish(.nothing)
            }
            stage = .askingData(chosen)
            ask(for: chosen, now: now)
            return nil
        case .askingData(let chosen) where target == chosen:
            guard property != 0, let value = display.readProperty(property, of: window, delete: true) else {
                return finish(.nothing)
            }
            if value.type == atoms.incr {
                // Deleting the INCR property (done by the read) asks for the first piece.
                stage = .receiving(chosen, [])
                lastProgress = now
                return nil
            }
            decode(value.bytes, target: chosen)
            return nil
        default:
            return nil
        }
    }

    /// A property of the window changed: in an INCR transfer, a new piece (an empty one ends it).
    func propertyChanged(window changed: CX11.Window, property: Atom, deleted: Bool, now: Double) {
        guard changed == window, property == self.property, !deleted, case .receiving(let target, var bytes) = stage
        else { return }
        guard let piece = display.readProperty(property, of: window, delete: true) else { return }
        display.flush()
        lastProgress = now
        if piece.bytes.isEmpty {
            decode(bytes, target: target)
        } else if bytes.count + piece.bytes.count > Self.maximumBytes {
            log("clipboard: the owner sends more than \(Self.maximumBytes >> 20) MB; nothing pasted")
            XDeleteProperty(display.pointer, window, property)
            stage = .decoding
            decoded.value.withLock { $0 = .unreadable("larger than \(Self.maximumBytes >> 20) MB") }
        } else {
            stage = .idle  // Releases the buffer, so appending does not copy it.
            bytes += piece.bytes
            stage = .receiving(target, bytes)
        }
    }

    /// The decoded outcome once ready, or `.nothing` when the owner stopped answering.
    func service(now: Double) -> Outcome? {
        switch stage {
        case .idle:
            return nil
        case .decoding:
            guard let outcome = decoded.value.withLock({ $0.take() }) else { return nil }
            stage = .idle
            return outcome
        case .askingTargets, .askingData, .receiving:
            guard now - lastProgress > Self.timeout else { return nil }
            log("clipboard: the owner did not answer within \(Int(Self.timeout)) s; nothing pasted")
            XDeleteProperty(display.pointer, window, property)
            return finish(.nothing)
        }
    }

    private func ask(for target: Atom, now: Double) {
        lastProgress = now
        XDeleteProperty(display.pointer, window, property)
        XConvertSelection(display.pointer, atoms.clipboard, target, property, window, time)
        display.flush()
    }

    private func finish(_ outcome: Outcome) -> Outcome {
        stage = .idle
        return outcome
    }

    /// Reads the shapes on a worker (a 100,000-line document takes ~50 ms to read).
    private func decode(_ bytes: [UInt8], target: Atom) {
        stage = .decoding
        let mimeType = target == atoms.document ? ClipboardShapes.documentType : "text/plain"
        Worker.run("clipboard paste", wakeUp: wakeUp) { [decoded] in
            decoded.value.withLock { $0 = PasteOutcome.decode(bytes, mimeType: mimeType) }
        }
    }
}

/// The outcome a decoding thread hands to the event loop.
private final class DecodedOutcome: Sendable {
    let value = Mutex<ClipboardPaster.Outcome?>(nil)
}
