import Synchronization
import TouchTracker

/// What another program did to the document, handed from the thread that watches and reads it to the event loop,
/// which takes it at the next frame (`X11App` shows it and, for a readable document, puts it on screen).
public final class DiskChangeMailbox: Sendable {
    public enum Change: Sendable {
        /// The document was replaced or rewritten and reads as this drawing (read and indexed off the loop).
        /// `adopted` is called on the event loop once it is on screen (and handed to saving).
        case readable(LoadedDocument, adopted: @Sendable () -> Void)
        /// The document was replaced or rewritten and cannot be read; `problem` says why, in one line. `copied`:
        /// whether a copy of it was kept aside, so the drawing on screen may be saved over it.
        case unreadable(problem: String, copied: Bool)
    }

    private let changes = Mutex<[Change]>([])
    private let wakeUp: @Sendable () -> Void
    /// The number every shape on screen is below, as the loop last said.
    private let shapesBelow = Atomic<UInt64>(1)

    /// Room above the shapes on screen for those drawn while a version is read, before it replaces them.
    static let numbersWhileReading: UInt64 = 1 << 24

    /// Called by the loop at each frame: every shape on screen has a number below `number`.
    func noteShapes(below number: UInt64) {
        shapesBelow.store(number, ordering: .relaxed)
    }

    /// Where a version read now numbers its shapes from: above every shape on screen and any drawn while it is
    /// read (shape IDs are never reused, so one kept from before — a screen reader's — names no new shape).
    public var firstNumberForReading: UInt64 {
        shapesBelow.load(ordering: .relaxed) + Self.numbersWhileReading
    }

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    /// Called from any thread: queues `change` and wakes the event loop.
    public func post(_ change: Change) {
        changes.withLock { $0.append(change) }
        wakeUp()
    }

    /// The changes posted since the last call, oldest first.
    func take() -> [Change] {
        changes.withLock { changes in
            var taken: [Change] = []
            swap(&taken, &changes)
            return taken
        }
    }
}
