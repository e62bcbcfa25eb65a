import Foundation
import Testing
import TouchTrackerStore

/// The lock file is never a planted link or another file's second name, follows the document to its target, and is
/// removed on release only while it is still this lock's own file.
@Suite final class LockFileSafetyTests {
    let folder: String

    init() throws {
        folder = try FileProbe.makeTemporaryFolder("lockfile")
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: true)
        try FileProbe.create(folder + "/victim", "victim")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    var document: String { folder + "/a/drawing.json" }

    @Test("a symlink planted at the lock's path is refused")
    func plantedLinkIsRefused() throws {
        try FileProbe.link(DocumentLock.lockPath(for: document), to: folder + "/victim")
        #expect(throws: DocumentFileError.self) { _ = try DocumentLock.acquire(for: self.document) }
    }

    @Test("a symlink planted at the lock's path leaves the file it points to untouched")
    func plantedLinkLeavesItsTarget() throws {
        try FileProbe.link(DocumentLock.lockPath(for: document), to: folder + "/victim")
        _ = try? DocumentLock.acquire(for: document)
        #expect(FileProbe.text(folder + "/victim") == "victim")
    }

    @Test("a hard link planted at the lock's path is refused")
    func plantedHardLinkIsRefused() throws {
        try #require(link(folder + "/victim", DocumentLock.lockPath(for: document)) == 0)
        #expect(throws: DocumentFileError.self) { _ = try DocumentLock.acquire(for: self.document) }
    }

    @Test("a hard link planted at the lock's path leaves the file it shares untouched")
    func plantedHardLinkLeavesItsFile() throws {
        try #require(link(folder + "/victim", DocumentLock.lockPath(for: document)) == 0)
        _ = try? DocumentLock.acquire(for: document)
        #expect(FileProbe.text(folder + "/victim") == "victim")
    }

    @Test("a document reached through a symlink in another folder has its target's lock")
    func linkedDocumentHasItsTargetsLock() throws {
        try FileProbe.create(document, "{}")
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        try FileProbe.link(folder + "/b/link.json", to: "../a/drawing.json")
        #expect(DocumentLock.lockPath(for: folder + "/b/link.json") == DocumentLock.lockPath(for: document))
    }

    @Test("a document that is a dangling symlink (its target not made yet) has its target's lock")
    func danglingLinkedDocumentHasItsTargetsLock() throws {
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        try FileProbe.link(folder + "/b/link.json", to: "../a/drawing.json")
        #expect(DocumentLock.lockPath(for: folder + "/b/link.json") == DocumentLock.lockPath(for: document))
    }

    @Test("a document opened through a dangling symlink is held against its target once the target is made")
    func danglingLinkedDocumentIsHeldAgainstItsTarget() throws {
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        try FileProbe.link(folder + "/b/link.json", to: "../a/drawing.json")
        guard case .acquired(let lock) = try DocumentLock.acquire(for: folder + "/b/link.json") else {
            Issue.record("\(folder)/b/link.json should be free")
            return
        }
        defer { lock.release() }
        // The first save through the link makes the target.
        try AtomicFile.write(Array("{}".utf8), to: folder + "/b/link.json")
        guard case .heldBy = try DocumentLock.acquire(for: document) else {
            Issue.record("\(document) is the same document as \(folder)/b/link.json, so it should be held")
            return
        }
    }

    @Test("release leaves a file that took the lock file's place since it was taken")
    func releaseLeavesAnotherFile() throws {
        guard case .acquired(let lock) = try DocumentLock.acquire(for: document) else {
            Issue.record("\(document) should be free")
            return
        }
        try FileManager.default.removeItem(atPath: lock.path)
        try FileProbe.create(lock.path, "another window's lock")
        lock.release()
        #expect(FileProbe.text(lock.path) == "another window's lock")
    }
}
