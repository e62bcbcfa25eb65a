import BackgroundWork
import Foundation
import Synchronization
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore

/// Ctrl+S's PNG, drawn and written on a thread of its own: the whole drawing is stroked for it (seconds at 100,000
/// lines), which the event loop must never wait for. The loop is woken when it is done and takes the outcome
/// (`takeOutcomes`) to show its notice.
///
/// Exports run one at a time, on one thread: a Ctrl+S pressed while one is running is queued, and a newer one
/// replaces a queued one (the file would be overwritten by it anyway), so two threads never write the same file.
final class BackgroundExport: Sendable {
    enum Outcome: Sendable {
        case exported(path: String)
        case failed(path: String, reason: String)
    }

    struct Request: Sendable {
        let snapshot: DrawingSnapshot
        let path: String
        /// The document, which the export must not replace (`path` may have become a link to it).
        let document: String?
        /// The part of the drawing (units) and the PNG's pixels per unit.
        let area: Rect
        let scale: Double
        let lineWidth: Double
    }

    private struct State {
        var running = false
        var queued: Request?
        var outcomes: [Outcome] = []
    }

    private let state = Mutex(State())
    private let wakeUp: @Sendable () -> Void

    init(wakeUp: @escaping @Sendable () -> Void) {
        self.wakeUp = wakeUp
    }

    /// Exports `snapshot` as it is now (later edits do not change the file), never over `document`.
    func start(
        _ snapshot: DrawingSnapshot, to path: String, sparing document: String?, area: Rect, scale: Double,
        lineWidth: Double
    ) {
        let request = Request(
            snapshot: snapshot, path: path, document: document, area: area, scale: scale, lineWidth: lineWidth)
        let startThread = state.withLock { state -> Bool in
            state.queued = request
            if state.running { return false }
            state.running = true
            return true
        }
        guard startThread else { return }
        Worker.run("export") { [self] in
            while let request = nextRequest() {
                let outcome: Outcome
                do {
                    if let document = request.document, FileIdentity.sameFile(request.path, document) {
                        throw DocumentFileError(
                            path: request.path, problem: "it is the document itself (a link to it?); move it away")
                    }
                    let bytes = try DrawingExporter.render(
                        request.snapshot.drawing, format: .png, area: request.area, scale: request.scale,
                        lineWidth: request.lineWidth)
                    // A pipe with no reader is an error, not a wait that would hold the window open at exit.
                    try AtomicFile.write(bytes, to: request.path, waitsForReader: false)
                    outcome = .exported(path: request.path)
                } catch let error as DocumentFileError {
                    outcome = .failed(path: request.path, reason: error.description)
                } catch {
                    outcome = .failed(path: request.path, reason: "\(PathText.shown(request.path)): \(error)")
                }
                state.withLock { $0.outcomes.append(outcome) }
                wakeUp()
            }
        }
    }

    /// The queued request, or nil (and the thread is no longer running) when there is none.
    private func nextRequest() -> Request? {
        state.withLock { state in
            guard let request = state.queued else {
                state.running = false
                return nil
            }
            state.queued = nil
            return request
        }
    }

    /// Returns once no export is running or queued (used at exit, so a Ctrl+S just before closing still writes its
    /// file). Polls: an exit waits at most one export, and a condition variable is not worth it for that.
    func waitUntilIdle() {
        while state.withLock({ $0.running }) { usleep(5_000) }
    }

    /// The exports finished since the last call.
    func takeOutcomes() -> [Outcome] {
        state.withLock { state in
            var taken: [Outcome] = []
            swap(&taken, &state.outcomes)
            return taken
        }
    }
}
