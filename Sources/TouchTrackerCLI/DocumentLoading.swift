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

/// Loading a document for the commands that only read it (`replay --document`, `export`): a file that cannot be
/// read is an error. (The window's reading, where a bad file never stops the app, is `DocumentSync`'s.)
enum DocumentLoading {
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
}
