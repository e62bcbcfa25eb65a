import Glibc

/// What tells one version of a file from another without reading it: the device and inode (an atomic replace
/// makes a new inode), the size and the modification time in nanoseconds (a rewrite in place changes them).
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    /// The identity of the file at `path` now (following symlinks), or nil when there is none.
    public static func of(path: String) -> FileIdentity? {
        (try? FileSystemCalls.status(path)).map(FileIdentity.init)
    }

    /// Whether two paths name one file: the same file on disk (by any name, link or hard link), or, for a file not
    /// made yet, the same place once links, `.` and `..` are resolved. For refusing to write an output over the
    /// document (or a script) it came from.
    public static func sameFile(_ first: String, _ second: String) -> Bool {
        if let one = of(path: first), let other = of(path: second) {
            return one.device == other.device && one.inode == other.inode
        }
        return DocumentLock.canonicalPath(of: first) == DocumentLock.canonicalPath(of: second)
    }

    /// The identity of an open file.
    static func of(descriptor: Int32) -> FileIdentity? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileIdentity(info)
    }
}
