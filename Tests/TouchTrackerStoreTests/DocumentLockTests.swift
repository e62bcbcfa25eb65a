import Foundation
import Testing
import TouchTrackerStore

/// One window per document: the lock beside it, taken once whatever the document's spelling, and given up by a
/// process that ends however it ends.
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
        lock.setWindow(0x2a0_0007)
        guard case .heldBy(let owner) = try DocumentLock.acquire(for: folder + "/a/drawing.json") else {
            Issue.record("the document should be held")
            return
        }
        #expect(owner == DocumentLock.Owner(pid: getpid(), window: 0x2a0_0007))
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

    @Test("a lock held by another process is reported, and taken once that process has ended")
    func lockOfAnotherProcess() async throws {
        let lockPath = DocumentLock.lockPath(for: folder + "/a/drawing.json")
        try Data("pid 4242\n".utf8).write(to: URL(fileURLWithPath: lockPath))
        let marker = folder + "/locked"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        // -o: the lock is not handed down to the shell, so killing flock frees it. The marker says flock has it:
        // trying to take the lock before that could take it first (and remove the file under flock).
        holder.arguments = ["-o", lockPath, "/bin/sh", "-c", "echo > \"$0\"; sleep 30", marker]
        try holder.run()
        defer { if holder.isRunning { holder.terminate() } }
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: marker) {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard case .heldBy(let owner) = try DocumentLock.acquire(for: folder + "/a/drawing.json") else {
            Issue.record("the lock held by flock should be reported")
            return
        }
        #expect(owner.pid == 4242)
        kill(holder.processIdentifier, SIGKILL)
        holder.waitUntilExit()
        var taken = false
        for _ in 0..<100 where !taken {
            if case .acquired = try DocumentLock.acquire(for: folder + "/a/drawing.json") {
                taken = true
            } else {
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(taken)
    }

    @Test("a lock that cannot be created is an error naming the lock file")
    func unwritableFolderIsAnError() throws {
        #expect(throws: DocumentFileError.self) {
            _ = try DocumentLock.acquire(for: "/proc/touchtracker-no-such/drawing.json")
        }
    }
}
