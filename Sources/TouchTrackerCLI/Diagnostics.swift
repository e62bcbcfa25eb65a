import Foundation

/// One-line messages on stderr, prefixed with the program name.
enum Diagnostics {
    static func error(_ message: String) {
        write("touchtracker: \(message)\n")
    }

    static func note(_ message: String) {
        write("touchtracker: \(message)\n")
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
