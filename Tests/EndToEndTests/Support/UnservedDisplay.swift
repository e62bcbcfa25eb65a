import Foundation

/// An X display name nobody serves: a number far above any the test servers take (Xorg's `-displayfd` counts up
/// from 0), with no socket file, no lock file and no abstract socket (a server in another mount namespace, or one
/// that listens only there, leaves no file). A bare `:97` was served on a CI machine once, and the app under test
/// opened its window there instead of failing.
func unservedDisplay() throws -> String {
    let abstractSockets = (try? String(contentsOfFile: "/proc/net/unix", encoding: .utf8)) ?? ""
    let number = (900..<1000).first { number in
        !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            && !FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
            && !abstractSockets.contains("@/tmp/.X11-unix/X\(number)\n")
    }
    guard let number else { throw UnservedDisplayError() }
    return ":\(number)"
}

struct UnservedDisplayError: Error, CustomStringConvertible {
    var description: String { "every display from :900 to :999 is served or locked; nothing left to fail on" }
}
