import Glibc
import TouchTrackerStore

/// The command line as the bytes the kernel handed over. Swift's `CommandLine.arguments` repairs bytes that are
/// not UTF-8 (a Latin-1 `café.json` becomes `caf\u{FFFD}.json`, another file), so arguments are read from `argv`
/// and kept byte for byte in `PathText` strings: a file name opens, saves and exports the file that was named.
enum RawArguments {
    /// Every argument after the program's name.
    static func afterProgramName() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { index in
            CommandLine.unsafeArgv[index].map { PathText.decode(bytesOf: $0) }
        }
    }
}
