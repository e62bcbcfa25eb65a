import BackgroundWork
import CGio
import Glibc

/// The desktop's recent files: `$XDG_DATA_HOME/recently-used.xbel` (`~/.local/share`), the XBEL file GTK's
/// `GtkRecentManager`, GNOME's Files and the file dialogs' "Recent" read. A drawing opened in a window, or saved
/// under a name, is recorded there with its type and this app (`touchtracker %f`), as GTK programs record theirs.
///
/// Written beside other programs' entries: the file is read, parsed by GLib (`BookmarkFile`), the entry added, and
/// the whole written back the one way the app writes files (`AtomicFile`: a temporary file renamed over it, links
/// followed, permissions kept), so a reader never sees half a file. A file GLib cannot parse is left alone (the
/// error says so) rather than replaced by one holding only this entry. Other programs do the same read, change and
/// replace without a lock (GTK takes none), so one entry may be lost when another program writes at the same instant;
/// nothing else is. This app's own windows take turns (`record`). Every call touches the disk: never on the event loop (`recordInBackground`).
public struct RecentFiles: Sendable {
    /// The application name entries carry, as GTK's recent manager shows it.
    public static let application = "touchtracker"
    /// How the desktop starts the app on an entry (`%f`: the file's path, as `g_bookmark_file_get_application_info`
    /// expands it).
    public static let exec = "touchtracker %f"
    /// Larger than any recent-files list a desktop keeps; a larger file is not read (nor replaced).
    static let sizeLimit = 64 << 20

    /// The bookmark file.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The bookmark file for `environment`: `$XDG_DATA_HOME/recently-used.xbel` when it is an absolute path, else
    /// `$HOME/.local/share/recently-used.xbel`, as GLib's `g_get_user_data_dir` finds it.
    public init(environment: [String: String], home: String) {
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        path = PathText.join(
            dataHome ?? PathText.join(environment["HOME"] ?? home, ".local/share"), "recently-used.xbel")
    }

    /// The MIME type a drawing at `path` is recorded with: `.json` drawings are `application/json` (as
    /// shared-mime-info names them, which the file dialog filters by); every other is the drawing type,
    /// `application/x-touchtracker+json`.
    public static func mimeType(of path: String) -> String {
        PathText.name(of: path).lowercased().hasSuffix(".json") ? "application/json" : "application/x-touchtracker+json"
    }

    /// The `file://` URI of the absolute `path` (bytes, not text: every byte that is not a plain URI character
    /// is percent-encoded, by `g_filename_to_uri`).
    public static func uri(of path: String) throws(RecentFilesError) -> String {
        var error: UnsafeMutablePointer<GError>?
        guard let uri = PathText.withCString(path, { g_filename_to_uri($0, nil, &error) }) else {
            throw RecentFilesError(path: path, problem: "cannot be named as a URI (\(BookmarkFile.take(error)))")
        }
        defer { g_free(uri) }
        return String(cString: uri)
    }

    /// Records the drawing at `documentPath` (made absolute, links resolved, as its lock names it). Blocks on the
    /// disk: call it on a worker.
    public func record(_ documentPath: String) throws(RecentFilesError) {
        let absolute = DocumentLock.canonicalPath(of: documentPath)
        let uri = try Self.uri(of: absolute)
        // Windows of this app starting together (a drop of several drawings) take turns: each reads what the one
        // before wrote. The turn is a `flock` on the bookmark file's folder (no file of its own is left there);
        // other programs do not take it, so for them the read, change and replace stays unguarded, as in GTK.
        let turn = PathText.withCString(PathText.folder(of: path)) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        if turn >= 0 {
            while flock(turn, LOCK_EX) != 0 && errno == EINTR {}
        }
        defer { if turn >= 0 { close(turn) } }
        let bookmarks = try read()
        bookmarks.add(uri: uri, mimeType: Self.mimeType(of: absolute), application: Self.application, exec: Self.exec)
        let bytes = try bookmarks.serialized(path: path)
        do {
            // The data folder is made (0700) if missing, as GTK makes it.
            try AtomicFile.write(bytes, to: path, missingFolder: .create)
        } catch {
            throw RecentFilesError(path: path, problem: error.problem)
        }
    }

    /// Records `documentPath` on a worker of its own; a failure is one line to `log`.
    public func recordInBackground(_ documentPath: String, log: @escaping @Sendable (String) -> Void) {
        Worker.run("recent files") {
            do {
                try record(documentPath)
            } catch {
                log("cannot record the drawing among recent files: \(error)")
            }
        }
    }

    /// The file as GLib parses it; an empty one when there is none yet.
    func read() throws(RecentFilesError) -> BookmarkFile {
        do {
            _ = try FileSystemCalls.status(path)
        } catch .noSuchFileOrDirectory {
            return BookmarkFile()
        } catch {
            // Unreadable for another reason: said by the read below, and the file is left as it is.
        }
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: Self.sizeLimit, directoryProblem: "is a folder").bytes
        } catch {
            throw RecentFilesError(path: path, problem: error.problem + "; it is left as it is")
        }
        return try BookmarkFile(parsing: bytes, path: path)
    }
}
