import Glibc
import TouchTrackerStore

/// The environment as the bytes the kernel handed over, as `RawArguments` keeps the command line: Foundation's
/// `ProcessInfo.environment` repairs bytes that are not UTF-8, so `XDG_DATA_HOME=/data/café` in Latin-1 would
/// name another folder, and the window would open, and save, a drawing somewhere else.
enum RawEnvironment {
    /// Every variable, its name and value kept byte for byte in `PathText` strings.
    static func current() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = PathText.decode(bytesOf: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                // The first one wins, as getenv(3) finds it.
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
