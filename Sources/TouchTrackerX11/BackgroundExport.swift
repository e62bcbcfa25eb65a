import Foundation
import Synchronization
import TouchTracker
import TouchTrackerRender

/// Ctrl+S's PNG, drawn and written on a thread of its own: the whole drawing is stroked for it (seconds at 100,000
/// lines), which the event loop must never wait for. The loop is woken when it is done and takes the outcome
/// (`takeOutcome`) to show its notice.
final class BackgroundExport: Sendable {
    enum Outcome: Sendable {
        case exported(path: String)
        case failed(path: String, reason: String)
    }

    private let outcomes = Mutex<[Outcome]>([])
    private let wakeUp: @Sendable () -> Void

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    /// Starts exporting `snapshot` as it is now (later edits do not change the file).
    func start(_ snapshot: DrawingSnapshot, to path: String, width: Int, height: Int, lineWidth: Double) {
        let thread = Thread { [self] in
            BackgroundPriority.lowerForThisThread()
            let outcome: Outcome
            do {
                try DrawingExporter.export(
                    snapshot.drawing, format: .png, to: path, width: width, height: height, lineWidth: lineWidth)
                outcome = .exported(path: path)
            } catch {
                outcome = .failed(path: path, reason: "\(error)")
            }
            outcomes.withLock { $0.append(outcome) }
            wakeUp()
        }
        thread.name = "export"
        thread.start()
    }

    /// The exports finished since the last call.
    func takeOutcomes() -> [Outcome] {
        outcomes.withLock { outcomes in
            var taken: [Outcome] = []
            swap(&taken, &outcomes)
            return taken
        }
    }
}
