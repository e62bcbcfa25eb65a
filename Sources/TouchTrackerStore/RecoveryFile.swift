import Foundation
import TouchTracker

/// Where a drawing goes when the app must exit while it could not be saved to its document (a full disk, a folder
/// made read-only): a file of its own in `$XDG_STATE_HOME/touchtracker/` (`~/.local/state/touchtracker/`), or in
/// the system's temporary folder when that cannot be written either. The next start on the same document finds it
/// and says where it is.
///
/// One file per exit, never overwritten: `NAME-KEY-STAMP.json`, where NAME is the document's file name without its
/// extension, KEY stands for the document's canonical path (`DocumentLock.canonicalPath`, so two `drawing.json` in
/// different folders do not meet), and STAMP is the local time. It is an ordinary document: `touchtracker --document FILE` opens it.
public struct RecoveryFile: Sendable {
    /// The document the recovery files belong to.
    public let documentPath: String
    /// The folders tried, in order: the state folder, then the temporary one.
    public let folders: [String]

    public init(documentPath: String, environment: [String: String]) {
        self.documentPath = documentPath
        var folders: [String] = []
        if let stateHome = environment["XDG_STATE_HOME"], stateHome.hasPrefix("/") {
            folders.append(stateHome + "/touchtracker")
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(home + "/.local/state/touchtracker")
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        folders.append(temporary + "/touchtracker-\(getuid())")
        self.folders = folders
    }

    /// The start of every recovery file's name for this document.
    var prefix: String {
        let name = (documentPath as NSString).lastPathComponent
        let stem = (name as NSString).deletingPathExtension
        return "\(stem.isEmpty ? name : stem)-\(Self.key(of: DocumentLock.canonicalPath(of: documentPath)))-"
    }

    /// Writes `drawing` to a new recovery file (crash-safe, mode 0600 in a 0700 folder, as documents are) and
    /// returns its path; tries the next folder when one fails. Throws the last folder's error when none works.
    public func write(_ drawing: Drawing, stamp: String) throws(DocumentFileError) -> String {
        var lastError = DocumentFileError(path: documentPath, problem: "no folder to keep a recovery file in")
        for folder in folders {
            let path = "\(folder)/\(prefix)\(stamp).json"
            do {
                try DocumentStore(path: path).save(drawing)
                return path
            } catch {
                lastError = error
            }
        }
        throw lastError
    }

    /// The newest recovery file of this document, or nil when there is none.
    public func newest() -> String? {
        var found: [(path: String, modified: Date)] = []
        for folder in folders {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where name.hasPrefix(prefix) && name.hasSuffix(".json") {
                let path = folder + "/" + name
                let modified =
                    (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? nil
                found.append((path, modified ?? .distantPast))
            }
        }
        return found.max { ($0.modified, $0.path) < ($1.modified, $1.path) }?.path
    }

    /// Eight hex digits of the 64-bit FNV-1a hash of `text`: short, stable across runs and machines.
    static func key(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return String(String(hash, radix: 16).suffix(8)).leftPadded(to: 8)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
