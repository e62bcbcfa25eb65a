import Foundation
import SystemPackage
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
    ///
    /// `beforeRename` is given the identity the new file will have at `path` (the rename keeps it) once it is
    /// written and flushed, just before it replaces the old one; throwing from it abandons the write, leaving `path`
    /// as it was.
    public static func write(
        to path: String, beforeRename: (FileIdentity) throws(DocumentFileError) -> Void = { _ in },
        _ produce: (borrowing Output) throws(DocumentFileError) -> Void
    ) throws(DocumentFileError) {
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        try createFolder(folder)
        let name = (path as NSString).lastPathComponent
        let temporary = "\(folder)/.\(name).tmp-\(getpid())"
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                FilePath(temporary), .writeOnly, options: [.create, .truncate, .closeOnExec],
                permissions: .ownerReadWrite)
        } catch {
            throw DocumentFileError(path: temporary, problem: DocumentStore.describe(error))
        }
        // Every way out below closes the descriptor once, and removes the temporary file unless it was renamed.
        func abandon(_ problem: DocumentFileError) -> DocumentFileError {
            try? fd.close()
            _ = try? FileSystemCalls.unlink(temporary)
            return problem
        }
        do {
            try produce(Output(fd: fd, path: temporary))
        } catch {
            throw abandon(error)
        }
        let identity: FileIdentity?
        do {
            try FileSystemCalls.sync(fd)
            identity = FileIdentity.of(descriptor: fd.rawValue)
        } catch {
            throw abandon(DocumentFileError(path: temporary, problem: DocumentStore.describe(error)))
        }
        do {
            if let identity { try beforeRename(identity) }
        } catch {
            throw abandon(error)
        }
        do {
            try fd.close()
        } catch {
            _ = try? FileSystemCalls.unlink(temporary)
            throw DocumentFileError(path: temporary, problem: DocumentStore.describe(error))
        }
        do {
            try FileSystemCalls.rename(temporary, to: path)
        } catch {
            _ = try? FileSystemCalls.unlink(temporary)
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        // Flush the folder so the rename itself survives a power cut.
        syncFolder(of: path)
    }

    /// The temporary file being written; lent to the producer for the length of `write(to:_:)`.
    public struct Output: ~Copyable {
        fileprivate let fd: FileDescriptor
        fileprivate let path: String

        /// Appends `bytes` to the file (all of them: short and interrupted writes are retried).
        public func write(_ bytes: [UInt8]) throws(DocumentFileError) {
            do {
                _ = try fd.writeAll(bytes)
            } catch {
                throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
            }
        }
    }

    /// Flushes the folder holding `path`, so a file created or renamed in it survives a power cut.
    public static func syncFolder(of path: String) {
        let parent = (path as NSString).deletingLastPathComponent
        guard
            let folder = try? FileDescriptor.open(
                FilePath(parent.isEmpty ? "." : parent), .readOnly, options: [.directory, .closeOnExec])
        else { return }
        try? FileSystemCalls.sync(folder)
        try? folder.close()
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
