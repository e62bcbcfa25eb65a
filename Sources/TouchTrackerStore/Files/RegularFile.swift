import Glibc
import SystemPackage
import TouchTracker

/// Reading a file the app only reads (a document, a replay script, the window memory): opened without blocking
/// on a named pipe put in its place, refusing folders and special files, and read whole up to a limit, with the
/// version of the file that was read (as it was when opened). Paths are `PathText` bytes.
public enum RegularFile {
    /// What a folder in a document's place is called.
    public static let documentIsADirectory = "is a directory, not a document; move it away"

    /// Opens the document to read it (not blocking on a FIFO put in its place) and returns it with its size,
    /// refusing directories and special files.
    static func open(_ path: String, directoryProblem: String = documentIsADirectory) throws(DocumentFileError)
        -> (fd: FileDescriptor, version: FileIdentity)
    {
        let fd: FileDescriptor
        let status: Stat
        do {
            fd = try FileDescriptor.open(PathText.filePath(path), .readOnly, options: [.closeOnExec, .nonBlocking])
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        do {
            status = try fd.stat()
        } catch {
            try? fd.close()
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        guard status.type == .regular else {
            try? fd.close()
            throw DocumentFileError(
                path: path,
                problem: status.type == .directory ? directoryProblem : "is not a regular file")
        }
        return (fd, FileIdentity(status.rawValue))
    }

    /// Reads at most `limit` bytes, refusing directories, special files and anything larger, and says which
    /// version of the file it read (as it was when opened).
    public static func read(
        _ path: String, limit: Int, directoryProblem: String = documentIsADirectory
    ) throws(DocumentFileError) -> (bytes: [UInt8], version: FileIdentity) {
        let (fd, version) = try open(path, directoryProblem: directoryProblem)
        defer { try? fd.close() }
        let size = Int(version.size)
        if size > limit {
            throw DocumentFileError(path: path, problem: DocumentError.tooLarge(bytes: size, limit: limit).description)
        }
        // The size stat gave plus one byte, so the end of the file shows without growing, read into uninitialized
        // memory: zero-filling megabytes first would cost about as much as reading them. A file that grew since is
        // read on below.
        var count = 0
        var failure: (any Error)?
        var reachedEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            do {
                while count < buffer.count {
                    let n = try fd.read(
                        into: UnsafeMutableRawBufferPointer(
                            start: buffer.baseAddress! + count, count: buffer.count - count))
                    if n == 0 {
                        reachedEnd = true
                        break
                    }
                    count += n
                }
            } catch {
                failure = error
            }
            initialized = count
        }
        if let failure { throw DocumentFileError(path: path, problem: DocumentStore.describe(failure)) }
        while !reachedEnd {
            if count == bytes.count {
                if count > limit {
                    throw DocumentFileError(
                        path: path, problem: DocumentError.tooLarge(bytes: count, limit: limit).description)
                }
                bytes.append(contentsOf: repeatElement(0, count: 65536))
            }
            do {
                let n = try bytes.withUnsafeMutableBytes { buffer in
                    try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                }
                if n == 0 { break }
                count += n
            } catch {
                throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
            }
        }
        bytes.removeSubrange(count...)
        return (bytes, version)
    }

}
