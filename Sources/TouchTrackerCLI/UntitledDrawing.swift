import Glibc
import TouchTrackerSession
import TouchTrackerStore

/// Ctrl+N's drawing: the first `untitled-N.touchtracker` in the data folder with neither a file nor a lock by that
/// name (a window that has not saved yet holds the lock), looked for off the loop.
enum UntitledDrawing {
    static func next(in dataFolder: String) -> String {
        let name = DocumentNames.nextUntitledName { name in
            let path = PathText.join(dataFolder, name)
            return exists(path) || exists(DocumentLock.lockPath(for: path))
        }
        return PathText.join(dataFolder, name)
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return PathText.withCString(path) { lstat($0, &info) } == 0
    }
}
