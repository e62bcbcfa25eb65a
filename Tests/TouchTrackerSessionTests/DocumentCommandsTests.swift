import Foundation
import Synchronization
import Testing
import TouchKit
import TouchTracker
import TouchTrackerPortal
import TouchTrackerStore

@testable import TouchTrackerSession

/// New, Open… and Save As… in a session (DESIGN.md §3g): the names, the title, and Save As moving the saving, with
/// the dialog's answer posted as the portal's worker posts it.
@Suite final class DocumentCommandsTests {
    let folder: String
    let dataFolder: String

    init() throws {
        folder = NSTemporaryDirectory() + "touchtracker-documents-\(UUID().uuidString)"
        dataFolder = folder + "/data/touchtracker"
        try FileManager.default.createDirectory(atPath: dataFolder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private struct Window {
        let session: DrawingSession
        let sync: DocumentSync
        let commands: DocumentCommands
        let host: InMemoryHost
        let opened: OpenedFiles
    }

    /// The drawings a window asked to open in windows of their own.
    final class OpenedFiles: Sendable {
        let files = Mutex<[String]>([])
        var list: [String] { files.withLock { $0 } }
    }

    /// A session on `path` with New, Open… and Save As… attached, once the document has been read.
    private func open(_ path: String) throws -> Window {
        let opened = OpenedFiles()
        let host = InMemoryHost()
        let environment = ["XDG_STATE_HOME": folder + "/state", "XDG_DATA_HOME": folder + "/data", "HOME": folder]
        let sync = DocumentSync(
            documentPath: path, environment: environment, verbose: false, log: { _ in },
            recentFiles: RecentFiles(environment: environment, home: folder),
            recordsOpening: !DocumentNames.isUntitled(path, dataFolder: dataFolder))
        guard case .open = sync.takeLock() else { throw SessionTestError("the document is locked") }
        var options = SessionOptions(exportPath: PathText.folder(of: path) + "/picture.png")
        options.documentPath = path
        options.painterThreads = 1
        let session = try DrawingSession(
            host: host, width: 400, height: 300, options: options, loadDocument: sync.loadDocument, log: { _ in })
        sync.attach(to: session, window: nil)
        let commands = DocumentCommands(
            dataFolder: dataFolder, home: folder, sync: sync, chooser: PortalFileChooser(environment: [:]),
            newDrawing: {}, openDrawings: { files in opened.files.withLock { $0 += files } })
        session.attachDocumentCommands(commands)
        try waitFor("the document to be read") {
            session.drawFrame()
            return session.controller.onEdit != nil
        }
        return Window(session: session, sync: sync, commands: commands, host: host, opened: opened)
    }

    private func draw(_ session: DrawingSession, from begin: Point, to end: Point) {
        for (step, phase) in [TouchInput.Phase.began, .moved, .ended].enumerated() {
            let t = Double(step) / 2
            let point = Point(x: begin.x + (end.x - begin.x) * t, y: begin.y + (end.y - begin.y) * t)
            let now = MonotonicClock.now()
            session.clock.advance(to: now)
            session.handle(.touch(TouchInput(id: 1, phase: phase, location: point, timestamp: now)))
        }
        session.drawFrame()
    }

    private func lines(in path: String) -> Int? { try? DocumentStore(path: path).load().lines.count }

    @Test(
        "Save As of an untitled drawing: written there, the old file removed, later saves go there, titled and recent")
    func saveAsUntitled() throws {
        let untitled = dataFolder + "/drawing.json"
        let window = try open(untitled)
        #expect(window.session.windowTitle == "Untitled — TouchTracker")
        draw(window.session, from: Point(x: 10, y: 10), to: Point(x: 100, y: 100))
        try waitFor("the untitled drawing saved") { lines(in: untitled) == 1 }
        let chosen = folder + "/sketch"
        window.commands.post(DocumentCommands.Arrival.dialog(.saveAs, .chosen(uris: ["file://" + chosen])))
        try waitFor("the Save As") {
            window.session.drawFrame()
            return window.session.windowTitle == "sketch.touchtracker — TouchTracker"
        }
        let saved = chosen + ".touchtracker"
        #expect(lines(in: saved) == 1)
        #expect(!FileManager.default.fileExists(atPath: untitled))
        #expect(window.sync.documentPath == saved)
        #expect(window.session.documentName == "sketch.touchtracker")
        #expect(window.session.options.documentPath == saved)
        #expect(window.session.options.exportPath == folder + "/sketch.png")
        // The lock moved: the new file's is held, the old one's is free.
        if case .acquired = try DocumentLock.acquire(for: saved) { Issue.record("the new file is not locked") }
        if case .acquired(let lock) = try DocumentLock.acquire(for: untitled) {
            lock.release()
        } else {
            Issue.record("the untitled drawing's lock is still held")
        }
        draw(window.session, from: Point(x: 200, y: 10), to: Point(x: 300, y: 100))
        try waitFor("the next edit saved in the new file") { lines(in: saved) == 2 }
        #expect(!FileManager.default.fileExists(atPath: untitled))
        try waitFor("the new name recorded in recent files") {
            let recent = (try? String(contentsOfFile: folder + "/data/recently-used.xbel", encoding: .utf8)) ?? ""
            return recent.contains("sketch.touchtracker")
        }
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("Save As onto a drawing another window has open is refused, naming its process; nothing moves")
    func saveAsOntoAnOpenDrawing() throws {
        let named = folder + "/mine.touchtracker"
        let window = try open(named)
        #expect(window.session.windowTitle == "mine.touchtracker — TouchTracker")
        draw(window.session, from: Point(x: 10, y: 10), to: Point(x: 100, y: 100))
        let other = folder + "/theirs.touchtracker"
        guard case .acquired(let theirs) = try DocumentLock.acquire(for: other) else {
            throw SessionTestError("cannot lock the other drawing")
        }
        defer { theirs.release() }
        window.commands.post(DocumentCommands.Arrival.dialog(.saveAs, .chosen(uris: ["file://" + other])))
        try waitFor("the refusal") {
            window.session.drawFrame()
            return window.session.controller.notice?.hasPrefix("Save As failed:") == true
        }
        let notice: String = try #require(window.session.controller.notice)
        let expected = "theirs.touchtracker is open in another window (process \(getpid()))"
        #expect(notice.contains(expected))
        #expect(window.sync.documentPath == named)
        #expect(!FileManager.default.fileExists(atPath: other))
        try waitFor("the drawing saved where it was") { lines(in: named) == 1 }
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("a name the app completes with .touchtracker does not replace a file the dialog did not ask about")
    func completedNameNeverReplaces() throws {
        let window = try open(dataFolder + "/untitled-2.touchtracker")
        #expect(window.session.windowTitle == "Untitled 2 — TouchTracker")
        try DocumentStore(path: folder + "/kept.touchtracker").save(Drawing())
        window.commands.post(DocumentCommands.Arrival.dialog(.saveAs, .chosen(uris: ["file://" + folder + "/kept"])))
        try waitFor("the refusal") {
            window.session.drawFrame()
            return window.session.controller.notice?.contains("exists already") == true
        }
        #expect(window.sync.documentPath == dataFolder + "/untitled-2.touchtracker")
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("Ctrl+O from an empty untitled window: the drawings open in windows of their own and this one closes")
    func openFromAnEmptyUntitledWindow() throws {
        let window = try open(dataFolder + "/drawing.json")
        window.commands.post(
            DocumentCommands.Arrival.dialog(
                .open, .chosen(uris: ["file://" + folder + "/a.touchtracker", "file://" + folder + "/b%20c.json"])))
        window.session.drawFrame()
        #expect(window.opened.list == [folder + "/a.touchtracker", folder + "/b c.json"])
        #expect(window.session.wantsToClose)
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("Ctrl+O choosing the empty untitled window's own drawing: its window stays")
    func openOwnDrawing() throws {
        let window = try open(dataFolder + "/drawing.json")
        window.commands.post(
            DocumentCommands.Arrival.dialog(.open, .chosen(uris: ["file://" + dataFolder + "/drawing.json"])))
        window.session.drawFrame()
        #expect(!window.session.wantsToClose)
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("Ctrl+O from a window with a drawing: the drawings open in windows of their own and this one stays")
    func openFromADrawing() throws {
        let window = try open(folder + "/mine.touchtracker")
        window.commands.post(
            DocumentCommands.Arrival.dialog(.open, .chosen(uris: ["file://" + folder + "/a.touchtracker"])))
        window.session.drawFrame()
        #expect(window.opened.list == [folder + "/a.touchtracker"])
        #expect(!window.session.wantsToClose)
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("the dialogs: Open starts in the data folder while untitled, Save As suggests the name and folder")
    func dialogRequests() throws {
        let untitled = try open(dataFolder + "/drawing.json")
        let open = untitled.commands.openRequest(parentWindow: "x11:2a", translate: untranslated)
        #expect(open.kind == .open(multiple: true) && open.parentWindow == "x11:2a")
        #expect(open.currentFolder == PathText.bytes(dataFolder))
        let save = untitled.commands.saveAsRequest(parentWindow: "", translate: untranslated)
        #expect(save.currentName == "Untitled.touchtracker" && save.currentFolder == PathText.bytes(folder))
        #expect(untitled.session.finish())
        untitled.sync.close()
        let named = try self.open(folder + "/sub/mine.json")
        let saveNamed = named.commands.saveAsRequest(parentWindow: "", translate: untranslated)
        #expect(saveNamed.currentName == "mine.json" && saveNamed.currentFolder == PathText.bytes(folder + "/sub"))
        #expect(
            named.commands.openRequest(parentWindow: "", translate: untranslated).currentFolder
                == PathText.bytes(folder + "/sub"))
        #expect(named.session.finish())
        named.sync.close()
    }

    @Test("a Save As dialog that names no file does not drop the results that arrived with it")
    func unusableChoiceKeepsTheRest() throws {
        let window = try open(folder + "/mine.touchtracker")
        window.commands.post(DocumentCommands.Arrival.dialog(.saveAs, .chosen(uris: [])))
        window.commands.post(DocumentCommands.Arrival.savedAs(.refused("the disk is full")))
        window.session.drawFrame()
        #expect(window.session.controller.notice == "Save As failed: the disk is full")
        #expect(window.session.finish())
        window.sync.close()
    }

    @Test("no file dialog: the window says so in one line")
    func noDialog() throws {
        let window = try open(folder + "/mine.touchtracker")
        window.session.controller.handleKey(KeyCommand(key: "o", control: true))
        try waitFor("the notice") {
            window.session.drawFrame()
            return window.session.controller.notice?.hasPrefix("No file dialog: no session bus") == true
        }
        #expect(window.session.finish())
        window.sync.close()
    }
}

/// The names of untitled drawings and the window's title, without a window.
@Suite struct DocumentNamesTests {
    @Test(
        "untitled drawings are drawing.json and untitled-N.touchtracker in the data folder, nothing else",
        arguments: [
            ("/d/touchtracker/drawing.json", true), ("/d/touchtracker/untitled-2.touchtracker", true),
            ("/d/touchtracker/untitled-17.touchtracker", true), ("/d/touchtracker/untitled-1.touchtracker", false),
            ("/d/touchtracker/untitled-02.touchtracker", false), ("/d/touchtracker/untitled-x.touchtracker", false),
            ("/d/touchtracker/sketch.touchtracker", false), ("/elsewhere/drawing.json", false),
            ("/d/touchtracker/sub/drawing.json", false),
        ])
    func untitled(path: String, untitled: Bool) {
        #expect(DocumentNames.isUntitled(path, dataFolder: "/d/touchtracker") == untitled)
    }

    @Test("New takes the first untitled number with neither a file nor a lock")
    func nextUntitled() {
        let taken: Set = ["untitled-2.touchtracker", "untitled-3.touchtracker", "untitled-5.touchtracker"]
        #expect(DocumentNames.nextUntitledName { taken.contains($0) } == "untitled-4.touchtracker")
        #expect(DocumentNames.nextUntitledName { _ in false } == "untitled-2.touchtracker")
    }

    @Test(
        "the window's title names the drawing, then the app",
        arguments: [
            ("/d/t/drawing.json", "Untitled — TouchTracker"),
            ("/d/t/untitled-3.touchtracker", "Untitled 3 — TouchTracker"),
            ("/home/ann/sketch.touchtracker", "sketch.touchtracker — TouchTracker"),
        ])
    func title(path: String, title: String) {
        #expect(DocumentNames.windowTitle(of: path, dataFolder: "/d/t", translate: untranslated) == title)
    }

    @Test("a name that is not UTF-8 is shown with \\x escapes in the title")
    func rawTitle() {
        let path = PathText.decode(Array("/tmp/caf".utf8) + [0xE9] + Array(".json".utf8))
        #expect(
            DocumentNames.windowTitle(of: path, dataFolder: "/d", translate: untranslated)
                == "caf\\xE9.json — TouchTracker")
    }

    @Test(
        "Save As keeps .touchtracker and .json names, and completes others with .touchtracker",
        arguments: [
            ("/a/s.touchtracker", "/a/s.touchtracker", false), ("/a/s.JSON", "/a/s.JSON", false),
            ("/a/sketch", "/a/sketch.touchtracker", true), ("/a/.touchtracker", "/a/.touchtracker.touchtracker", true),
            ("/a/s.png", "/a/s.png.touchtracker", true),
        ])
    func savedPath(chosen: String, path: String, completed: Bool) {
        #expect(DocumentNames.savedPath(for: chosen) == (path, completed))
    }

    @Test("Ctrl+S's picture goes beside the drawing, its extension replaced")
    func picturePath() {
        #expect(DocumentNames.picturePath(for: "/a/sketch.touchtracker") == "/a/sketch.png")
        #expect(DocumentNames.picturePath(for: "/a/b.json") == "/a/b.png")
        #expect(DocumentNames.picturePath(for: "/a/noext") == "/a/noext.png")
    }

    @Test("Ctrl+N, Ctrl+O and Ctrl+Shift+S are the document commands; O alone still toggles circles")
    func keys() {
        #expect(KeyMap.action(for: KeyCommand(key: "n", control: true)) == .document(.new))
        #expect(KeyMap.action(for: KeyCommand(key: "o", control: true)) == .document(.open))
        #expect(KeyMap.action(for: KeyCommand(key: "S", control: true, shift: true)) == .document(.saveAs))
        #expect(KeyMap.action(for: KeyCommand(key: "s", control: true)) == .export)
        #expect(KeyMap.action(for: KeyCommand(key: "o")) == .toggle(.circles))
    }
}
