import Glibc
import SystemPackage
import TouchTracker

/// The one way the app writes a file: documents, recovery files, window memory, exports and state snapshots all
/// come here.
///
/// Crash-safe replacement: the path's symlinks are followed to the final file (`FileTarget`), a temporary file is
/// written in that file's folder, flushed to disk and renamed over it, and the folder is flushed, so the file is
/// always either the old one or the new one, and a link to it stays a link. The temporary file is created in the
/// open folder with `O_CREAT | O_EXCL | O_NOFOLLOW`, so it can never be a planted file or follow a planted link;
/// its name stays within the 255 bytes a name may have, whatever the target's name. A file that replaces one
/// keeps its permission bits; a new one is mode 0600.
///
/// A special file (a named pipe, a terminal) or a descriptor's name (`/dev/stdout`) is written in place instead:
/// renaming over it would replace the pipe rather than feed its reader.
public enum AtomicFile {
    /// What to do when the target's folder does not exist.
    public enum MissingFolder: Sendable {
        /// Make it (and its parents), mode 0700: for the app's own files.
        case create
        /// Fail, naming it: for a file the person named (a typo should not make folders).
        case refuse
    }

    /// Writes `bytes` to `path`. `waitsForReader` false: a named pipe nobody reads yet is an error ("nothing
    /// reads it") rather than a wait for a reader (for an event loop, which must never wait).
    public static func write(
        _ bytes: [UInt8], to path: String, missingFolder: MissingFolder = .create, waitsForReader: Bool = true
    ) throws(DocumentFileError) {
        try write(to: path, missingFolder: missingFolder, waitsForReader: waitsForReader) {
            (file: borrowing Output) throws(DocumentFileError) in try file.write(bytes)
        }
    }

    /// Writes what `produce` hands to its `Output`, in order, to `path`, without holding it all in memory. If
    /// `produce` or a write fails, the temporary file is removed and `path` is left as it was.
    ///
    /// `beforeRename` is given the identity the new file will have at `path` (the rename keeps it) once it is
    /// written and flushed, just before it replaces the old one; throwing from it abandons the write, leaving `path`
    /// as it was. (Not called for a file written in place, which has no new identity.)
    public static func write(
        to path: String, missingFolder: MissingFolder = .create, waitsForReader: Bool = true,
        beforeRename: (FileIdentity) throws(DocumentFileError) -> Void = { _ in },
        _ produce: (borrowing Output) throws(DocumentFileError) -> Void
    ) throws(DocumentFileError) {
        let target = try FileTarget.resolve(path)
        switch target.kind {
        case .folder:
            throw DocumentFileError(path: path, problem: "is a folder, not a file; give a file's name")
        case .inPlace:
            try writeInPlace(path, waitsForReader: waitsForReader, produce)
        case .special:
            try writeSpecial(target.path, named: path, waitsForReader: waitsForReader, produce)
        case .missing, .regular:
            try replace(target, named: path, missingFolder: missingFolder, beforeRename: beforeRename, produce)
        }
    }

    /// Writes `bytes` into the empty regular file a caller made for them and holds open, as a thumbnailer's host does
    /// (GNOME's and Tumbler's make the output with `mkstemp` and read it back through their own descriptor: a rename
    /// over it would leave them reading the empty file). Opened without following its last name and checked, once
    /// open, to be that empty regular file; anything else at `path` is written as `write` writes it.
    public static func writeIntoPlaceholder(_ bytes: [UInt8], to path: String) throws(DocumentFileError) {
        if let target = try? FileTarget.resolve(path), case .regular = target.kind,
            let fd = try? openForWriting(target.path, flags: O_NOFOLLOW, waitsForReader: true)
        {
            defer { try? fd.close() }
            var info = stat()
            if fstat(fd.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size == 0 {
                try Output(fd: fd, path: path).write(bytes)
                return
            }
        }
        try write(bytes, to: path, missingFolder: .refuse)
    }

    /// The temporary file being written; lent to the producer for the length of `write(to:_:)`.
    public struct Output: ~Copyable {
        fileprivate let fd: FileDescriptor
        /// The path the person gave, for errors (not the hidden temporary name).
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

    /// Whether a write to `path` goes into what is there (a pipe, a device, a descriptor's name: `FileTarget`'s
    /// in-place kinds) rather than replacing a file, so that two outputs written there in turn replace nothing.
    public static func writesInPlace(_ path: String) -> Bool {
        switch (try? FileTarget.resolve(path))?.kind {
        case .inPlace?, .special?: true
        default: false
        }
    }

    /// The temporary file's name for a target named `name`: `.NAME.tmp-PID-RANDOM`, NAME cut so the whole is at
    /// most 255 bytes.
    static func temporaryName(for name: String) -> String {
        let suffix = ".tmp-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let room = Int(NAME_MAX) - 1 - suffix.utf8.count
        return "." + PathText.decode(PathText.bytes(name).prefix(room)) + suffix
    }

    /// Replaces the regular file (or creates the missing one) at `target` through a temporary file beside it.
    private static func replace(
        _ target: FileTarget, named path: String, missingFolder: MissingFolder,
        beforeRename: (FileIdentity) throws(DocumentFileError) -> Void,
        _ produce: (borrowing Output) throws(DocumentFileError) -> Void
    ) throws(DocumentFileError) {
        let folderPath = PathText.folder(of: target.path)
        let name = PathText.name(of: target.path)
        let folder = try openFolder(folderPath, for: path, missingFolder: missingFolder)
        defer { try? folder.close() }
        // Noted as it is made, until it is renamed or removed, so an interrupted command can remove it.
        let (fd, temporary, noted) = try createTemporary(in: folder, at: folderPath, for: name, path: path)
        defer { TemporaryFiles.forget(noted) }
        // Every way out below closes the descriptor once, and removes the temporary file unless it was renamed.
        func abandon(_ problem: DocumentFileError) -> DocumentFileError {
            try? fd.close()
            _ = try? FileSystemCalls.unlinkAt(folder, temporary)
            return problem
        }
        do {
            try produce(Output(fd: fd, path: path))
        } catch {
            throw abandon(error)
        }
        let identity: FileIdentity
        do {
            if case .regular(let permissions) = target.kind, permissions != 0o600 {
                try FileSystemCalls.setPermissions(fd, permissions)
            }
            try FileSystemCalls.sync(fd)
            identity = FileIdentity(try FileSystemCalls.status(fd))
        } catch {
            throw abandon(DocumentFileError(path: path, problem: DocumentStore.describe(error)))
        }
        do {
            try beforeRename(identity)
        } catch {
            throw abandon(error)
        }
        do {
            try fd.close()
        } catch {
            _ = try? FileSystemCalls.unlinkAt(folder, temporary)
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        do {
            try FileSystemCalls.renameAt(folder, temporary, to: name)
        } catch {
            _ = try? FileSystemCalls.unlinkAt(folder, temporary)
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        // Flush the folder so the rename itself survives a power cut.
        try? FileSystemCalls.sync(folder)
    }

    /// Creates a new temporary file in `folder` that nobody else made: a name that exists (a leftover, a planted
    /// file or link) is never opened; another random name is tried.
    /// It is made and noted in `TemporaryFiles` at once (`noting`), so an interrupted command either removes it or
    /// stops it being made.
    private static func createTemporary(
        in folder: FileDescriptor, at folderPath: String, for name: String, path: String
    ) throws(DocumentFileError) -> (FileDescriptor, String, Int) {
        for _ in 0..<100 {
            let temporary = temporaryName(for: name)
            do {
                let made = try TemporaryFiles.noting(PathText.join(folderPath, temporary)) { () throws(Errno) in
                    try FileSystemCalls.openAt(
                        folder, temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
                }
                guard let (fd, noted) = made else {
                    throw DocumentFileError(path: path, problem: "the command is being interrupted")
                }
                return (fd, temporary, noted)
            } catch .fileExists {
                continue
            } catch {
                throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
            }
        }
        throw DocumentFileError(path: path, problem: "no free temporary name beside it; try again")
    }

    /// Writes a descriptor's name (through `/proc`) in place: opened for writing as the kernel follows it, never
    /// created.
    private static func writeInPlace(
        _ path: String, waitsForReader: Bool, _ produce: (borrowing Output) throws(DocumentFileError) -> Void
    ) throws(DocumentFileError) {
        let fd: FileDescriptor
        do {
            fd = try openForWriting(path, flags: O_TRUNC, waitsForReader: waitsForReader)
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        defer { try? fd.close() }
        try produce(Output(fd: fd, path: path))
    }

    /// Writes into the special file at `target` (`path` as given, for errors): opened without following its last
    /// name and without truncating, then checked to be special still. Between the look that found a named pipe or
    /// a device there and this open, anyone who may write in its folder could have put a link or a regular file in
    /// its place: a link is refused by the open, and a regular file is left untouched.
    static func writeSpecial(
        _ target: String, named path: String, waitsForReader: Bool,
        _ produce: (borrowing Output) throws(DocumentFileError) -> Void
    ) throws(DocumentFileError) {
        let fd: FileDescriptor
        do {
            fd = try openForWriting(target, flags: O_NOFOLLOW, waitsForReader: waitsForReader)
        } catch .tooManySymbolicLinkLevels {
            throw DocumentFileError(path: path, problem: changedWhileOpening)
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        defer { try? fd.close() }
        var info = stat()
        guard fstat(fd.rawValue, &info) == 0 else {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(errno: errno))
        }
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG, type != S_IFDIR else {
            throw DocumentFileError(path: path, problem: changedWhileOpening)
        }
        try produce(Output(fd: fd, path: path))
    }

    /// Opens `path` to write into it in place, with `flags` added; without `waitsForReader`, a pipe with no reader
    /// fails the open rather than blocking it.
    private static func openForWriting(_ path: String, flags: Int32, waitsForReader: Bool) throws(Errno)
        -> FileDescriptor
    {
        let fd = try FileSystemCalls.open(
            path, flags: O_WRONLY | O_NOCTTY | flags | (waitsForReader ? 0 : O_NONBLOCK))
        // Only the open was not to wait: the writes that follow go at the reader's pace.
        if !waitsForReader { _ = fcntl(fd.rawValue, F_SETFL, 0) }
        return fd
    }

    /// Why a special file is not written when something else took its place while it was being opened.
    static let changedWhileOpening = "was replaced by something else while it was being opened; try again"

    /// Opens the folder a file is written in, making it first (mode 0700) when missing and `missingFolder` says
    /// so. `path` is the file's path as given, for errors.
    private static func openFolder(_ folder: String, for path: String, missingFolder: MissingFolder)
        throws(DocumentFileError) -> FileDescriptor
    {
        do {
            return try FileSystemCalls.open(folder, flags: O_RDONLY | O_DIRECTORY)
        } catch .noSuchFileOrDirectory where missingFolder == .create {
            try makeFolders(folder)
        } catch .noSuchFileOrDirectory {
            throw DocumentFileError(
                path: path, problem: "the folder \(PathText.shown(folder)) does not exist; create it first")
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        do {
            return try FileSystemCalls.open(folder, flags: O_RDONLY | O_DIRECTORY)
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
    }

    /// Makes `folder` and any missing parents, each mode 0700 (`mkdir -p`). A folder made meanwhile by someone
    /// else is fine.
    public static func makeFolders(_ folder: String) throws(DocumentFileError) {
        var missing: [String] = []
        var current = folder
        while true {
            do {
                let info = try FileSystemCalls.status(current)
                guard info.st_mode & S_IFMT == S_IFDIR else {
                    throw DocumentFileError(
                        path: folder, problem: "cannot be created: \(PathText.shown(current)) is a file, not a folder")
                }
                break
            } catch let error as DocumentFileError {
                throw error
            } catch Errno.noSuchFileOrDirectory {
                missing.append(current)
                let parent = PathText.folder(of: current)
                if parent == current { break }
                current = parent
            } catch {
                throw DocumentFileError(path: folder, problem: "cannot be created: \(DocumentStore.describe(error))")
            }
        }
        for path in missing.reversed() {
            do {
                try FileSystemCalls.makeFolder(path, mode: 0o700)
            } catch .fileExists {
                continue
            } catch {
                throw DocumentFileError(path: folder, problem: "cannot be created: \(DocumentStore.describe(error))")
            }
        }
    }

    /// Flushes the folder holding `path`, so a file created or renamed in it survives a power cut.
    public static func syncFolder(of path: String) {
        guard let folder = try? FileSystemCalls.open(PathText.folder(of: path), flags: O_RDONLY | O_DIRECTORY) else {
            return
        }
        try? FileSystemCalls.sync(folder)
        try? folder.close()
    }
}
