import Glibc
import SystemPackage

/// The calls the store needs that swift-system 1.8.1 does not wrap (fsync, the `*at` calls on a folder's
/// descriptor, readlink, mkdir, fchmod), in its terms: paths are `PathText` strings passed as their bytes, a
/// `FileDescriptor` in, an `Errno` thrown. Interrupted calls are retried. (`DocumentLock`'s `flock` and
/// `DocumentWatcher`'s inotify, which swift-system has no words for either, stay in those types.)
enum FileSystemCalls {
    /// Flushes the file's data (or a folder's entries) to the disk.
    static func sync(_ fd: FileDescriptor) throws(Errno) {
        try retrying { Glibc.fsync(fd.rawValue) }
    }

    static func unlink(_ path: String) throws(Errno) {
        try retrying { PathText.withCString(path) { Glibc.unlink($0) } }
    }

    /// Opens `path` with the C library's flags (the store's one place for flags swift-system lacks: `O_NOCTTY`,
    /// `O_PATH`), its bytes as given.
    static func open(_ path: String, flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
        var descriptor: Int32 = -1
        try retrying {
            descriptor = PathText.withCString(path) { Glibc.open($0, flags | O_CLOEXEC, mode) }
            return descriptor
        }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Opens `name` in the open folder `folder`: never a name that resolves elsewhere through a changed path.
    static func openAt(_ folder: FileDescriptor, _ name: String, flags: Int32, mode: mode_t = 0) throws(Errno)
        -> FileDescriptor
    {
        var descriptor: Int32 = -1
        try retrying {
            descriptor = PathText.withCString(name) { Glibc.openat(folder.rawValue, $0, flags | O_CLOEXEC, mode) }
            return descriptor
        }
        return FileDescriptor(rawValue: descriptor)
    }

    /// Renames `source` over `target` in one step, both in the open folder `folder`.
    static func renameAt(_ folder: FileDescriptor, _ source: String, to target: String) throws(Errno) {
        try retrying {
            PathText.withCString(source) { source in
                PathText.withCString(target) { target in
                    Glibc.renameat(folder.rawValue, source, folder.rawValue, target)
                }
            }
        }
    }

    static func unlinkAt(_ folder: FileDescriptor, _ name: String) throws(Errno) {
        try retrying { PathText.withCString(name) { Glibc.unlinkat(folder.rawValue, $0, 0) } }
    }

    /// The status of `path`; with `followingLinks` false, of a symlink itself (`lstat`).
    static func status(_ path: String, followingLinks: Bool = true) throws(Errno) -> stat {
        try PathText.filePath(path).stat(followTargetSymlink: followingLinks).rawValue
    }

    /// The status of an open file.
    static func status(_ fd: FileDescriptor) throws(Errno) -> stat {
        try fd.stat().rawValue
    }

    /// What the symlink at `path` points to, as its bytes.
    static func readLink(_ path: String) throws(Errno) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        var count = -1
        try retrying { () -> Int32 in
            count = PathText.withCString(path) { Glibc.readlink($0, &buffer, buffer.count) }
            return count < 0 ? -1 : 0
        }
        return PathText.decode(buffer.prefix(count).map { UInt8(bitPattern: $0) })
    }

    /// Makes the folder `path` with `mode` (the parent must exist).
    static func makeFolder(_ path: String, mode: mode_t) throws(Errno) {
        try retrying { PathText.withCString(path) { Glibc.mkdir($0, mode) } }
    }

    static func setPermissions(_ fd: FileDescriptor, _ mode: mode_t) throws(Errno) {
        try retrying { Glibc.fchmod(fd.rawValue, mode) }
    }

    /// Runs `call` until it is not interrupted; throws its errno when it returns a negative number.
    private static func retrying(_ call: () -> Int32) throws(Errno) {
        while true {
            if call() >= 0 { return }
            if errno == EINTR { continue }
            throw Errno(rawValue: errno)
        }
    }
}
