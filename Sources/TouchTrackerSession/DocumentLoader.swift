import BackgroundWork
import Foundation
import Synchronization
import TouchTracker

/// Reads the document on a thread of its own while the window opens, so the first frame does not wait for a large
/// drawing to be parsed and indexed. The event loop is woken when it is ready and takes it once (`take`).
final class DocumentLoader: Sendable {
    private let result = Mutex<LoadedDocument?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading with `load` (which reports its own problems) and calls `onLoaded` from the reading thread
    /// once the document is ready.
    init(load: @escaping @Sendable () -> Drawing, onLoaded: @escaping @Sendable () -> Void) {
        Worker.run("document reader", wakeUp: onLoaded) { [self] in
            let document = LoadedDocument(load())
            result.withLock { $0 = document }
            done.signal()
        }
    }

    /// The document, once, when it is ready; nil before (and after it was taken). The caller owns it alone.
    func take() -> LoadedDocument? {
        result.withLock { $0.take() }
    }

    /// Waits for the document (on the way out, when it has not arrived yet).
    func waitAndTake() -> LoadedDocument? {
        done.wait()
        done.signal()
        return take()
    }
}
