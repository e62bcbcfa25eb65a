import Foundation
import Glibc
import SystemPackage

/// One window per document: an advisory lock (`flock`) on a file beside the document, `drawing.json.lock`, held
/// for as long as a window has the document open. The file says who holds it (`pid N`, and `window 0xHEX` once
/// the window exists), so a second `touchtracker` on the same document can bring that window forward instead of
/// opening a second editor that would save over the first.
///
/// The kernel releases a `flock` when its process dies, however it dies, so a lock file left by a process that no
/// longer exists is simply taken. The document is named by its canonical path, so the same file under any
/// spelling (a relative path, a symlink, `..`) has the same lock. Export and replay only read, and take no lock.
///
/// Owns the lock file's descriptor; `release` (or deinit) removes the file and then closes it, which unlocks.
public final class DocumentLock {
    /// Who holds a lock: the process and, once it has one, its X window.
    public struct Owner: Sendable, Equatable {
        public var pid: Int32
        public var window: UInt?

        public init(pid: Int32, window: UInt?) {
            self.pid = pid
            self.window = window
        }
    }

    public enum Outcome {
        case acquired(DocumentLock)
        case heldBy(Owner)
    }

    /// The lock file's path.
    public let path: String
    /// -1 once released.
    private var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        release()
    }

    /// The document's path, absolute, with symlinks (of the file itself and of every folder on the way), `.` and
    /// `..` resolved. A document that does not exist yet is named through its longest existing folder.
    public static func canonicalPath(of documentPath: String) -> String {
        let absolute =
            documentPath.hasPrefix("/") ? documentPath : FileManager.default.currentDirectoryPath + "/" + documentPath
        var existing = URL(fileURLWithPath: absolute).standardizedFileURL.path
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing, nil) {
                defer { free(resolved) }
                let base = String(cString: resolved)
                guard !missing.isEmpty else { return base }
                let joined = (base == "/" ? "" : base) + "/" + missing.reversed().joined(separator: "/")
                return URL(fileURLWithPath: joined).standardizedFileURL.path
            }
            guard existing != "/", !existing.isEmpty else { return absolute }
            missing.append((existing as NSString).lastPathComponent)
            existing = (existing as NSString).deletingLastPathComponent
        }
    }

    /// The lock file of a document: its canonical path with `.lock` added.
    public static func lockPath(for documentPath: String) -> String {
        canonicalPath(of: documentPath) + ".lock"
    }

    /// Takes the lock on `documentPath`, or says who holds it. The folder is created (0700) if missing; the lock
    /// file is 0600.
    public static func acquire(for documentPath: String) throws(DocumentFileError) -> Outcome {
        let path = lockPath(for: documentPath)
        try createFolder(of: path)
        // A holder may release (and remove) the file between our open and our flock: then the descriptor locks a
        // file nobody else will ever look at, and we start again on the new one.
        for _ in 0..<100 {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw failure(path, errno) }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                guard isStillAtPath(descriptor, path) else {
                    close(descriptor)
                    continue
                }
                let lock = DocumentLock(path: path, descriptor: descriptor)
                lock.writeOwner(window: nil)
                return .acquired(lock)
            }
            let problem = errno
            guard problem == EWOULDBLOCK else {
                close(descriptor)
                throw failure(path, problem)
            }
            let owner = readOwner(descriptor)
            close(descriptor)
            return .heldBy(owner)
        }
        throw DocumentFileError(path: path, problem: "kept being replaced while it was taken; try again")
    }

    /// Records the X window in the lock file, for a second instance to bring forward.
    public func setWindow(_ window: UInt) {
        writeOwner(window: window)
    }

    /// Removes the lock file and unlocks it. Idempotent.
    public func release() {
        guard descriptor >= 0 else { return }
        // Removed while still locked, so nobody can take the lock on a file that is about to go.
        unlink(path)
        close(descriptor)
        descriptor = -1
    }

    private func writeOwner(window: UInt?) {
        guard descriptor >= 0 else { return }
        var text = "pid \(getpid())\n"
        if let window { text += "window 0x\(String(window, radix: 16))\n" }
        let bytes = Array(text.utf8)
        // Shortened first: the new text is never longer than a stale one's tail would make it look.
        _ = ftruncate(descriptor, 0)
        _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The holder as its lock file says. A holder that has just taken the lock may not have written yet: read
    /// again for up to a second until the pid is there.
    private static func readOwner(_ descriptor: Int32) -> Owner {
        var owner = Owner(pid: 0, window: nil)
        for _ in 0..<20 {
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count == 2 else { continue }
                if fields[0] == "pid", let pid = Int32(fields[1]) { owner.pid = pid }
                if fields[0] == "window", fields[1].hasPrefix("0x"),
                    let window = UInt(fields[1].dropFirst(2), radix: 16)
                {
                    owner.window = window
                }
            }
            if owner.pid != 0 { return owner }
            usleep(50_000)
        }
        return owner
    }

    /// Whether the open file is still the one at `path` (not removed or replaced since it was opened).
    private static func isStillAtPath(_ descriptor: Int32, _ path: String) -> Bool {
        guard let open = FileIdentity.of(descriptor: descriptor), let current = FileIdentity.of(path: path) else {
            return false
        }
        return open.device == current.device && open.inode == current.inode
    }

    private static func createFolder(of path: String) throws(DocumentFileError) {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DocumentFileError(path: folder, problem: "could not be created: \(error.localizedDescription)")
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> DocumentFileError {
        DocumentFileError(path: path, problem: DocumentStore.describe(Errno(rawValue: code)))
    }
}
