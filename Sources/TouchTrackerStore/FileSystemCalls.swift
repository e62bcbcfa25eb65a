import Glibc
import SystemPackage

/// The few calls the document's reads and writes need that swift-system 1.8.1 does not wrap (fsync, rename,
/// unlink), in its terms: a `FileDescriptor` in, an `Errno` thrown. (`DocumentLock`'s `flock` and
/// `DocumentWatcher`'s inotify, which swift-system has no words for either, stay in those types.)
enum FileSystemCalls {
    /// Flushes the file's data (or a folder's entries) to the disk.
    static func sync(_ fd: FileDescriptor) throws(Errno) {
        if Glibc.fsync(fd.rawValue) != 0 { throw Errno(rawValue: errno) }
    }

    /// Renames `source` over `target` in one step.
    static func rename(_ source: String, to target: String) throws(Errno) {
        if Glibc.rename(source, target) != 0 { throw Errno(rawValue: errno) }
    }

    static func unlink(_ path: String) throws(Errno) {
        if Glibc.unlink(path) != 0 { throw Errno(rawValue: errno) }
    }
}
