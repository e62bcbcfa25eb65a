import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A home folder of a test's own for an app it starts: the tests run the real app as root, and an app that records
/// recent files (`$XDG_DATA_HOME/recently-used.xbel`) or keeps an untitled drawing must never write into the real
/// user's home. Made with `mkdtemp` and removed, whole, when the last reference goes.
public final class PrivateHome: Sendable {
    /// The folder that is `HOME`.
    public let path: String
    /// `HOME/.local/share`, the app's `XDG_DATA_HOME` unless the test named its own.
    public var dataHome: String { path + "/.local/share" }

    /// Makes a fresh private folder under the temporary folder.
    public init() throws {
        var template = Array((NSTemporaryDirectory() + "/touchtracker-home-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw AppProcess.AppError(
                description: "mkdtemp for a private home failed: \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `environment` (a test's overrides of this process's environment, nil removing a variable) with `HOME` and
    /// `XDG_DATA_HOME` made private where the test named neither: `HOME` is this folder unless the test set its own,
    /// and `XDG_DATA_HOME` is this folder's `.local/share` unless the test set (or removed) it; under a `HOME` of the
    /// test's own, an inherited `XDG_DATA_HOME` is removed, so the data folder follows that home as it would for a
    /// user. Everything else (`XDG_RUNTIME_DIR`, the session bus, `DISPLAY`) is left as the test gave it: only the
    /// folders a program writes a user's files into move.
    public static func applying(to environment: [String: String?]) throws -> (
        environment: [String: String?], home: PrivateHome?
    ) {
        let setsHome = environment.keys.contains("HOME")
        let setsDataHome = environment.keys.contains("XDG_DATA_HOME")
        if setsHome && setsDataHome { return (environment, nil) }
        var result = environment
        if setsHome {
            result["XDG_DATA_HOME"] = .some(nil)
            return (result, nil)
        }
        let home = try PrivateHome()
        result["HOME"] = home.path
        if !setsDataHome { result["XDG_DATA_HOME"] = home.dataHome }
        return (result, home)
    }
}
