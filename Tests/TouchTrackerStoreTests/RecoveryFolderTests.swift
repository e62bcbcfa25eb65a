import Foundation
import Synchronization
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerStore

/// The shared temporary folder keeps recovery files only while `touchtracker-UID` in it is a real folder of this
/// user's that nobody else may enter; otherwise a new private folder is made, and nothing planted there is found.
@Suite final class RecoveryFolderTests {
    /// Stands for `$TMPDIR`.
    let temporary: String

    init() throws {
        temporary = try FileProbe.makeTemporaryFolder("recovery")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: temporary)
    }

    let drawing = Drawing(lines: [Line(begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))])

    /// A recovery file for a document, with no state folder (no `HOME`), so the temporary folder is used.
    var recovery: RecoveryFile {
        RecoveryFile(documentPath: temporary + "/docs/drawing.json", environment: ["TMPDIR": temporary])
    }

    /// What can stand at `touchtracker-UID` that must not be used.
    enum Unsafe: String, CaseIterable, Sendable {
        /// A folder anyone may write in (mode 0777).
        case openFolder
        /// A symlink to a folder (this user's, mode 0700).
        case linkToFolder
    }

    /// Puts `unsafe` at the shared folder's place.
    func plant(_ unsafe: Unsafe) throws {
        let shared = recovery.sharedFolder
        switch unsafe {
        case .openFolder:
            try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
            try #require(chmod(shared, 0o777) == 0)
        case .linkToFolder:
            try FileManager.default.createDirectory(
                atPath: temporary + "/elsewhere", withIntermediateDirectories: false)
            try #require(chmod(temporary + "/elsewhere", 0o700) == 0)
            try FileProbe.link(shared, to: temporary + "/elsewhere")
        }
    }

    @Test("an unsafe shared folder is not written into", arguments: Unsafe.allCases)
    func unsafeFolderIsNotUsed(unsafe: Unsafe) throws {
        try plant(unsafe)
        let path = try recovery.write(drawing, stamp: "20260102-030405")
        #expect(PathText.folder(of: path) != recovery.sharedFolder && FileProbe.names(in: recovery.sharedFolder) == [])
    }

    @Test("instead of an unsafe shared folder a new folder of mode 0700 is made", arguments: Unsafe.allCases)
    func unsafeFolderIsReplacedByAPrivateOne(unsafe: Unsafe) throws {
        try plant(unsafe)
        let path = try recovery.write(drawing, stamp: "20260102-030405")
        #expect(FileProbe.mode(PathText.folder(of: path)) == 0o700)
    }

    @Test("an unsafe shared folder not used is logged", arguments: Unsafe.allCases)
    func unsafeFolderIsLogged(unsafe: Unsafe) throws {
        try plant(unsafe)
        var logged: [String] = []
        _ = try recovery.write(drawing, stamp: "20260102-030405") { logged.append($0) }
        #expect(logged.count == 1 && logged[0].contains(recovery.sharedFolder))
    }

    @Test("a recovery file planted in an unsafe shared folder is not found", arguments: Unsafe.allCases)
    func plantedRecoveryFileIsNotFound(unsafe: Unsafe) throws {
        try plant(unsafe)
        let planted = recovery.sharedFolder + "/" + recovery.prefix + "20260102-030405.json"
        try FileProbe.create(planted, "{\"version\": 1, \"lines\": []}")
        #expect(recovery.newest() == nil)
    }

    @Test(
        "a recovery file written in the private folder made instead of an unsafe one is found",
        arguments: Unsafe.allCases)
    func recoveryFileInTheFolderMadeInsteadIsFound(unsafe: Unsafe) throws {
        try plant(unsafe)
        let path = try recovery.write(drawing, stamp: "20260102-030405")
        #expect(recovery.newest() == path)
    }

    @Test("a recovery file in a folder named like one made instead, but open to others, is not found")
    func recoveryFileInAnOpenLookalikeIsNotFound() throws {
        let lookalike = recovery.sharedFolder + "-abcdef"
        try FileManager.default.createDirectory(atPath: lookalike, withIntermediateDirectories: false)
        try #require(chmod(lookalike, 0o777) == 0)
        try FileProbe.create(
            lookalike + "/" + recovery.prefix + "20260102-030405.json", "{\"version\": 1, \"lines\": []}")
        #expect(recovery.newest() == nil)
    }

    @Test("in a temporary folder of thousands of names, only the ones with the start asked for are listed")
    func namesStartingWithAreListed() throws {
        for index in 0..<3000 {
            let name = String(repeating: "n", count: 1 + index % 200) + "-\(index)"
            try #require(FileManager.default.createFile(atPath: temporary + "/" + name, contents: nil))
        }
        for index in 0..<3 { try FileProbe.create(temporary + "/touchtracker-kept-\(index)", "") }
        let names = RecoveryFile.names(in: temporary, startingWith: "touchtracker-kept-").sorted()
        #expect(names == ["touchtracker-kept-0", "touchtracker-kept-1", "touchtracker-kept-2"])
    }

    @Test("a recovery file written in a private shared folder is found")
    func writtenRecoveryFileIsFound() throws {
        let path = try recovery.write(drawing, stamp: "20260102-030405")
        #expect(recovery.newest() == path && PathText.folder(of: path) == recovery.sharedFolder)
    }

    @Test("the window's memory beside a recovery file someone opened is not taken for a newer recovery file")
    func windowMemoryBesideARecoveryFileIsNotFound() throws {
        let path = try recovery.write(drawing, stamp: "20260102-030405")
        let second = try recovery.write(drawing, stamp: "20260102-030405")
        // What closing a window on the recovery file leaves beside it, written later than both.
        let memory = String(path.dropLast(".json".count)) + ".window.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: memory))
        #expect(second.hasSuffix("-2.json"))
        #expect(recovery.newest() == second)
    }
}
