import Foundation
import TouchTracker

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

/// Loading a document for the window: a bad file never stops the app and is never lost.
enum DocumentLoading {
    /// The document at `store`, or an empty drawing after copying an unreadable file aside and saying so.
    static func loadForEditing(_ store: DocumentStore) -> Drawing {
        do {
            return try store.load()
        } catch {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyyMMdd-HHmmss"
            let stamp = formatter.string(from: Date())
            do {
                let copy = try store.copyAside(stamp: stamp)
                Diagnostics.error(
                    "cannot read document \(error); kept it as \(copy) and starting with an empty drawing")
            } catch let copyError {
                Diagnostics.error(
                    "cannot read document \(error), and could not keep a copy (\(copyError.problem)); "
                        + "starting with an empty drawing")
            }
            return Drawing()
        }
    }
}
