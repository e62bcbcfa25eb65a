import Glibc
import TouchTrackerStore

/// One-line messages on stderr, prefixed with the program name. Written straight to descriptor 2, and a failed
/// write is let go: a message must never end the app (a terminal closed, a reader of the pipe gone).
enum Diagnostics {
    static func error(_ message: String) {
        write("touchtracker: \(message)\n")
    }

    static func note(_ message: String) {
        write("touchtracker: \(message)\n")
    }

    /// A path in a message: bytes that are not text as `\xHH` (`PathText.shown`).
    static func shown(_ path: String) -> String {
        PathText.shown(path)
    }

    private static func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
