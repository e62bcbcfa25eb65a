import Foundation
import Glibc
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerStore

/// Documents reached through links that point nowhere yet, links another user planted in a shared folder, and
/// names that begin with a combining mark.
@Suite final class LinkSafetyTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "touchtracker-link-safety-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test("a document that is a dangling symlink opens empty and its first save creates the link's target")
    func danglingLinkDocumentCreatesItsTarget() throws {
        #expect(symlink("real.json", folder + "/drawing.json") == 0)
        let opened = DocumentStore(path: folder + "/drawing.json").openForEditing(stamp: "20261125-000000")
        #expect(opened.problem == nil)
        #expect(opened.store.path == folder + "/drawing.json")
        try opened.store.save(Drawing(lines: [Line(begin: Point(x: 0, y: 0), end: Point(x: 50, y: 0))]))
        #expect(try DocumentStore(path: folder + "/real.json").load().lines.count == 1)
        #expect(FileProbe.kind(folder + "/drawing.json") == .link)
    }

    @Test(
        "a document inside a symlink loop opens at once, empty, with the problem in words (no endless name search)",
        .timeLimit(.minutes(1)))
    func documentInsideALinkLoopOpens() {
        #expect(symlink("lb", folder + "/la") == 0)
        #expect(symlink("la", folder + "/lb") == 0)
        let opened = DocumentStore(path: folder + "/la/x.json").openForEditing(stamp: "20261125-000000")
        #expect(opened.problem?.contains("symbolic links") == true, "\(opened.problem ?? "")")
        #expect(opened.store.path == folder + "/la/x.json.recovered-20261125-000000")
    }

    @Test("a link another user planted in a sticky folder everyone may write is not followed, and its target is kept")
    func plantedLinkInASharedFolderIsRefused() throws {
        let shared = folder + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(chmod(shared, 0o1777) == 0)
        let victim = folder + "/victim"
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(symlink(victim, shared + "/out.json") == 0)
        // Made by another user (nobody): the test runs as root, as CI does, and can hand the link over.
        #expect(lchown(shared + "/out.json", 65534, 65534) == 0, "the test needs root, as CI has")
        #expect(throws: DocumentFileError.self) { try AtomicFile.write(Array("theirs".utf8), to: shared + "/out.json") }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }

    @Test("a link of this user's own in a sticky shared folder is followed as anywhere else")
    func ownLinkInASharedFolderIsFollowed() throws {
        let shared = folder + "/shared"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(chmod(shared, 0o1777) == 0)
        #expect(symlink(folder + "/target", shared + "/out.json") == 0)
        try AtomicFile.write(Array("mine".utf8), to: shared + "/out.json")
        #expect(try String(contentsOfFile: folder + "/target", encoding: .utf8) == "mine")
    }

    @Test("a name that begins with a combining mark is split at the slash before it")
    func combiningMarkNamesSplitAtTheSlash() {
        #expect(PathText.folder(of: "/home/u/\u{301}a.json") == "/home/u")
        #expect(PathText.name(of: "/home/u/\u{301}a.json") == "\u{301}a.json")
        #expect(PathText.folder(of: "/\u{301}x") == "/")
        #expect(PathText.stem(of: "\u{301}.json") == "\u{301}")
    }
}
