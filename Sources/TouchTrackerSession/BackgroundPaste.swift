import BackgroundWork
import Foundation
import Synchronization
import TouchTracker

/// A large paste's shapes put on top of the drawing's on a thread of their own (`PreparedPaste`): 100,000 shapes
/// take ~100 ms to file into the collection and its index, which the event loop must not wait for. The loop is
/// woken when it is ready and swaps it in (`DrawingController.paste(_:)`); if the drawing changed meanwhile, the
/// paste is prepared again on the drawing as it is then.
final class BackgroundPaste: Sendable {
    private let ready = Mutex<PreparedPaste?>(nil)
    private let wakeUp: @Sendable () -> Void

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    /// Prepares the shapes `placedShapes` gives (where the paste puts them; linear work, so it runs on the
    /// thread too) on top of `base`, the drawing's shapes now.
    func start(onto base: ShapeCollection, _ placedShapes: @escaping @Sendable () -> [Shape]) {
        Worker.run("paste", wakeUp: wakeUp) { [self] in
            let prepared = PreparedPaste(placedShapes(), onto: base)
            ready.withLock { $0 = prepared }
        }
    }

    /// The prepared paste, once; nil while it is being prepared (or none is).
    func take() -> PreparedPaste? {
        ready.withLock { $0.take() }
    }
}
