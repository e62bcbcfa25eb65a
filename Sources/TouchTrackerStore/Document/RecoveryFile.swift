import Glibc
import SystemPackage
import TouchTracker

/// Where a drawing goes when the app must exit while it could not be saved to its document (a full disk, a folder
/// made read-only): a file of its own in `$XDG_STATE_HOME/touchtracker/` (`~/.local/state/touchtracker/`), or in
/// the system's temporary folder when that cannot be written either. The next start on the same document finds it
/// and says where it is.
///
/// One file per exit, never overwritten: `NAME-KEY-STAMP.json`, where NAME is the document's file name without its
/// extension (cut to fit a name's 255 bytes), KEY stands for the document's canonical path
/// (`DocumentLock.canonicalPath`, so two `drawing.json` in different folders do not meet), and STAMP is the local
/// time. It is an ordinary document: `touchtracker --document FILE` opens it.
///
/// The temporary folder is shared with every user, so `$TMPDIR/touchtracker-UID` is used only while it is a real
/// folder (not a link) of this user's that nobody else may enter (mode 0700), as XDG asks of a runtime folder:
/// another user could make it first and plant a "recovery file" in it. Otherwise a fresh private folder is made
/// for the file (`mkdtemp`), and `write` says so.
public struct RecoveryFile: Sendable {
    /// The document the recovery files belong to.
    public let documentPath: String
    /// The folder in the user's state folder, when there is one.
    public let stateFolder: String?
    /// The system's temporary folder (`$TMPDIR`, or `/tmp`).
    public let temporaryFolder: String

    public init(documentPath: String, environment: [String: String]) {
        self.documentPath = documentPath
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            stateFolder = stateHome + "/touchtracker"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            stateFolder = home + "/.local/state/touchtracker"
        } else {
            stateFolder = nil
        }
        temporaryFolder = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
    }

    /// The shared temporary folder's place for this user's recovery files.
    public var sharedFolder: String { temporaryFolder + "/touchtracker-\(getuid())" }

    /// The folders searched for recovery files, in order: the state folder, then the shared one while it is safe,
    /// then the private ones `write` made in its place (`touchtracker-UID-XXXXXX`, each a real folder of this
    /// user's that nobody else may enter).
    public var folders: [String] {
        let stem = PathText.name(of: sharedFolder) + "-"
        let madeInstead = Self.names(in: temporaryFolder, startingWith: stem).filter { name in
            name.utf8.count == stem.utf8.count + 6
        }.sorted().map { temporaryFolder + "/" + $0 }
        return ([stateFolder, sharedFolder].compactMap { $0 } + madeInstead).filter { folder in
            folder == stateFolder || Self.isPrivateFolder(folder)
        }
    }

    /// The start of every recovery file's name for this document.
    var prefix: String {
        let stem = PathText.stem(of: PathText.name(of: documentPath))
        let key = PathText.hashKey(of: PathText.bytes(DocumentLock.canonicalPath(of: documentPath)))
        // What follows the stem: "-KEY-YYYYMMDD-HHMMSS-N.json" at the longest.
        return PathText.fitted(stem, before: "-\(key)-00000000-000000-000.json") + "-\(key)-"
    }

    /// Writes `drawing` to a new recovery file (crash-safe, mode 0600 in a 0700 folder, as documents are) and
    /// returns its path; tries the next folder when one fails. Throws the last folder's error when none works.
    /// `log` is told when the shared temporary folder could not be used as it is.
    public func write(_ drawing: Drawing, stamp: String, log: (String) -> Void = { _ in }) throws(DocumentFileError)
        -> String
    {
        var lastError = DocumentFileError(path: documentPath, problem: "no folder to keep a recovery file in")
        if let stateFolder {
            do {
                return try write(drawing, in: stateFolder, stamp: stamp)
            } catch {
                lastError = error
            }
        }
        var folder = sharedFolder
        if !Self.makePrivateFolder(sharedFolder) {
            var template = PathText.bytes(sharedFolder + "-XXXXXX").map { CChar(bitPattern: $0) } + [0]
            guard mkdtemp(&template) != nil else {
                throw DocumentFileError(path: sharedFolder, problem: DocumentStore.describe(errno: errno))
            }
            folder = PathText.decode(bytesOf: template)
            log(
                "\(PathText.shown(sharedFolder)) is not a private folder of this user's (mode 0700), so it is not "
                    + "used; made \(PathText.shown(folder)) instead")
        }
        do {
            return try write(drawing, in: folder, stamp: stamp)
        } catch {
            lastError = error
        }
        throw lastError
    }

    /// A new recovery file in `folder`: `-2`, `-3`… is added to the stamp when one of that name exists.
    private func write(_ drawing: Drawing, in folder: String, stamp: String) throws(DocumentFileError) -> String {
        var path = "\(folder)/\(prefix)\(stamp).json"
        var suffix = 1
        while (try? FileSystemCalls.status(path, followingLinks: false)) != nil, suffix < 1000 {
            suffix += 1
            path = "\(folder)/\(prefix)\(stamp)-\(suffix).json"
        }
        try DocumentStore(path: path).save(drawing)
        return path
    }

    /// The newest recovery file of this document, or nil when there is none.
    public func newest() -> String? {
        var found: [(path: String, modified: Int64)] = []
        for folder in folders {
            for name in Self.names(in: folder, startingWith: prefix) where isRecoveryName(name) {
                let path = folder + "/" + name
                guard let info = try? FileSystemCalls.status(path, followingLinks: false),
                    info.st_mode & S_IFMT == S_IFREG
                else { continue }
                found.append((path, Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)))
            }
        }
        return found.max { ($0.modified, $0.path) < ($1.modified, $1.path) }?.path
    }

    /// Whether `name` is one `write` gives: the prefix, a stamp `YYYYMMDD-HHMMSS`, maybe `-N`, then `.json`. Not
    /// the window's memory (`….window.json`) beside a recovery file someone opened, nor anything else that starts
    /// the same way: the next start would point at it as the unsaved copy.
    func isRecoveryName(_ name: String) -> Bool {
        guard name.hasPrefix(prefix), name.hasSuffix(".json") else { return false }
        let rest = Array(name.utf8.dropFirst(prefix.utf8.count).dropLast(".json".utf8.count))
        func digits(_ part: ArraySlice<UInt8>) -> Bool {
            !part.isEmpty && part.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        let parts = rest.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts[0].count == 8, parts[1].count == 6 else { return false }
        return parts.allSatisfy(digits)
    }

    /// Whether `folder` is a real folder (not a link), owned by this user, that only this user may enter.
    static func isPrivateFolder(_ folder: String) -> Bool {
        guard let info = try? FileSystemCalls.status(folder, followingLinks: false) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR && info.st_uid == geteuid() && info.st_mode & 0o077 == 0
    }

    /// Makes `folder` private to this user if it is missing; whether it is private now.
    private static func makePrivateFolder(_ folder: String) -> Bool {
        _ = try? FileSystemCalls.makeFolder(folder, mode: 0o700)
        return isPrivateFolder(folder)
    }

    /// The names in `folder` (none when it cannot be read).
    /// Only names that start with `start` are decoded: the temporary folder may hold thousands of others, and the
    /// search runs while the window waits for its document.
    static func names(in folder: String, startingWith start: String = "") -> [String] {
        guard let directory = PathText.withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(directory) }
        let startBytes = PathText.bytes(start)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = DirectoryEntry.withName(of: entry) { bytes -> String? in
                guard bytes.starts(with: startBytes) else { return nil }
                return PathText.decode(bytes)
            }
            if let name, name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
