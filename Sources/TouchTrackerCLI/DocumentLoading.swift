import ArgumentParser
import Foundation
import TouchTracker
import TouchTrackerSession
import TouchTrackerStore

/// Where the default document lives.
enum DocumentLocation {
    /// `$XDG_DATA_HOME/touchtracker/drawing.json`, falling back to `~/.local/share` as the XDG spec says.
    static func defaultPath(environment: [String: String]) -> String {
        let base: String
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            base = dataHome
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/touchtracker/" + DocumentNames.defaultName
    }
}

/// Loading a document for the commands that only read it (`replay --document`, `export`): a file that cannot be
/// read is an error. (The window's reading, where a bad file never stops the app, is `DocumentSync`'s.)
enum DocumentLoading {
    /// The document at `path` for a command that only reads it: one line naming the file and the problem, and exit
    /// status 1, if it cannot be read or is not there (a missing file would load as an empty drawing, which is never
    /// what was meant). Nothing is written and the file is left as it is.
    static func loadOrExit(_ path: String) throws -> Drawing {
        let store = DocumentStore(path: path)
        do {
            guard store.exists else { throw DocumentFileError(path: path, problem: "no such file or folder") }
            return try store.load()
        } catch {
            Diagnostics.error("cannot read document \(error)")
            throw ExitCode(1)
        }
    }
}

/// Checks of the paths a command is given, before anything is read or written.
enum PathOption {
    /// Refuses an empty path as `option`'s value (an unset shell variable, say): it names no file, and the system
    /// would take it for the current folder's parent's entry or refuse it with a baffling error.
    static func validate(_ path: String?, option: String) throws {
        guard let path else { return }
        if path.isEmpty { throw ValidationError("\(option) is empty; give a file's name") }
        // Many tools read `-` as the standard stream; here it would be a file of that name, written unasked.
        if path == "-" {
            throw ValidationError(
                "\(option) -: - is not standard input or output here; give /dev/stdin or /dev/stdout, or ./- for a "
                    + "file named -")
        }
        // A name ending in / is a folder's: written as a file, `new.png/` would become `new.png` unasked.
        if path.hasSuffix("/") {
            throw ValidationError(
                "\(option) \(Diagnostics.shown(path)) ends in /, which names a folder; give a file's name")
        }
        // `.` and `..` always name folders: the files beside such a "document" would be `..lock`, `...window.json`.
        if PathText.name(of: path) == "." || PathText.name(of: path) == ".." {
            throw ValidationError(
                "\(option) \(Diagnostics.shown(path)) names a folder; give a file's name")
        }
        // The shell expands ~ only at the start of a word: `--document=~/d.json` reaches the app as written.
        if path == "~" || path.hasPrefix("~/") {
            throw ValidationError(
                "\(option) \(Diagnostics.shown(path)): the shell did not expand ~ here (it does not after = or in "
                    + "quotes); give the whole path (./~ for a folder named ~)")
        }
    }

    /// Refuses a window's document that is a folder (links followed): `--document ~/Drawings` means a file in it, not
    /// a drawing to be saved beside it as `Drawings.recovered-STAMP`. (A folder put in the document's place while
    /// the window is open is another matter: the window keeps the drawing, §3b.)
    static func validateNotFolder(_ path: String?, option: String) throws {
        guard let path else { return }
        var status = stat()
        guard PathText.withCString(path, { stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR else { return }
        throw ValidationError(
            "\(option) \(Diagnostics.shown(path)) is a folder; give a file's name (such as "
                + "\(Diagnostics.shown(PathText.join(path, "drawing.json"))))")
    }

    /// Refuses a document named in a folder that does not exist (a typing slip, most often): the window would
    /// otherwise make the folders and save there unseen. (A folder moved away while the window is open is made
    /// again by the save: the drawing came from there.)
    static func validateFolder(of path: String?, option: String) throws {
        guard let path else { return }
        // The folder as the window's lock and saves name it: links followed, "." and ".." taken as written (so
        // `link/../link` is `link`'s folder).
        let folder = PathText.folder(of: DocumentLock.canonicalPath(of: path))
        var status = stat()
        guard PathText.withCString(folder, { stat($0, &status) }) != 0 else {
            guard status.st_mode & S_IFMT != S_IFDIR else { return }
            throw ValidationError(
                "\(option) \(Diagnostics.shown(path)): \(Diagnostics.shown(folder)) is not a folder; give another path")
        }
        if errno == ENOTDIR {
            throw ValidationError(
                "\(option) \(Diagnostics.shown(path)): a part of the path is a file, not a folder; give another path")
        }
        guard errno == ENOENT else { return }
        throw ValidationError(
            "\(option) \(Diagnostics.shown(path)): the folder \(Diagnostics.shown(folder)) does not exist; create it "
                + "first (mkdir -p \(PathText.shellQuoted(folder)))")
    }

    /// Refuses writing a command's output over the document it reads: the same file, by any name or link.
    static func validate(output: String, option: String, isNot document: String) throws {
        try validate(output: output, option: option, isNot: document, named: "the document")
    }

    /// Refuses writing `option`'s output over `input` (the document, the script), which `named` names: the same
    /// file, by any name or link.
    static func validate(output: String, option: String, isNot input: String, named: String) throws {
        guard FileIdentity.sameFile(output, input) else { return }
        throw ValidationError("\(option) \(Diagnostics.shown(output)) is \(named) itself; give another file's name")
    }

    /// Refuses two outputs of one command written to one file, where the second would replace the first.
    static func validate(outputs: [(path: String?, option: String)]) throws {
        // A device or a pipe (`/dev/null` for both, say) is written in place, each output in turn: no clash.
        let given = outputs.compactMap { output in output.path.map { (path: $0, option: output.option) } }
            .filter { !AtomicFile.writesInPlace($0.path) }
        for (index, later) in given.enumerated() {
            guard let earlier = given[..<index].first(where: { FileIdentity.sameFile($0.path, later.path) }) else {
                continue
            }
            throw ValidationError(
                "\(later.option) \(Diagnostics.shown(later.path)) is the file \(earlier.option) writes; "
                    + "give each its own name")
        }
    }
}
