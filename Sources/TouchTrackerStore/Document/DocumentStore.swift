import Foundation
import SystemPackage
import TouchTracker

/// A document file that could not be read or written, with the reason in words.
public struct DocumentFileError: Error, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// One line: bytes of the path that are not text are shown as `\xHH` (`PathText.shown`), control characters
    /// (a newline in a path, say) as `?`.
    public var description: String {
        String(
            String.UnicodeScalarView(
                "\(PathText.shown(path)): \(problem)".unicodeScalars.map {
                    $0.value < 0x20 || $0.value == 0x7F ? "?" : $0
                }))
    }
}

/// What `DocumentStore.openForEditing` found.
public struct OpenedDocument: Sendable {
    public var drawing: Drawing
    /// Where edits are to be saved: the document itself, or a recovery file next to it when the original could not
    /// be copied aside.
    public var store: DocumentStore
    /// The one line to tell the user when the document could not be read; nil when it loaded.
    public var problem: String?
    /// The version of the file at `store`'s path that was read (or, unreadable, copied aside), which a save may
    /// replace; nil when there was none. Taken from the file as it was opened, so a version another program
    /// writes after the read is never taken for it.
    public var version: FileIdentity?
}

/// Reads and writes the drawing on disk. Writes are crash-safe: a temporary file in the same folder is written,
/// flushed to disk, renamed over the document, and the folder is flushed, so the file on disk is always either the
/// old document or the new one, never a mixture.
public struct DocumentStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Whether a document exists at the path: a directory, a symlink loop, or a name that cannot be looked at (a
    /// folder this user may not enter) counts, so loading says why; a dangling symlink does not (its target is the
    /// document, made by the first save), nor a path where nothing is.
    public var exists: Bool {
        let info: stat
        do {
            info = try FileSystemCalls.status(path, followingLinks: false)
        } catch .noSuchFileOrDirectory, .notDirectory {
            return false
        } catch {
            return true
        }
        guard info.st_mode & S_IFMT == S_IFLNK else { return true }
        return (try? FileTarget.resolve(path).kind) != .missing
    }

    /// Reads the document. A missing file is an empty drawing; anything unreadable is an error naming the problem.
    public func load() throws(DocumentFileError) -> Drawing {
        try loadVersion().drawing
    }

    /// `load`, and the version of the file it read (nil: there was none).
    public func loadVersion() throws(DocumentFileError) -> (drawing: Drawing, version: FileIdentity?) {
        guard exists else { return (Drawing(), nil) }
        let (bytes, version) = try RegularFile.read(path, limit: DocumentCodec.maximumFileSize)
        do {
            return (try DocumentCodec.decode(bytes), version)
        } catch {
            throw DocumentFileError(path: path, problem: error.description)
        }
    }

    /// Writes the drawing crash-safely. The folder is created (mode 0700) if missing; the file is mode 0600.
    /// `encoding`'s helpers encode batches side by side with the calling thread (nil: the calling thread alone).
    /// `beforeRename` sees the new file's identity just before it replaces the old one (`AtomicFile`).
    public func save(
        _ drawing: Drawing, encoding: ParallelEncoding? = nil,
        beforeRename: (FileIdentity) throws(DocumentFileError) -> Void = { _ in }
    ) throws(DocumentFileError) {
        try save(DocumentContent(drawing), encoding: encoding, beforeRename: beforeRename)
    }

    /// `save` of what `content` holds: a snapshot is written as it is, without building its `Drawing` first.
    public func save(
        _ content: DocumentContent, encoding: ParallelEncoding? = nil,
        beforeRename: (FileIdentity) throws(DocumentFileError) -> Void = { _ in }
    ) throws(DocumentFileError) {
        // Streamed: the text of a large drawing goes to the file a few batches at a time instead of being built
        // whole, and the batches in flight are encoded side by side.
        try AtomicFile.write(to: path, beforeRename: beforeRename) {
            (file: borrowing AtomicFile.Output) throws(DocumentFileError) in
            try DocumentCodec.encode(
                content, batchesAtOnce: encoding == nil ? 1 : ParallelEncoding.batchesAtOnce,
                encodeBatches: { jobs in encoding?.run(jobs) ?? jobs.map { $0() } }
            ) { (chunk: [UInt8]) throws(DocumentFileError) in try file.write(chunk) }
        }
    }

    /// Copies an unreadable document aside as `NAME.corrupt-YYYYMMDD-HHMMSS` (or `…-2`, `…-3` if taken) so no work
    /// is lost, and returns the copy's path. `stamp` is the local time to put in the name. The original is left
    /// untouched. Only a regular file can be copied: a folder, a symlink loop or a file that cannot be read is an
    /// error (and then nothing must ever be written over the original). The copy is byte for byte (holes in a
    /// sparse file stay holes), mode 0600, and flushed to disk before this returns.
    public func copyAside(stamp: String) throws(DocumentFileError) -> String {
        try copyAsideVersion(stamp: stamp).copy
    }

    /// `copyAside`, and the version of the file it copied.
    private func copyAsideVersion(stamp: String) throws(DocumentFileError) -> (copy: String, version: FileIdentity) {
        let (source, version) = try RegularFile.open(path)
        defer { try? source.close() }
        var destination = PathText.sibling(of: path, adding: ".corrupt-\(stamp)")
        var suffix = 1
        var target: FileDescriptor
        while true {
            do {
                target = try FileDescriptor.open(
                    PathText.filePath(destination), .writeOnly,
                    options: [.create, .exclusiveCreate, .closeOnExec, .noFollow],
                    permissions: .ownerReadWrite)
                break
            } catch {
                guard error as? Errno == .fileExists, suffix < 1000 else {
                    throw DocumentFileError(path: destination, problem: Self.describe(error))
                }
            }
            suffix += 1
            destination = PathText.sibling(of: path, adding: ".corrupt-\(stamp)-\(suffix)")
        }
        let copy = destination
        func fail(_ problem: String) -> DocumentFileError {
            try? target.close()
            _ = try? FileSystemCalls.unlink(copy)
            return DocumentFileError(
                path: path, problem: "could not be copied aside to \(PathText.shown(copy)): \(problem)")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let zeros = [UInt8](repeating: 0, count: buffer.count)
        var size = 0
        while true {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            } catch {
                throw fail(Self.describe(error))
            }
            if n == 0 { break }
            size += n
            do {
                if memcmp(buffer, zeros, n) == 0 {
                    // A block of zeros (a hole in a sparse file, usually) is skipped; the resize below fills it in.
                    _ = try target.seek(offset: Int64(n), from: .current)
                } else {
                    _ = try target.writeAll(buffer[0..<n])
                }
            } catch {
                throw fail(Self.describe(error))
            }
        }
        do {
            try target.resize(to: Int64(size))
            try FileSystemCalls.sync(target)
            try target.close()
        } catch {
            throw fail(Self.describe(error))
        }
        AtomicFile.syncFolder(of: copy)
        return (copy, version)
    }

    /// Opens the document for the window: its drawing, or, when it cannot be read, an empty drawing with the
    /// original kept safe and one line saying what happened. Nothing the user made is ever written over:
    /// - a readable but bad file is copied aside (`copyAside`), then edits are saved to the document's path;
    /// - anything that cannot be copied (a folder, a symlink loop, a file that cannot be read, a full disk) is left
    ///   exactly as it is, and edits are saved next to it, to `NAME.recovered-YYYYMMDD-HHMMSS`, instead.
    public func openForEditing(stamp: String) -> OpenedDocument {
        do {
            let (drawing, version) = try loadVersion()
            return OpenedDocument(drawing: drawing, store: self, problem: nil, version: version)
        } catch {
            do {
                let (copy, version) = try copyAsideVersion(stamp: stamp)
                return OpenedDocument(
                    drawing: Drawing(), store: self,
                    problem:
                        "cannot read document \(error); kept it as \(PathText.shown(copy)) and starting with an empty "
                        + "drawing",
                    version: version)
            } catch let copyError {
                var recovery = PathText.sibling(of: path, adding: ".recovered-\(stamp)")
                var suffix = 1
                // A name taken is skipped. Where the folder cannot even be looked in (a symlink loop, no
                // permission), every name would look taken: the first is kept, saves to it fail, and the window
                // keeps the drawing in a recovery file as it does whenever it cannot save.
                while Self.isTaken(recovery) {
                    suffix += 1
                    recovery = PathText.sibling(of: path, adding: ".recovered-\(stamp)-\(suffix)")
                }
                let reason = copyError.problem == error.problem ? "" : " (no copy: \(copyError.problem))"
                return OpenedDocument(
                    drawing: Drawing(), store: DocumentStore(path: recovery),
                    problem: "cannot read document \(error); left it untouched\(reason) and starting with an empty "
                        + "drawing saved to \(PathText.shown(recovery))")
            }
        }
    }

    /// Whether something is at `path` (a dangling link included): false when nothing is, and when the path cannot
    /// be looked at all, where nothing can be made either.
    static func isTaken(_ path: String) -> Bool {
        do {
            _ = try FileSystemCalls.status(path, followingLinks: false)
            return true
        } catch {
            return false
        }
    }

    static func describe(errno code: Int32) -> String {
        describe(Errno(rawValue: code))
    }

    /// One line for a failed file operation: the usual causes in words that say what to do, anything else as the
    /// system says it.
    static func describe(_ error: any Error) -> String {
        guard let errno = error as? Errno else { return "\(error)" }
        return switch errno {
        case .noSuchFileOrDirectory: "no such file or folder"
        case .permissionDenied, .notPermitted: "permission denied; check the owner and mode of the file and its folder"
        case .tooManySymbolicLinkLevels: "too many levels of symbolic links (a symlink loop?)"
        case .isDirectory: "is a directory, not a document; move it away"
        case .noSpace: "the disk is full"
        case .diskQuotaExceeded: "the disk quota is used up"
        case .readOnlyFileSystem: "the file system is read-only"
        case .notDirectory: "a part of the path is a file, not a folder"
        case .fileNameTooLong: "the name is too long (at most 255 bytes a name, 4095 a path)"
        case .noSuchAddressOrDevice: "nothing reads it (a pipe or device with no reader)"
        case .brokenPipe: "its reader has gone (a closed pipe)"
        default: errno.description
        }
    }
}
