import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// One drawing, one owner: a second `touchtracker` on an open document brings the first window forward instead of
/// opening a second editor; a document another program changes is adopted, not overwritten.
@Suite("One owner", .serialized)
struct OneOwnerTests {
    /// The window id the app reported when it became ready (`--verbose`: "ready window=0x…").
    private func windowID(of session: AppSession) throws -> UInt {
        let line = try #require(session.app.stderrLines.first { $0.contains("ready window=0x") })
        let hex = try #require(line.components(separatedBy: "window=0x").last)
        return try #require(UInt(hex.prefix { $0.isHexDigit }, radix: 16))
    }

    @Test(
        """
        a second touchtracker on an open document, named another way, exits 0 naming the window that has it, asks \
        for that window to come forward, and no line of either is lost
        """)
    func secondInstanceBringsTheFirstForward() async throws {
        let folder = try makeTemporaryFolder("touchtracker-one-owner")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        let first = try windowID(of: session)
        // The same file through a symlinked folder and a "..".
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        let spelling = link.path + "/../link/drawing.json"

        let watcher = try ActivationWatcher(display: session.server.display)
        let second = try AppProcess(
            arguments: ["--document", spelling, "--verbose"], environment: ["DISPLAY": session.server.display])
        defer { second.stop() }
        #expect(try await second.waitForExit(timeout: .seconds(10)) == 0, "\(second.transcript)")
        #expect(
            second.stderr.contains("already open in window 0x\(String(first, radix: 16)) (process \(session.app.pid))"),
            "\(second.transcript)")
        #expect(watcher.nextActivation(timeout: .seconds(5)) == first)

        try session.stroke(id: 2, y: 200)
        #expect(try await session.savedDocument(lineCount: 2).lines.count == 2)
    }

    @Test("a lock left by a process that no longer exists is taken over without a question")
    func staleLockIsTakenOver() async throws {
        let folder = try makeTemporaryFolder("touchtracker-stale-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = folder.appendingPathComponent("drawing.json.lock")
        try Data("pid 999999\nwindow 0x1234\n".utf8).write(to: lock)
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        #expect(try await session.savedDocument(lineCount: 1).lines.count == 1)
        let lockText = try String(contentsOf: lock, encoding: .utf8)
        #expect(lockText.contains("pid \(session.app.pid)"), "\(lockText)")
    }

    @Test("a document another program replaces is shown at once, and Ctrl+Z brings back what was on screen")
    func replacedDocumentIsShownAndUndoable() async throws {
        let folder = try makeTemporaryFolder("touchtracker-reload")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        // Another program writes three vertical lines, atomically (a temporary file renamed over the document).
        let theirs = Drawing(
            lines: [150.0, 320, 490].map { x in Line(begin: Point(x: x, y: 150), end: Point(x: x, y: 420)) })
        let temporary = folder.appendingPathComponent(".other-program.tmp")
        try Data(DocumentCodec.encode(theirs)).write(to: temporary)
        #expect(rename(temporary.path, session.document.path) == 0)
        try await session.app.waitForStderrLine(containing: "reloaded drawing.json", timeout: .seconds(5))
        try await waitUntil("their lines on screen", timeout: .seconds(5), poll: .milliseconds(100)) {
            let shot = try session.screenshot()
            return shot.at(320, 300).isBlackish && !shot.at(300, 100).isBlackish
        }
        // Undo: the line that was on screen comes back, and is saved.
        try session.pressChord([Self.keyControl, Self.keyZ])
        try await waitUntil("the drawing before the reload saved again", timeout: .seconds(5)) {
            SavedDocument.read(session.document)?.lines.count == 1
        }
        // On screen once the painters have repainted its tiles (the save, on its own thread, may come first).
        try await waitUntil("the line before the reload on screen again", timeout: .seconds(5), poll: .milliseconds(50))
        {
            try session.screenshot().at(300, 100).isBlackish
        }
        #expect(!session.app.stderr.contains("cannot"), "\(session.app.transcript)")
    }

    @Test(
        """
        a document another program replaces with something unreadable is kept in a copy, and the drawing on screen \
        stays and is saved back to the document at once, with no new edit
        """)
    func unreadableReplacementKeepsTheDrawing() async throws {
        let folder = try makeTemporaryFolder("touchtracker-unreadable")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        let garbage = Data("{\"version\": 1, \"lines\": [tru".utf8)
        let temporary = folder.appendingPathComponent(".other-program.tmp")
        try garbage.write(to: temporary)
        #expect(rename(temporary.path, session.document.path) == 0)
        try await session.app.waitForStderrLine(containing: "changed on disk but cannot be read", timeout: .seconds(5))
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("drawing.json.corrupt-")
        }
        #expect(copies.count == 1)
        if let copy = copies.first {
            #expect(try Data(contentsOf: folder.appendingPathComponent(copy)) == garbage)
        }
        #expect(try session.screenshot().at(300, 100).isBlackish)
        #expect(try await session.savedDocument(lineCount: 1).lines.count == 1)
        try session.stroke(id: 2, y: 200)
        #expect(try await session.savedDocument(lineCount: 2).lines.count == 2)
    }

    @Test(
        """
        a version another program writes in place through a hard link (no event names the document) is read and \
        shown once a save finds it, rather than every save held back for good
        """)
    func versionWrittenThroughAHardLinkIsShown() async throws {
        let folder = try makeTemporaryFolder("touchtracker-hard-link")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("drawing.json")
        try Data(#"{"version": 1, "lines": []}"#.utf8).write(to: document)
        let other = folder.appendingPathComponent("other.json")
        #expect(link(document.path, other.path) == 0)
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        // The watch is set up on a worker after the read, and its first look would read a version written before
        // it: the write must come after, when only a save can find it.
        try await Task.sleep(for: .seconds(2))
        let lines = (0..<3).map { #"{"begin": {"x": 20, "y": \#(300 + $0 * 20)}, "end": {"x": 400, "y": 300}}"# }
        let handle = try FileHandle(forUpdating: other)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(#"{"version": 1, "lines": [\#(lines.joined(separator: ","))]}"#.utf8))
        try handle.close()
        try session.stroke(id: 2, y: 200)
        // The save finds the version, has it read and shown, and then goes through.
        try await session.app.waitForStderrLine(
            containing: "reloaded drawing.json: changed on disk", timeout: .seconds(15))
        try await session.app.waitForStderrLine(containing: "saved ", timeout: .seconds(15))
        #expect(SavedDocument.read(session.document)?.lines.count == 3)
    }

    @Test(
        """
        an unreadable version another program writes is not saved over while no copy of it can be made (a full disk); \
        once there is room it is copied aside and the drawing is saved, with no new edit
        """)
    func unreadableReplacementIsKeptUntilCopied() async throws {
        let folder = try makeTemporaryFolder("touchtracker-unreadable-full")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard try SmallFileSystem.mount(on: folder) else { return }
        defer { SmallFileSystem.unmount(folder) }
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        // 24 KB nobody can read, written beside the document; then the disk is filled, and the other program's
        // version takes the document's place: a copy of it finds no room.
        let garbage = Data(("{\"version\": 1, \"lines\": [tru" + String(repeating: " ", count: 24_000)).utf8)
        let temporary = folder.appendingPathComponent(".other-program.tmp")
        try garbage.write(to: temporary)
        let filler = try SmallFileSystem.fill(folder)
        #expect(rename(temporary.path, session.document.path) == 0)
        try await session.app.waitForStderrLine(
            containing: "not saved over until a copy of it can be made", timeout: .seconds(5))
        // An edit is not saved over it, and the window says why.
        try session.stroke(id: 2, y: 200)
        try await session.app.waitForStderrLine(
            containing: "notice shown: Not saved: another program's unreadable version is kept", timeout: .seconds(5))
        try await Task.sleep(for: .seconds(1))
        #expect(try Data(contentsOf: session.document) == garbage)
        // Room again: the watcher's next try copies it aside, and the held save goes through by itself.
        try FileManager.default.removeItem(at: filler)
        let saved = try await session.savedDocument(lineCount: 2, timeout: .seconds(10))
        #expect(saved.lines.count == 2)
        let copies = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("drawing.json.corrupt-")
        }
        #expect(copies.count == 1, "\(copies)")
        if let copy = copies.first {
            #expect(try Data(contentsOf: folder.appendingPathComponent(copy)) == garbage)
        }
    }

    @Test("the app's own saves are never taken for changes made by another program (1,000 edits, no reload)")
    func ownSavesAreNotReloaded() async throws {
        let folder = try makeTemporaryFolder("touchtracker-own-saves")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        let touch = try session.server.touch
        for id in 0..<1_000 {
            let y = 20 + Double(id % 440)
            try touch.touchBegin(id: UInt32(id), x: session.root(60, y).x, y: session.root(60, y).y)
            try touch.touchUpdate(id: UInt32(id), x: session.root(300, y).x, y: session.root(300, y).y)
            try touch.touchEnd(id: UInt32(id), x: session.root(580, y).x, y: session.root(580, y).y)
            if id % 100 == 99 { try touch.sync() }
        }
        try touch.sync()
        let saved = try await session.savedDocument(lineCount: 1_000, timeout: .seconds(60))
        #expect(saved.lines.count == 1_000)
        // Give a late notification time to arrive and be (wrongly) acted on.
        try await Task.sleep(for: .milliseconds(500))
        #expect(!session.app.stderr.contains("reloaded"), "\(session.app.transcript)")
        #expect(!session.app.stderr.contains("changed on disk"), "\(session.app.transcript)")
    }

    static let keyControl: Int32 = 37
    static let keyZ: Int32 = 52
}
