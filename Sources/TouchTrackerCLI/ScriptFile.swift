import ArgumentParser
import TouchTrackerStore

/// Reading a replay script for `replay` and `demo --replay`: one way, so both say the same about the same file.
enum ScriptFile {
    /// The largest script read: far beyond any hand-written or recorded one.
    static let maximumSize = 256 * 1024 * 1024

    /// The script's text, or one line naming the file and the problem (with the line number for text that is not
    /// UTF-8) and exit status 1.
    static func read(_ path: String) throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: maximumSize, directoryProblem: "is a directory, not a script")
                .bytes
        } catch {
            Diagnostics.error("cannot read replay script \(error)")
            throw ExitCode(1)
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let bad = (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
        Diagnostics.error("\(Diagnostics.shown(path)): line \(bad): not UTF-8 text")
        throw ExitCode(1)
    }
}
