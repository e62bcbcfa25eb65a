import Glibc
import Synchronization

/// The temporary files this process is writing now (`AtomicFile`'s `.NAME.tmp-PID-RANDOM`), so a command that is
/// interrupted (Ctrl+C during a long export) can remove them before it ends, rather than leave a hidden, truncated
/// file beside the user's for every interruption. Removing one only ever removes a name this process created.
public enum TemporaryFiles {
    private static let written = Mutex<(next: Int, paths: [Int: String])>((0, [:]))

    /// Notes `path` as being written; the returned number forgets it again.
    static func note(_ path: String) -> Int {
        written.withLock { state in
            state.next += 1
            state.paths[state.next] = path
            return state.next
        }
    }

    /// Forgets the file noted as `number` (renamed into place, or removed).
    static func forget(_ number: Int) {
        _ = written.withLock { $0.paths.removeValue(forKey: number) }
    }

    /// Removes every temporary file being written now and forgets them: for a process about to end on a signal.
    public static func removeAll() {
        let paths = written.withLock { state in
            defer { state.paths.removeAll() }
            return Array(state.paths.values)
        }
        for path in paths { _ = PathText.withCString(path) { unlink($0) } }
    }
}
