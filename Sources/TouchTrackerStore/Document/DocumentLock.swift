import Glibc
import Synchronization
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
/// Owns the lock file's descriptor; `release` (or deinit) removes the file and then closes it, which unlocks. May be
/// used from any thread (the window's, and the watcher's when the document's folder comes back).
public final class DocumentLock: Sendable {
    /// The holder's window, as a second instance can reach it.
    public enum Window: Sendable, Equatable {
        /// An X window, by its id: asked to come forward with `_NET_ACTIVE_WINDOW`.
        case x11(UInt)
        /// A Wayland window, which has no id other clients can name: its process takes an activation token
        /// through its own channel and hands it to the compositor.
        case wayland
    }

    /// Who holds a lock: the process and, once it has one, its window.
    public struct Owner: Sendable, Equatable {
        public var pid: Int32
        public var window: Window?

        public init(pid: Int32, window: Window?) {
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
    /// The lock file's name in its folder.
    private let name: String
    /// The lock file and its folder, both open (the folder so the file is removed from wherever the folder went:
    /// a folder renamed away is left without a stale lock); nil once released.
    private let files: Mutex<(file: Int32, folder: Int32)?>

    private init(path: String, descriptor: Int32, folder: Int32) {
        self.path = path
        self.name = PathText.name(of: path)
        self.files = Mutex((descriptor, folder))
    }

    deinit {
        release()
    }

    /// The document's path, absolute, with symlinks (of the file itself and of every folder on the way), `.` and
    /// `..` resolved. A document that does not exist yet is named through its longest existing folder, and a
    /// dangling symlink by the target it points to (which a save creates). Bytes in, bytes out (`PathText`).
    public static func canonicalPath(of documentPath: String) -> String {
        var absolute =
            (try? FileTarget.resolve(documentPath)).map { $0.kind == .inPlace ? documentPath : $0.path }
            ?? documentPath
        if !absolute.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else { return documentPath }
            defer { free(cwd) }
            absolute = PathText.join(PathText.decode(bytesOf: cwd), absolute)
        }
        var existing = normalized(absolute)
        var missing: [String] = []
        while true {
            if let resolved = PathText.withCString(existing, { realpath($0, nil) }) {
                defer { free(resolved) }
                let base = PathText.decode(bytesOf: resolved)
                guard !missing.isEmpty else { return base }
                return normalized(PathText.join(base, missing.reversed().joined(separator: "/")))
            }
            guard existing != "/" else { return absolute }
            missing.append(PathText.name(of: existing))
            existing = PathText.folder(of: existing)
        }
    }

    /// An absolute path with `.` dropped and `..` taken back by name.
    private static func normalized(_ path: String) -> String {
        var names: [Substring] = []
        for name in path.split(separator: "/") {
            if name == "." { continue }
            if name == ".." {
                _ = names.popLast()
            } else {
                names.append(name)
            }
        }
        return "/" + names.joined(separator: "/")
    }

    /// The lock file of a document: its canonical path with `.lock` added (the name cut to fit, `PathText.sibling`).
    public static func lockPath(for documentPath: String) -> String {
        PathText.sibling(of: canonicalPath(of: documentPath), adding: ".lock")
    }

    /// Takes the lock on `documentPath`, or says who holds it. The folder is created (0700) if missing; the lock
    /// file is 0600. The lock file is opened in its folder without following a link (`O_NOFOLLOW`) and used only
    /// when it is a regular file of this user's with no other name: a link or a file planted in its place is
    /// never written (an error names it).
    public static func acquire(for documentPath: String) throws(DocumentFileError) -> Outcome {
        let path = lockPath(for: documentPath)
        let folderPath = PathText.folder(of: path)
        let name = PathText.name(of: path)
        try AtomicFile.makeFolders(folderPath)
        let folder: FileDescriptor
        do {
            folder = try FileSystemCalls.open(folderPath, flags: O_RDONLY | O_DIRECTORY)
        } catch {
            throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
        }
        defer { try? folder.close() }
        // A holder may release (and remove) the file between our open and our flock: then the descriptor locks a
        // file nobody else will ever look at, and we start again on the new one.
        for _ in 0..<100 {
            let descriptor: Int32
            do {
                descriptor = try FileSystemCalls.openAt(
                    folder, name, flags: O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o600
                ).rawValue
            } catch .tooManySymbolicLinkLevels {
                throw DocumentFileError(path: path, problem: "is a symbolic link, not a lock file; remove it")
            } catch {
                throw DocumentFileError(path: path, problem: DocumentStore.describe(error))
            }
            if let problem = notALockFile(descriptor) {
                close(descriptor)
                throw DocumentFileError(path: path, problem: problem)
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                guard isStill(descriptor, named: name, in: folder.rawValue) else {
                    close(descriptor)
                    continue
                }
                let keptFolder = fcntl(folder.rawValue, F_DUPFD_CLOEXEC, 0)
                let lock = DocumentLock(path: path, descriptor: descriptor, folder: keptFolder)
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

    /// Why the open file is not one this app's lock can be (nil when it can): not a regular file, another user's,
    /// or a hard link to a file with another name.
    private static func notALockFile(_ descriptor: Int32) -> String? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return DocumentStore.describe(errno: errno) }
        if info.st_mode & S_IFMT != S_IFREG { return "is not a regular file, so not a lock file; remove it" }
        if info.st_uid != geteuid() { return "belongs to another user (uid \(info.st_uid)); remove it" }
        if info.st_nlink > 1 { return "has other names (a hard link), so not a lock file; remove it" }
        return nil
    }

    /// Records the window in the lock file, for a second instance to bring forward.
    public func setWindow(_ window: Window) {
        writeOwner(window: window)
    }

    /// Removes the lock file and unlocks it. Idempotent.
    public func release() {
        files.withLock { files in
            guard let (descriptor, folder) = files else { return }
            // Removed while still locked, so nobody can take the lock on a file that is about to go; only while it
            // is still this lock's file (a folder removed and made again may hold another window's lock by now).
            if folder >= 0, Self.isStill(descriptor, named: name, in: folder) {
                _ = PathText.withCString(name) { unlinkat(folder, $0, 0) }
            }
            close(descriptor)
            if folder >= 0 { close(folder) }
            files = nil
        }
    }

    private func writeOwner(window: Window?) {
        files.withLock { files in
            guard let descriptor = files?.file else { return }
            var text = "pid \(getpid())\n"
            switch window {
            case .x11(let id): text += "window 0x\(String(id, radix: 16))\n"
            case .wayland: text += "window wayland\n"
            case nil: break
            }
            let bytes = Array(text.utf8)
            // Shortened first: the new text is never longer than a stale one's tail would make it look.
            _ = ftruncate(descriptor, 0)
            _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
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
                    owner.window = .x11(window)
                }
                if fields[0] == "window", fields[1] == "wayland" { owner.window = .wayland }
            }
            if owner.pid != 0 { return owner }
            usleep(50_000)
        }
        return owner
    }

    /// Whether the open file is still the one named `name` in the open folder `folder` (not removed or replaced
    /// since it was opened).
    private static func isStill(_ descriptor: Int32, named name: String, in folder: Int32) -> Bool {
        var open = stat()
        var current = stat()
        guard fstat(descriptor, &open) == 0,
            PathText.withCString(name, { fstatat(folder, $0, &current, AT_SYMLINK_NOFOLLOW) }) == 0
        else { return false }
        return open.st_dev == current.st_dev && open.st_ino == current.st_ino
    }

    private static func failure(_ path: String, _ code: Int32) -> DocumentFileError {
        DocumentFileError(path: path, problem: DocumentStore.describe(Errno(rawValue: code)))
    }
}
