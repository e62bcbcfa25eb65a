import Foundation
import Synchronization
import TouchTrackerStore

/// What the path and file tests look at on disk, through the system's own calls (not through the code under test):
/// a name's type and mode without following it, a file's bytes, a folder's names as bytes.
enum FileProbe {
    /// The kind of the file at `path` itself (a symlink is not followed); nil when there is nothing there.
    enum Kind: Equatable {
        case regular, folder, link, fifo, characterDevice, other
    }

    static func kind(_ path: String) -> Kind? {
        var info = stat()
        guard PathText.withCString(path, { lstat($0, &info) }) == 0 else { return nil }
        return switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .folder
        case S_IFLNK: .link
        case S_IFIFO: .fifo
        case S_IFCHR: .characterDevice
        default: .other
        }
    }

    /// The permission bits of the file at `path` itself; nil when there is nothing there.
    static func mode(_ path: String) -> mode_t? {
        var info = stat()
        guard PathText.withCString(path, { lstat($0, &info) }) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// The bytes of the file at `path` (following links), or nil when it cannot be read.
    static func contents(_ path: String) -> [UInt8]? {
        let fd = PathText.withCString(path) { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? result : nil }
            result += buffer.prefix(count)
        }
    }

    /// The text of the file at `path`, or nil when it cannot be read.
    static func text(_ path: String) -> String? {
        contents(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The names in `folder` as the system gives them, byte for byte, sorted (`.` and `..` left out).
    static func names(in folder: String) -> [[UInt8]] {
        guard let directory = PathText.withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            let name = DirectoryEntry.withName(of: entry) { Array($0) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return names.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Makes a symlink at `path` that points to `target` (the target's bytes as given).
    static func link(_ path: String, to target: String) throws {
        let result = PathText.withCString(target) { target in PathText.withCString(path) { symlink(target, $0) } }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Writes `text` to a new file at `path` (plain `open`/`write`, mode 0644 before the umask).
    static func create(_ path: String, _ text: String) throws {
        let fd = PathText.withCString(path) { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// A fresh folder for one test, under the system's temporary folder.
    static func makeTemporaryFolder(_ label: String) throws -> String {
        let folder = NSTemporaryDirectory() + "touchtracker-\(label)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Waits up to `seconds` for `condition`, looking every 20 ms; whether it came true.
    static func eventually(within seconds: Double = 5, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}

/// A number shared with another thread (a watcher's callbacks).
final class SharedCount: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    func set(_ number: Int) { value.withLock { $0 = number } }
    var current: Int { value.withLock { $0 } }
}
