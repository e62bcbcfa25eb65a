import Foundation
import TouchTracker

/// Crash-safe file replacement: a temporary file in the same folder is written, flushed to disk and renamed over
/// the target, and the folder is flushed, so the target is always either the old file or the new one.
public enum AtomicFile {
    /// Writes `bytes` to `path`. A missing folder is created with mode 0700; the file gets mode 0600.
    public static func write(_ bytes: [UInt8], to path: String) throws(DocumentFileError) {
        try write(to: path) { (file: borrowing Output) throws(DocumentFileError) in try file.write(bytes) }
    }

    /// Writes what `produce` hands to its `Output`, in order, to `path`, without holding it all in memory. If
    /// `produce` or a write fails, the temporary file is removed and `path` is left as it was.
    public static func write(
        to path: String, _ produce: (borrowing Output) throws(DocumentFileError) -> Void
    ) throws(DocumentFileError) {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        try createFolder(folder)
        let name = (path as NSString).lastPathComponent
        let temporary = "\(folder)/.\(name).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw DocumentFileError(path: temporary, problem: DocumentStore.describe(errno: errno)) }
        do {
            try produce(Output(fd: fd, path: temporary))
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        if fsync(fd) != 0 {
            let problem = DocumentStore.describe(errno: errno)
            close(fd)
            unlink(temporary)
            throw DocumentFileError(path: temporary, problem: problem)
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let problem = DocumentStore.describe(errno: errno)
            unlink(temporary)
            throw DocumentFileError(path: path, problem: problem)
        }
        // Flush the folder so the rename itself survives a power cut.
        syncFolder(of: path)
    }

    /// The temporary file being written; lent to the producer for the length of `write(to:_:)`.
    public struct Output: ~Copyable {
        fileprivate let fd: Int32
        fileprivate let path: String

        /// Appends `bytes` to the file (all of them, retrying short and interrupted writes).
        public func write(_ bytes: [UInt8]) throws(DocumentFileError) {
            var written = 0
            while written < bytes.count {
                let n = bytes.withUnsafeBytes { buffer in
                    Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw DocumentFileError(path: path, problem: DocumentStore.describe(errno: errno))
                }
                written += n
            }
        }
    }

    /// Flushes the folder holding `path`, so a file created or renamed in it survives a power cut.
    public static func syncFolder(of path: String) {
        let parent = (path as NSString).deletingLastPathComponent
        let folderFD = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    private static func createFolder(_ folder: String) throws(DocumentFileError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
            if !isDirectory.boolValue { throw DocumentFileError(path: folder, problem: "is not a folder") }
            return
        }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DocumentFileError(path: folder, problem: "could not be created: \(error.localizedDescription)")
        }
    }
}
