import Foundation
import Testing
import TouchTrackerStore

/// One window per document: the lock beside it, taken once whatever the document's spelling. (A lock held by
/// another process, and one left by a process that was killed, are tested end to end with two real app
/// processes: OneOwnerTests.)
@Suite final class DocumentLockTests {
    let folder = NSTemporaryDirectory() + "touchtracker-lock-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func acquired(_ path: String) throws -> DocumentLock {
        guard case .acquired(let lock) = try DocumentLock.acquire(for: path) else {
            Issue.record("\(path) should be free")
            throw CancellationError()
        }
        return lock
    }

    @Test("a second lock on the same document names the holder's process and window")
    func secondLockNamesTheHolder() throws {
        let lock = try acquired(folder + "/a/drawing.json")
        lock.setWindow(.x11(0x2a0_0007))
        guard case .heldBy(let owner) = try DocumentLock.acquire(for: folder + "/a/drawing.json") else {
            Issue.record("the document should be held")
            return
        }
        #expect(owner == DocumentLock.Owner(pid: getpid(), window: .x11(0x2a0_0007)))
    }

    @Test("a Wayland window is recorded as one, for a second instance to hand its activation token to")
    func waylandWindowIsRecorded() throws {
        let lock = try acquired(folder + "/a/drawing.json")
        lock.setWindow(.wayland)
        guard case .heldBy(let owner) = try DocumentLock.acquire(for: folder + "/a/drawing.json") else {
            Issue.record("the document should be held")
            return
        }
        #expect(owner == DocumentLock.Owner(pid: getpid(), window: .wayland))
    }

    @Test("the same document through a symlinked folder, a symlink to the file and '..' is the same lock")
    func everySpellingIsTheSameLock() throws {
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/a/drawing.json"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/a")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/file-link.json", withDestinationPath: folder + "/a/drawing.json")
        let lock = try acquired(folder + "/a/drawing.json")
        defer { lock.release() }
        for spelling in [folder + "/link/drawing.json", folder + "/file-link.json", folder + "/a/../a/./drawing.json"] {
            guard case .heldBy = try DocumentLock.acquire(for: spelling) else {
                Issue.record("\(spelling) should be held")
                continue
            }
        }
    }

    @Test("a relative path names the same document as its absolute path")
    func relativePathIsTheSameDocument() {
        let here = FileManager.default.currentDirectoryPath.split(separator: "/").count
        let relative = String(repeating: "../", count: here) + folder.dropFirst() + "/a/drawing.json"
        #expect(DocumentLock.canonicalPath(of: relative) == DocumentLock.canonicalPath(of: folder + "/a/drawing.json"))
    }

    @Test("a released lock is removed and can be taken again")
    func releasedLockCanBeTakenAgain() throws {
        let lock = try acquired(folder + "/a/drawing.json")
        lock.release()
        #expect(!FileManager.default.fileExists(atPath: lock.path))
        _ = try acquired(folder + "/a/drawing.json")
    }

    @Test("a lock file left by a process that no longer exists is taken over")
    func staleLockIsTaken() throws {
        try Data("pid 999999\nwindow 0x1\n".utf8).write(to: URL(fileURLWithPath: folder + "/a/drawing.json.lock"))
        let lock = try acquired(folder + "/a/drawing.json")
        let text = try String(contentsOfFile: lock.path, encoding: .utf8)
        #expect(text == "pid \(getpid())\n")
    }

    @Test("a lock that cannot be created is an error naming the lock file")
    func unwritableFolderIsAnError() throws {
        #expect(throws: DocumentFileError.self) {
            _ = try DocumentLock.acquire(for: "/proc/touchtracker-no-such/drawing.json")
        }
    }
}
