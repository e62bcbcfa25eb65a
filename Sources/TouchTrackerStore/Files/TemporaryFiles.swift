import Glibc
import Synchronization

/// The temporary files this process is writing now (`AtomicFile`'s `.NAME.tmp-PID-RANDOM`), so a command that is
/// interrupted (Ctrl+C during a long export) can remove them before it ends, rather than leave a hidden, truncated
/// file beside the user's for every interruption. Removing one only ever removes a name this process created.
public enum TemporaryFiles {
    private static let written = Mutex<(next: Int, paths: [Int: String], closed: Bool)>((0, [:], false))
    /// Whether files are noted at all: only in a command that can be interrupted (`startNoting`). The window never
    /// takes the lock, so a save there never waits for another file's creation on a stalled mount.
    private static let isNoting = Atomic<Bool>(false)

    /// From now on, temporary files are noted as they are made.
    public static func startNoting() { isNoting.store(true, ordering: .sequentiallyConsistent) }

    /// Makes the file at `path` with `create` and, when noting, notes it, both under one lock: a `removeAll` on
    /// another thread comes wholly before (then nothing is made, and the result is nil) or wholly after (then it
    /// removes the file). The number is 0 when nothing was noted.
    static func noting<Made, Failure: Error>(_ path: String, _ create: () throws(Failure) -> Made) throws(Failure)
        -> (made: Made, number: Int)?
    {
        guard isNoting.load(ordering: .sequentiallyConsistent) else { return (try create(), 0) }
        return try written.withLock { (state) throws(Failure) -> (made: Made, number: Int)? in
            guard !state.closed else { return nil }
            let made = try create()
            state.next += 1
            state.paths[state.next] = path
            return (made, state.next)
        }
    }

    /// Forgets the file noted as `number` (renamed into place, or removed).
    static func forget(_ number: Int) {
        guard number != 0 else { return }
        _ = written.withLock { $0.paths.removeValue(forKey: number) }
    }

    /// Removes every temporary file being written now, and lets no more be made: for a process about to end on a
    /// signal. Gives up after a second if a file's creation holds the lock (a stalled mount): the signal must still
    /// end the process.
    public static func removeAll() {
        var paths: [String]?
        for _ in 0..<100 {
            paths = written.withLockIfAvailable { state in
                defer {
                    state.paths.removeAll()
                    state.closed = true
                }
                return Array(state.paths.values)
            }
            if paths != nil { break }
            usleep(10_000)
        }
        for path in paths ?? [] { _ = PathText.withCString(path) { unlink($0) } }
    }
}
