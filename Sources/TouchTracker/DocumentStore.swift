import Foundation

/// A document file that could not be read or written, with the reason in words.
public struct DocumentFileError: Error, CustomStringConvertible {
    public var path: String
    public var problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}

/// Reads and writes the drawing on disk. Writes are crash-safe: a temporary file in the same folder is written,
/// flushed to disk, renamed over the document, and the folder is flushed, so the file on disk is always either the
/// old document or the new one, never a mixture.
public struct DocumentStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Whether a document exists at the path (a dangling symlink or a directory counts: loading will say why).
    public var exists: Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// Reads the document. A missing file is an empty drawing; anything unreadable is an error naming the problem.
    public func load() throws(DocumentFileError) -> Drawing {
        guard exists else { return Drawing() }
        let bytes = try readBytes()
        do {
            return try DocumentCodec.decode(bytes)
        } catch {
            throw DocumentFileError(path: path, problem: error.description)
        }
    }

    /// Reads at most the size limit, refusing directories, special files and anything larger.
    private func readBytes() throws(DocumentFileError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { throw DocumentFileError(path: path, problem: Self.describe(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw DocumentFileError(path: path, problem: Self.describe(errno: errno)) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw DocumentFileError(path: path, problem: "is a directory, not a document; move it away")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw DocumentFileError(path: path, problem: "is not a regular file")
        }
        let limit = DocumentCodec.maximumFileSize
        if Int(info.st_size) > limit {
            throw DocumentFileError(
                path: path, problem: DocumentError.tooLarge(bytes: Int(info.st_size), limit: limit).description)
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                if count > limit {
                    throw DocumentFileError(
                        path: path, problem: DocumentError.tooLarge(bytes: count, limit: limit).description)
                }
                bytes.append(contentsOf: repeatElement(0, count: 65536))
            }
            let n = bytes.withUnsafeMutableBytes { buffer in
                read(fd, buffer.baseAddress! + count, buffer.count - count)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw DocumentFileError(path: path, problem: Self.describe(errno: errno))
            }
            if n == 0 { break }
            count += n
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes the drawing crash-safely. The folder is created (mode 0700) if missing; the file is mode 0600.
    public func save(_ drawing: Drawing) throws(DocumentFileError) {
        let data = DocumentCodec.encode(drawing)
        let folder =
            (path as NSString).deletingLastPathComponent.isEmpty
            ? "." : (path as NSString).deletingLastPathComponent
        try createFolder(folder)
        let name = (path as NSString).lastPathComponent
        let temporary = "\(folder)/.\(name).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if fd < 0 { throw DocumentFileError(path: temporary, problem: Self.describe(errno: errno)) }
        var written = 0
        while written < data.count {
            let n = data.withUnsafeBytes { buffer in write(fd, buffer.baseAddress! + written, buffer.count - written) }
            if n < 0 {
                if errno == EINTR { continue }
                let problem = Self.describe(errno: errno)
                close(fd)
                unlink(temporary)
                throw DocumentFileError(path: temporary, problem: problem)
            }
            written += n
        }
        if fsync(fd) != 0 {
            let problem = Self.describe(errno: errno)
            close(fd)
            unlink(temporary)
            throw DocumentFileError(path: temporary, problem: problem)
        }
        close(fd)
        if rename(temporary, path) != 0 {
            let problem = Self.describe(errno: errno)
            unlink(temporary)
            throw DocumentFileError(path: path, problem: problem)
        }
        // Flush the folder so the rename itself survives a power cut.
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Copies an unreadable document aside as `NAME.corrupt-YYYYMMDD-HHMMSS` so no work is lost, and returns the
    /// copy's path. `stamp` is the local time to put in the name.
    public func copyAside(stamp: String) throws(DocumentFileError) -> String {
        var destination = "\(path).corrupt-\(stamp)"
        var suffix = 1
        while access(destination, F_OK) == 0 {
            suffix += 1
            destination = "\(path).corrupt-\(stamp)-\(suffix)"
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            // A folder in the document's place is moved aside whole; nothing inside it is touched.
            guard rename(path, destination) == 0 else {
                throw DocumentFileError(path: path, problem: Self.describe(errno: errno))
            }
            return destination
        }
        do {
            try FileManager.default.copyItem(atPath: path, toPath: destination)
        } catch {
            throw DocumentFileError(path: path, problem: "could not be copied aside: \(error.localizedDescription)")
        }
        return destination
    }

    private func createFolder(_ folder: String) throws(DocumentFileError) {
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

    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: "no such file or folder"
        case EACCES, EPERM: "permission denied; check the file's owner and mode"
        case ELOOP: "too many levels of symbolic links (a symlink loop?)"
        case EISDIR: "is a directory, not a document; move it away"
        case ENOSPC: "the disk is full"
        case EROFS: "the file system is read-only"
        default: String(cString: strerror(code))
        }
    }
}
