import BackgroundWork
import Foundation
import Glibc

/// Names made in a folder, as the kernel reports them (inotify): for a test that must act the moment a file
/// appears, which polling the folder on a busy machine can miss.
final class FolderCreations {
    private let inotify: Int32

    init(watching folder: String) throws {
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0, inotify_add_watch(inotify, folder, UInt32(IN_CREATE)) >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    deinit { close(inotify) }

    /// Waits (on a worker at the process's own priority, so a busy machine does not hold up `then`) until a name
    /// starting with `prefix` is made, or `timeout` seconds pass; `then` runs on that worker the moment the name is
    /// reported (before this task resumes, which takes longer).
    func next(startingWith prefix: String, timeout: Double, then: @escaping @Sendable () -> Void = {}) async -> Bool {
        await withCheckedContinuation { continuation in
            let inotify = inotify
            Worker.run("folder creations", priority: .prompt) {
                let made = Self.wait(on: inotify, for: prefix, timeout: timeout)
                if made { then() }
                continuation.resume(returning: made)
            }
        }
    }

    private static func wait(on inotify: Int32, for prefix: String, timeout: Double) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while Date() < deadline {
            var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = read(inotify, &buffer, buffer.count)
            var offset = 0
            // Each event: wd (4), mask (4), cookie (4), len (4), then a NUL-padded name of len bytes.
            while count > 0, offset + 16 <= count {
                let length = buffer[offset + 12..<offset + 16].reversed().reduce(0) { $0 << 8 | Int($1) }
                let name = buffer[offset + 16..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                if String(decoding: name, as: UTF8.self).hasPrefix(prefix) { return true }
                offset += 16 + length
            }
        }
        return false
    }
}
