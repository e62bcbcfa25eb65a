import TouchTrackerStore

/// Where a demo window writes its scene's state (JSON) for scripts and tests, whatever the window system: after
/// every change, atomically, so a reader never sees half of it, and only when it changed.
public struct DemoStateFile {
    private let path: String?
    private var lastSnapshot: [UInt8] = []

    /// `path` nil: nothing is written.
    public init(path: String?) {
        self.path = path
    }

    /// Writes `snapshot` when it differs from the last one written; a failure is said through `log`.
    public mutating func write(_ snapshot: [UInt8], log: (String) -> Void) {
        guard let path, snapshot != lastSnapshot else { return }
        lastSnapshot = snapshot
        do {
            // The loop must not wait for a pipe's reader to come; a folder that is not there is a typo.
            try AtomicFile.write(snapshot, to: path, missingFolder: .refuse, waitsForReader: false)
        } catch {
            log("cannot write the demo state: \(error)")
        }
    }
}
