import ArgumentParser
import Foundation
import TouchTracker
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
        return base + "/touchtracker/drawing.json"
    }
}

/// Loading a document: for the window a bad file never stops the app and is never lost; for the commands that only
/// read it (`replay --document`, `export`) it is an error.
enum DocumentLoading {
    /// The document at `store` with the store to autosave to. An unreadable file is reported in one line and kept
    /// (copied aside, or left untouched with edits saved next to it); the window then starts with an empty drawing.
    static func loadForEditing(_ store: DocumentStore) -> OpenedDocument {
        let opened = store.openForEditing(stamp: timeStamp())
        if let problem = opened.problem { Diagnostics.error(problem) }
        return opened
    }

    /// The document at `path` for a command that only reads it: one line naming the file and the problem, and exit
    /// status 1, if it cannot be read. Nothing is written and the file is left as it is.
    static func loadOrExit(_ path: String) throws -> Drawing {
        do {
            return try DocumentStore(path: path).load()
        } catch {
            Diagnostics.error("cannot read document \(error)")
            throw ExitCode(1)
        }
    }

    /// Local time as `YYYYMMDD-HHMMSS`.
    static func timeStamp(_ date: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
