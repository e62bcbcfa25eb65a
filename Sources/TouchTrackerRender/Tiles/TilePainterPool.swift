import BackgroundWork
import Dispatch
import Foundation
import Synchronization
import TouchKit
import TouchTracker

/// A small pool of threads that paint tiles, one tile at a time each, so no stroke of a complete line ever runs on
/// the event loop. The event loop queues tiles (`paint`), is told through `onFinished` (called on a painter's
/// thread) that some are done, and takes them (`takeFinished`) to swap them in whole.
///
/// A tile queued again before a painter took it is painted once, from the newer scene. Tiles already on screen
/// (repaints after an edit) go before tiles never painted, so an edit shows while a large drawing still opens.
final class TilePainterPool: Sendable {
    private struct Job: Sendable {
        let key: TileKey
        let rect: Rect
        let scene: TileScene
        /// Nil: the whole tile is painted.
        let over: TileRepaint?
    }

    private struct State {
        var queued: [TileKey: Job] = [:]
        /// Keys in the order painters take them (each queued key once).
        var order: [TileKey] = []
        var finished: [PaintedTile] = []
        /// Tiles the event loop let go of (an old zoom's, scrolled away), dropped by a painter: their pixels' memory
        /// is given back there, not on the loop.
        var discarded: [PaintedTile] = []
        /// When a painter is to wake the event loop (`wake(after:)`), until one takes it.
        var wakeAt: ContinuousClock.Instant?
        var stopping = false
    }

    private let state = Mutex(State())
    /// Counts jobs queued; a painter waits on it for work.
    private let work = DispatchSemaphore(value: 0)
    /// Counts tiles finished; `waitForFinished` waits on it.
    private let done = DispatchSemaphore(value: 0)
    private let tileSize: Int
    private let onFinished: @Sendable () -> Void
    let threadCount: Int

    /// Starts `threads` painter threads (at least one).
    init(threads: Int, tileSize: Int, onFinished: @escaping @Sendable () -> Void) {
        threadCount = max(1, threads)
        self.tileSize = tileSize
        self.onFinished = onFinished
        for index in 0..<threadCount {
            Worker.run("tile painter \(index + 1)") { [self] in paintUntilStopped() }
        }
    }

    /// Queues `key` to be painted from `scene` (only the parts `over` names, over its base, if given), ahead of the
    /// tiles never painted when `urgent`.
    func paint(_ key: TileKey, rect: Rect, from scene: TileScene, urgent: Bool, over: TileRepaint? = nil) {
        let isNew = state.withLock { state in
            let job = Job(key: key, rect: rect, scene: scene, over: over)
            let isNew = state.queued.updateValue(job, forKey: key) == nil
            if isNew {
                if urgent { state.order.insert(key, at: 0) } else { state.order.append(key) }
            }
            return isNew
        }
        if isNew { work.signal() }
    }

    /// Lets go of `tiles` on a painter's thread: the last reference to a tile's pixels (256 KB) is dropped there, so
    /// freeing them never takes the event loop's time (a change of zoom lets go of a window's worth at once).
    func discard(_ tiles: [PaintedTile]) {
        guard !tiles.isEmpty else { return }
        state.withLock { $0.discarded += tiles }
        work.signal()
    }

    /// Calls `onFinished` (which wakes the event loop) `delay` seconds from now, from a painter's thread: one that
    /// has no tile to paint (while painting is held back after a change of zoom, none has) waits for it.
    func wake(after delay: Double) {
        state.withLock { $0.wakeAt = ContinuousClock.now + .seconds(delay) }
        work.signal()
    }

    /// Drops queued tiles that `reject` picks (a resize took them out of the window, a clear made them plain).
    /// Tiles being painted finish.
    func cancel(where reject: (TileKey) -> Bool) {
        state.withLock { state in
            state.order.removeAll { key in
                guard reject(key) else { return false }
                state.queued[key] = nil
                return true
            }
        }
    }

    /// The tiles finished since the last call, in the order they finished.
    func takeFinished() -> [PaintedTile] {
        state.withLock { state in
            var taken: [PaintedTile] = []
            swap(&taken, &state.finished)
            return taken
        }
    }

    /// Waits up to `timeout` seconds for a painter to finish a tile. Returns false on timeout.
    func waitForFinished(timeout: Double) -> Bool {
        done.wait(timeout: .now() + timeout) == .success
    }

    /// Stops the painters once they finish the tile in hand; queued tiles are dropped.
    func stop() {
        let wasStopping = state.withLock { state in
            defer { state.stopping = true }
            return state.stopping
        }
        guard !wasStopping else { return }
        for _ in 0..<threadCount { work.signal() }
    }

    private func paintUntilStopped() {
        while true {
            work.wait()
            var dropped: [PaintedTile] = []
            var wakeAt: ContinuousClock.Instant?
            let next: Job?? = state.withLock { state in
                swap(&dropped, &state.discarded)
                swap(&wakeAt, &state.wakeAt)
                if state.stopping { return .none }
                guard !state.order.isEmpty else { return .some(nil) }
                let key = state.order.removeFirst()
                return .some(state.queued.removeValue(forKey: key))
            }
            // Released here, outside the lock, at the painters' priority.
            dropped.removeAll()
            if let wakeAt {
                let wait = ContinuousClock.now.duration(to: wakeAt).components
                let seconds = Double(wait.seconds) + Double(wait.attoseconds) * 1e-18
                if seconds > 0 { Thread.sleep(forTimeInterval: seconds) }
                onFinished()
            }
            guard let job = next else { return }
            guard let job else { continue }
            let painted: PaintedTile
            do {
                let surface =
                    if let over = job.over {
                        try job.scene.repaintTile(
                            at: job.rect, size: tileSize, over: over.base?.surface, within: over.region)
                    } else {
                        try job.scene.paintTile(at: job.rect, size: tileSize)
                    }
                painted = PaintedTile(key: job.key, version: job.scene.version, surface: surface)
            } catch {
                // Out of memory for the tile's pixels: reported, so the cache knows no painter has the tile any more
                // (it stays as it was and is queued again on the next change).
                painted = PaintedTile(failedKey: job.key, version: job.scene.version)
            }
            state.withLock { $0.finished.append(painted) }
            done.signal()
            onFinished()
        }
    }

    deinit {
        stop()
    }
}
