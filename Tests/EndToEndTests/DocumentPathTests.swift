import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Every path a person gives the window, and every file beside the document: the real app under a private Xorg,
/// its document reached through links, odd names and folders that go away. Nothing is lost, nothing clobbered.
@Suite("Document paths")
struct DocumentPathTests {
    /// The app on a full 64 KB disk (a tmpfs of the test's), its first line drawn and its save refused, with its
    /// recovery files kept in a state folder of the test's: `body` then does what the test is about.
    private func whileSavesFail(_ name: String, _ body: (AppSession) async throws -> Void) async throws {
        let folder = try makeTemporaryFolder("touchtracker-\(name)")
        let state = try makeTemporaryFolder("touchtracker-\(name)-state")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: state)
        }
        guard try SmallFileSystem.mount(on: folder) else { return }
        defer { SmallFileSystem.unmount(folder) }
        let session = try await AppSession.launch(folder: folder, environment: ["XDG_STATE_HOME": state.path])
        defer { session.stop() }
        _ = try SmallFileSystem.fill(folder)
        try session.stroke(id: 1, y: 100)
        try await session.app.waitForStderrLine(containing: "the disk is full", timeout: .seconds(10))
        try await body(session)
    }

    /// `lines` short lines on a grid in the window's lower part, saved as a document at `path` (by its bytes).
    private func writeDocument(lines: Int, to path: String) throws {
        let drawing = Drawing(
            lines: (0..<lines).map { index in
                let x = 20 + Double(index % 60) * 10
                let y = 250 + Double(index / 60 % 20) * 10
                return Line(begin: Point(x: x, y: y), end: Point(x: x + 6, y: y + 6))
            })
        try DocumentStore(path: path).save(drawing)
    }

    /// Whether `path` is a symlink (not followed).
    private func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// How a document is named through links, relative to a folder holding `real/target.json`.
    enum LinkKind: String, CaseIterable, CustomTestStringConvertible {
        case absolute, relative, chainOfTwo
        var testDescription: String { rawValue }
    }

    @Test(
        "a document opened through a symlink (absolute, relative, a chain of two) gets each line in its target, and the links stay links",
        arguments: LinkKind.allCases)
    func linkedDocumentIsWrittenThrough(kind: LinkKind) async throws {
        let folder = try makeTemporaryFolder("touchtracker-link")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("real"), withIntermediateDirectories: true)
        let target = folder.appendingPathComponent("real/target.json")
        try writeDocument(lines: 1, to: target.path)
        let link = folder.appendingPathComponent("drawing.json")
        switch kind {
        case .absolute:
            #expect(symlink(target.path, link.path) == 0)
        case .relative:
            #expect(symlink("real/target.json", link.path) == 0)
        case .chainOfTwo:
            #expect(symlink("real/target.json", folder.appendingPathComponent("middle").path) == 0)
            #expect(symlink("middle", link.path) == 0)
        }
        let session = try await AppSession.launch(document: link)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        let saved = try await SavedDocument.wait(for: target, lineCount: 2)
        #expect(saved.lines.count == 2)
        #expect(isLink(link.path), "the link was replaced")
        if kind == .chainOfTwo { #expect(isLink(folder.appendingPathComponent("middle").path)) }
        #expect(try await session.app.terminate() == 0)
        #expect(isLink(link.path))
        #expect(SavedDocument.read(target)?.lines.count == 2)
    }

    @Test("another program replacing a linked document's target while the window is open is shown at once")
    func linkedTargetChangedByAnotherProgramIsShown() async throws {
        let folder = try makeTemporaryFolder("touchtracker-link-watch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let target = real.appendingPathComponent("target.json")
        try writeDocument(lines: 1, to: target.path)
        let link = folder.appendingPathComponent("drawing.json")
        #expect(symlink(target.path, link.path) == 0)
        let session = try await AppSession.launch(document: link)
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 1 lines")
        // Another program writes its version beside the target and renames it over it, as editors do.
        let temporary = real.appendingPathComponent(".theirs.tmp")
        try writeDocument(lines: 3, to: temporary.path)
        #expect(rename(temporary.path, target.path) == 0)
        try await session.app.waitForStderrLine(containing: "reloaded drawing.json", timeout: .seconds(5))
        try session.stroke(id: 1, y: 100)
        #expect(try await SavedDocument.wait(for: target, lineCount: 4).lines.count == 4)
        #expect(isLink(link.path))
    }

    @Test("a lock file planted as a symlink to another file is never written: that file is left whole")
    func plantedLockLinkIsNotFollowed() async throws {
        let folder = try makeTemporaryFolder("touchtracker-planted-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("precious.txt")
        try Data("precious\n".utf8).write(to: victim)
        #expect(symlink(victim.path, folder.appendingPathComponent("drawing.json.lock").path) == 0)
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "is a symbolic link, not a lock file", timeout: .seconds(5))
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        #expect(try await session.app.terminate() == 0)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
    }

    @Test("a temporary file name planted as a symlink is never written through: the link's target is left whole")
    func plantedTemporaryLinkIsNotFollowed() async throws {
        let folder = try makeTemporaryFolder("touchtracker-planted-temporary")
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("precious.txt")
        try Data("precious\n".utf8).write(to: victim)
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        // The names a save's temporary file had: `.drawing.json.tmp-PID`, and the same with a counter after it.
        for name in [".drawing.json.tmp-\(session.app.pid)"]
            + (0..<16).map({ ".drawing.json.tmp-\(session.app.pid)-\($0)" })
        {
            #expect(symlink(victim.path, folder.appendingPathComponent(name).path) == 0)
        }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        #expect(!isLink(session.document.path))
        #expect(try await session.app.terminate() == 0)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious\n")
    }

    @Test("a one-character document name relative to the current folder is an ordinary name")
    func oneCharacterDocumentName() async throws {
        let folder = try makeTemporaryFolder("touchtracker-one-character")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await XorgServer.start()
        defer { server.stop() }
        let app = try AppProcess(
            arguments: ["--document", "d", "--geometry", "640x480+100+80", "--verbose"],
            environment: ["DISPLAY": server.display], workingDirectory: folder.path)
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "touchtracker: ready")
        let touch = try server.touch
        try touch.touchBegin(id: 1, x: 200, y: 200)
        try touch.touchUpdate(id: 1, x: 300, y: 220)
        try touch.touchEnd(id: 1, x: 400, y: 240)
        try touch.sync()
        _ = try await SavedDocument.wait(for: folder.appendingPathComponent("d"), lineCount: 1)
        #expect(try await app.terminate() == 0, "\(app.transcript)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("d.window.json").path))
    }

    @Test("a document whose name is 251 bytes long is saved after every edit and at exit")
    func longDocumentNameIsSaved() async throws {
        let folder = try makeTemporaryFolder("touchtracker-long-name")
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = String(repeating: "d", count: 246) + ".json"
        let document = folder.appendingPathComponent(name)
        let session = try await AppSession.launch(document: document)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        try session.stroke(id: 2, y: 200)
        _ = try await session.savedDocument(lineCount: 2)
        #expect(try await session.app.terminate() == 0)
        #expect(!session.app.stderr.contains("cannot"), "\(session.app.transcript)")
        #expect(SavedDocument.read(document)?.lines.count == 2)
    }

    @Test("a document named in Latin-1 (not UTF-8) opens with its lines and saves to the same file")
    func latin1DocumentNameIsKeptAsBytes() async throws {
        let folder = try makeTemporaryFolder("touchtracker-latin1")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nameBytes: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".json".utf8)
        let path = PathText.join(folder.path, PathText.decode(nameBytes))
        try writeDocument(lines: 1, to: path)
        let server = try await XorgServer.start()
        defer { server.stop() }
        let arguments = ["--document", PathText.shown(path), "--geometry", "640x480+100+80", "--verbose"]
        let app = try AppProcess(
            arguments: arguments,
            argumentBytes: [Array("--document".utf8), PathText.bytes(path)]
                + arguments.dropFirst(2).map { Array($0.utf8) },
            environment: ["DISPLAY": server.display])
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "document read: 1 lines")
        let touch = try server.touch
        try touch.touchBegin(id: 1, x: 200, y: 200)
        try touch.touchUpdate(id: 1, x: 300, y: 200)
        try touch.touchEnd(id: 1, x: 400, y: 200)
        try touch.sync()
        try await waitUntil("the Latin-1 file to hold two lines", timeout: .seconds(10), poll: .milliseconds(50)) {
            (try? DocumentStore(path: path).load().lines.count) == 2
        }
        #expect(try await app.terminate() == 0, "\(app.transcript)")
        // No file named with UTF-8's replacement character (EF BF BD) for the byte 0xE9 was written.
        let names = FolderNames.bytes(in: folder.path)
        #expect(
            !names.contains { name in (0..<max(0, name.count - 2)).contains { name[$0..<$0 + 3] == [0xEF, 0xBF, 0xBD] }
            })
    }

    @Test(
        """
        a document's folder deleted while open is made again by the next edit, watched again (another program's \
        change is shown) and locked again (a second window is not opened)
        """)
    func deletedFolderIsWatchedAndLockedAgain() async throws {
        let base = try makeTemporaryFolder("touchtracker-folder-deleted")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("drawings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        try FileManager.default.removeItem(at: folder)
        try session.stroke(id: 2, y: 200)
        #expect(try await session.savedDocument(lineCount: 2).lines.count == 2)
        // Another program replaces the document in the folder made again: the window shows it.
        try await Task.sleep(for: .milliseconds(600))
        let temporary = folder.appendingPathComponent(".theirs.tmp")
        try writeDocument(lines: 3, to: temporary.path)
        #expect(rename(temporary.path, session.document.path) == 0)
        try await session.app.waitForStderrLine(containing: "reloaded drawing.json", timeout: .seconds(5))
        // And the drawing is locked again: a second touchtracker on it brings this window forward.
        let second = try AppProcess(
            arguments: ["--document", session.document.path], environment: ["DISPLAY": session.server.display])
        defer { second.stop() }
        #expect(try await second.waitForExit(timeout: .seconds(10)) == 0, "\(second.transcript)")
        #expect(second.stderr.contains("is already open"), "\(second.transcript)")
    }

    @Test("a document's folder renamed while open: the window closes normally (status 0) and the lock is released")
    func renamedFolderClosesNormally() async throws {
        let base = try makeTemporaryFolder("touchtracker-folder-renamed")
        defer { try? FileManager.default.removeItem(at: base) }
        let folder = base.appendingPathComponent("drawings")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        let moved = base.appendingPathComponent("moved")
        #expect(rename(folder.path, moved.path) == 0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await session.app.terminate() == 0, "\(session.app.transcript)")
        // The drawing is kept at the document's place, and nothing holds it: a new window opens on it.
        #expect(SavedDocument.read(session.document)?.lines.count == 1)
        let next = try await AppSession.launch(document: session.document)
        defer { next.stop() }
        #expect(!next.app.stderr.contains("already open"), "\(next.app.transcript)")
    }

    @Test(
        """
        SIGHUP (the terminal closed) while the drawing cannot be saved finishes the line being drawn and keeps \
        everything in a recovery file, said on stderr
        """)
    func hangUpWhileSaveFailsKeepsRecoveryFile() async throws {
        try await whileSavesFail("hangup") { session in
            // A second line is being drawn when the terminal goes.
            let touch = try session.server.touch
            try touch.touchBegin(id: 2, x: session.root(100, 300).x, y: session.root(100, 300).y)
            try touch.touchUpdate(id: 2, x: session.root(300, 300).x, y: session.root(300, 300).y)
            try touch.sync()
            try await waitUntil("the line in progress on screen", timeout: .seconds(5), poll: .milliseconds(50)) {
                let pixel = try session.screenshot().at(200, 300)
                return pixel.r > 128 && pixel.g < 100
            }
            kill(session.app.pid, SIGHUP)
            let status = try await session.app.waitForExit()
            #expect(status == 0, "\(session.app.transcript)")
            let kept = try #require(
                session.app.stderrLines.first { $0.contains("the drawing was kept in ") }, "\(session.app.transcript)")
            let path = try #require(
                kept.components(separatedBy: "the drawing was kept in ").last?.components(separatedBy: ";").first)
            #expect(SavedDocument.read(URL(fileURLWithPath: path))?.lines.count == 2)
        }
    }

    @Test("losing the X server while the drawing cannot be saved names the recovery file and never claims it was saved")
    func lostServerWhileSaveFailsSaysNotSaved() async throws {
        try await whileSavesFail("lost-server") { session in
            session.server.stop()
            let status = try await session.app.waitForExit()
            #expect(status == 1, "\(session.app.transcript)")
            let stderr = session.app.stderr
            #expect(stderr.contains("the drawing was kept in "), "\(session.app.transcript)")
            #expect(stderr.contains("the drawing could not be saved; exiting"), "\(session.app.transcript)")
            #expect(!stderr.contains("the drawing was saved"), "\(session.app.transcript)")
        }
    }

    @Test(
        "SIGKILL at random moments while saves go through a symlink leaves the target whole and the link in place")
    func killDuringSaveThroughLinkKeepsTargetWhole() async throws {
        let folder = try makeTemporaryFolder("touchtracker-kill-link")
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        let target = real.appendingPathComponent("target.json")
        // Large enough that a save takes a while (tens of milliseconds), so kills land inside saves even when a busy
        // machine polls the folder slowly.
        try writeDocument(lines: 100_000, to: target.path)
        let link = folder.appendingPathComponent("drawing.json")
        #expect(symlink("real/target.json", link.path) == 0)
        let server = try await XorgServer.start()
        defer { server.stop() }
        var killsDuringSave = 0
        for round in 0..<4 {
            let app = try AppProcess(display: server.display, document: link, geometry: (640, 480, 0, 0))
            defer { app.stop() }
            try await app.waitForStderrLine(containing: "document read", timeout: .seconds(20))
            let touch = try server.touch
            try touch.touchBegin(id: 1, x: 100, y: 50 + Double(round) * 20)
            try touch.touchUpdate(id: 1, x: 300, y: 50 + Double(round) * 20)
            try touch.touchEnd(id: 1, x: 500, y: 50 + Double(round) * 20)
            try touch.sync()
            // Kill once the save's temporary file is there (or after 5 s at most).
            let saving = try? await waitForValue("a save under way", timeout: .seconds(5), poll: .milliseconds(1)) {
                try FileManager.default.contentsOfDirectory(atPath: real.path).contains {
                    $0.hasPrefix(".target.json.tmp-")
                } ? true : nil
            }
            if saving != nil { killsDuringSave += 1 }
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...20)))
            _ = try await app.kill()
            #expect(isLink(link.path), "round \(round): the link was replaced")
            let document = try #require(SavedDocument.read(target), "round \(round): the target does not parse")
            #expect(document.lines.count >= 100_000, "round \(round)")
        }
        #expect(killsDuringSave > 0, "no kill landed during a save")
    }
}
