import Foundation
import Glibc
import Synchronization
import Testing
import TouchKit
import TouchTracker
import TouchTrackerAccessibility
import TouchTrackerRender
import TouchTrackerStore

@testable import TouchTrackerSession

/// The drawing session as a window system drives it, through `InMemoryHost`: events in, frames and saved files
/// out, no X server.
@Suite final class DrawingSessionTests {
    let folder: String
    let documentPath: String

    init() throws {
        folder = NSTemporaryDirectory() + "touchtracker-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        documentPath = folder + "/drawing.json"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A session on a 400x300 window with its document synced, once the document has been read.
    private func open(
        drawing: Drawing? = nil, identityOf: @escaping @Sendable (String) -> FileIdentity? = FileIdentity.of(path:),
        benchmarkFloor: BenchmarkFloor = .off, failedWatches: Int = 0,
        watchGate: DispatchSemaphore? = nil
    ) throws -> (DrawingSession, InMemoryHost, DocumentSync) {
        if let drawing { try DocumentStore(path: documentPath).save(drawing) }
        let host = InMemoryHost()
        let tries = Mutex(0)
        let sync = DocumentSync(
            documentPath: documentPath, environment: ["XDG_STATE_HOME": folder + "/state"], verbose: false,
            log: { _ in }, identityOf: identityOf,
            startWatch: { path, onRewatch, onChange throws(DocumentFileError) in
                // Setting the watch up touches the disk, which may hang: a gate stands for that.
                watchGate?.wait()
                let attempt = tries.withLock { tries in
                    tries += 1
                    return tries
                }
                if attempt <= failedWatches {
                    throw DocumentFileError(path: path, problem: "the limit of inotify instances is reached (made up)")
                }
                return try DocumentWatcher(
                    documentPath: path, reportAtStart: true, onRewatch: onRewatch, onChange: onChange)
            }, watchRetryInterval: 0.1)
        guard case .open = sync.takeLock() else { throw SessionTestError("the document is locked") }
        var options = SessionOptions()
        options.painterThreads = 1
        options.benchmarkFloor = benchmarkFloor
        let session = try DrawingSession(
            host: host, width: 400, height: 300, options: options, loadDocument: sync.loadDocument, log: { _ in })
        sync.attach(to: session, window: nil)
        try waitFor("the document to be read") {
            session.drawFrame()
            return session.controller.onEdit != nil
        }
        return (session, host, sync)
    }

    /// A stroke from `begin` to `end` by touch `id`, as a host's loop delivers it, then a frame.
    private func stroke(_ session: DrawingSession, id: UInt64 = 1, from begin: Point, to end: Point) {
        for (step, phase) in [TouchInput.Phase.began, .moved, .moved, .ended].enumerated() {
            let t = Double(step) / 3
            let point = Point(x: begin.x + (end.x - begin.x) * t, y: begin.y + (end.y - begin.y) * t)
            let now = MonotonicClock.now()
            session.clock.advance(to: now)
            session.handle(.touch(TouchInput(id: id, phase: phase, location: point, timestamp: now)))
        }
        session.drawFrame()
    }

    @Test("a stroke handed to the session is presented in a frame, drawn on the canvas and saved to the document")
    func strokeIsPresentedAndSaved() throws {
        let (session, host, sync) = try open()
        let framesBefore = host.frames.count
        stroke(session, from: Point(x: 50, y: 150), to: Point(x: 350, y: 150))
        #expect(host.frames.count > framesBefore)
        #expect(host.frames.last?.contains(Point(x: 200, y: 150)) == true)
        try waitFor("the canvas to show the line") {
            session.drawFrame()
            return (session.renderer.canvas.pixel(x: 200, y: 150)?.red ?? 255) < 100
        }
        #expect(session.finish())
        sync.close()
        #expect(try DocumentStore(path: documentPath).load().lines.count == 1)
    }

    @Test("closing a window whose drawing was not edited leaves the document as it was, byte for byte")
    func unEditedDocumentIsNotRewritten() throws {
        let line = Line(begin: Point(x: 10, y: 10), end: Point(x: 300, y: 20))
        try DocumentStore(path: documentPath).save(Drawing(lines: [line]))
        // A field a newer version might write, which this one does not know, and a file made read-only.
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: documentPath)))
        let brace = try #require(bytes.lastIndex(of: UInt8(ascii: "}")))
        bytes.replaceSubrange(brace...brace, with: Array(#","comment":"kept"}"#.utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: documentPath))
        #expect(chmod(documentPath, 0o444) == 0)
        let before = try #require(FileIdentity.of(path: documentPath))
        let (session, _, sync) = try open()
        #expect(session.controller.drawingView.drawing.lines == [line])
        #expect(session.finish())
        sync.close()
        #expect(FileIdentity.of(path: documentPath) == before)
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: documentPath))) == bytes)
    }

    @Test("a key pressed after a quiet spell shows its notice for its full time, not already expired")
    func keyNoticeAfterAQuietSpell() throws {
        let (session, _, sync) = try open()
        defer { sync.close() }
        // The loop last woke, and advanced the clock, over two seconds (a notice's time) before the key comes.
        session.clock.advance(to: MonotonicClock.now())
        Thread.sleep(forTimeInterval: 2.2)
        session.handle(.key(KeyCommand(key: "o")))
        session.clock.advance(to: MonotonicClock.now())
        #expect(session.controller.notice == "Two-Finger Circles: on")
    }

    @Test("the document read is shown under what was drawn before it arrived, and both are saved")
    func documentReadIsMergedAndSaved() throws {
        let line = Line(begin: Point(x: 10, y: 10), end: Point(x: 300, y: 20))
        let (session, _, sync) = try open(drawing: Drawing(lines: [line]))
        #expect(session.controller.drawingView.drawing.lines == [line])
        stroke(session, from: Point(x: 50, y: 200), to: Point(x: 350, y: 200))
        #expect(session.finish())
        sync.close()
        #expect(try DocumentStore(path: documentPath).load().lines.count == 2)
    }

    @Test("a screen reader's click on a menu that has since closed is not done in the menu open now")
    func menuClickActsOnlyOnTheMenuSeen() throws {
        let first = Line(begin: Point(x: 10, y: 20), end: Point(x: 300, y: 40))
        let second = Line(begin: Point(x: 50, y: 200), end: Point(x: 350, y: 200))
        let (session, _, sync) = try open(drawing: Drawing(lines: [first, second]))
        defer { sync.close() }
        session.controller.contextClick(at: Point(x: 155, y: 30))
        let seen = try #require(session.controller.menu)
        session.controller.contextClick(at: Point(x: 200, y: 200))
        session.perform(.activateMenuItem(.delete, in: seen))
        #expect(session.controller.drawingView.drawing.lines == [first, second])
    }

    /// A 100 px line drawn and copied (Ctrl+C), the pointer then resting at (300, 250).
    private func copyALine(_ session: DrawingSession, _ host: InMemoryHost) {
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 150, y: 100))
        session.handle(.key(KeyCommand(key: "c", control: true)))
        host.pointer = Point(x: 300, y: 250)
    }

    /// Ctrl+V and a frame; the middle of the line pasted.
    private func pasteMiddle(_ session: DrawingSession) throws -> Point {
        session.handle(.key(KeyCommand(key: "v", control: true)))
        session.drawFrame()
        let pasted = try #require(session.controller.drawingView.drawing.lines.last)
        return Point(x: (pasted.begin.x + pasted.end.x) / 2, y: (pasted.begin.y + pasted.end.y) / 2)
    }

    @Test("Ctrl+C offers the document's type, the PNG and text; Ctrl+V of that copy pastes it at the pointer")
    func copyAndPasteThroughTheHost() throws {
        let (session, host, sync) = try open()
        defer { sync.close() }
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 150, y: 100))
        session.handle(.key(KeyCommand(key: "c", control: true)))
        let offer = try #require(host.clipboard)
        #expect(ClipboardOffer.mimeTypes.compactMap(ClipboardOffer.Encoding.init(mimeType:)).count == 4)
        #expect(offer.shapes.snapshot.shapes.count == 1)
        host.pointer = Point(x: 300, y: 250)
        session.handle(.key(KeyCommand(key: "v", control: true)))
        session.drawFrame()
        let lines = session.controller.drawingView.drawing.lines
        #expect(lines.count == 2)
        let pasted = try #require(lines.last)
        #expect(abs((pasted.begin.x + pasted.end.x) / 2 - 300) < 1 && abs(pasted.begin.y - 250) < 1)
    }

    @Test("Ctrl+V after the arrows moved the keyboard cursor pastes at the cursor, not at the pointer")
    func pasteLandsAtTheKeyboardCursor() throws {
        let (session, host, sync) = try open()
        defer { sync.close() }
        copyALine(session, host)
        for _ in 0..<5 { session.handle(.key(KeyCommand(key: "Left"))) }
        // The cursor starts at the window's middle (200, 150) and went 50 px left.
        #expect(try pasteMiddle(session).distance(to: Point(x: 150, y: 150)) < 1)
    }

    @Test("the pointer reported again where it rests (the window got it back) does not take the paste from the cursor")
    func pointerAtRestKeepsThePasteAtTheCursor() throws {
        let (session, host, sync) = try open()
        defer { sync.close() }
        copyALine(session, host)
        session.handle(.hover(Point(x: 300, y: 250)))
        for _ in 0..<5 { session.handle(.key(KeyCommand(key: "Left"))) }
        session.handle(.hover(Point(x: 300, y: 250)))
        #expect(try pasteMiddle(session).distance(to: Point(x: 150, y: 150)) < 1)
    }

    @Test("a second Ctrl+V while a paste is being read is ignored: the paste lands where it was asked for")
    func secondPasteWhileReadingIsIgnored() throws {
        let (session, host, sync) = try open()
        defer { sync.close() }
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 150, y: 100))
        session.handle(.key(KeyCommand(key: "c", control: true)))
        let copied = try #require(host.clipboard).shapes.snapshot
        host.readsLater = true
        host.pointer = Point(x: 300, y: 250)
        session.handle(.key(KeyCommand(key: "v", control: true)))
        host.pointer = Point(x: 100, y: 50)
        session.handle(.key(KeyCommand(key: "v", control: true)))
        #expect(host.readsStarted == 1)
        session.pasteArrived(.ownCopy(copied))
        let pasted = try #require(session.controller.drawingView.drawing.lines.last)
        #expect(abs((pasted.begin.x + pasted.end.x) / 2 - 300) < 1 && abs(pasted.begin.y - 250) < 1)
    }

    @Test("a document another program writes is shown, and Ctrl+Z brings back what was on screen")
    func outsideChangeIsAdopted() throws {
        let (session, _, sync) = try open()
        defer { sync.close() }
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 350, y: 100))
        try waitFor("the line saved") { (try? DocumentStore(path: documentPath).load().lines.count) == 1 }
        let theirs = Drawing(
            lines: (0..<3).map { Line(begin: Point(x: 20, y: Double($0) * 50 + 20), end: Point(x: 40, y: 40)) })
        try Data(DocumentCodec.encode(theirs)).write(to: URL(fileURLWithPath: folder + "/theirs.tmp"))
        #expect(rename(folder + "/theirs.tmp", documentPath) == 0)
        try waitFor("their drawing on screen") {
            session.drawFrame()
            return session.controller.drawingView.drawing.lines.count == 3
        }
        session.handle(.key(KeyCommand(key: "z", control: true)))
        #expect(session.controller.drawingView.drawing.lines.count == 1)
    }

    @Test(
        "a watch that could not be set up at first is tried again, and then another program's version is shown (first tries' failure injected)"
    )
    func watchIsTriedAgain() throws {
        let (session, _, sync) = try open(failedWatches: 2)
        defer { sync.close() }
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 350, y: 100))
        try waitFor("the line saved") { (try? DocumentStore(path: documentPath).load().lines.count) == 1 }
        // Time for the third try, which works.
        Thread.sleep(forTimeInterval: 0.5)
        let theirs = Drawing(lines: [Line(begin: Point(x: 20, y: 20), end: Point(x: 40, y: 40))])
        try Data(DocumentCodec.encode(theirs)).write(to: URL(fileURLWithPath: folder + "/theirs.tmp"))
        #expect(rename(folder + "/theirs.tmp", documentPath) == 0)
        try waitFor("their drawing on screen") {
            session.drawFrame()
            return session.controller.drawingView.drawing.lines.first?.begin == Point(x: 20, y: 20)
        }
    }

    @Test("while setting up the document's watch hangs, the session keeps taking input and presenting frames")
    func hungWatchSetupHoldsNothing() throws {
        let gate = DispatchSemaphore(value: 0)
        defer { gate.signal() }
        let (session, host, sync) = try open(watchGate: gate)
        defer { sync.close() }
        let framesBefore = host.frames.count
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 350, y: 100))
        #expect(session.controller.drawingView.drawing.lines.count == 1)
        #expect(host.frames.count > framesBefore)
        try waitFor("the line saved") { (try? DocumentStore(path: documentPath).load().lines.count) == 1 }
    }

    @Test("the shapes of a version another program wrote get new IDs, so an ID kept from before names none of them")
    func reloadedShapesGetNewIDs() throws {
        let (session, _, sync) = try open()
        defer { sync.close() }
        stroke(session, from: Point(x: 50, y: 100), to: Point(x: 350, y: 100))
        try waitFor("the line saved") { (try? DocumentStore(path: documentPath).load().lines.count) == 1 }
        let before = try #require(session.controller.drawingView.shapes.order.max())
        let theirs = Drawing(lines: (0..<3).map { Line(begin: Point(x: 20, y: Double($0) * 50 + 20), end: .zero) })
        try Data(DocumentCodec.encode(theirs)).write(to: URL(fileURLWithPath: folder + "/theirs.tmp"))
        #expect(rename(folder + "/theirs.tmp", documentPath) == 0)
        try waitFor("their drawing on screen") {
            session.drawFrame()
            return session.controller.drawingView.drawing.lines.count == 3
        }
        #expect(session.controller.drawingView.shapes.order.allSatisfy { $0 > before })
    }

    @Test("while a save's look at the document hangs, the session keeps taking input and presenting frames")
    func framesGoOnWhileTheDiskHangs() throws {
        let hung = Hang()
        let (session, host, sync) = try open(identityOf: { path in
            hung.waitWhileHung()
            return FileIdentity.of(path: path)
        })
        hung.start()
        stroke(session, id: 1, from: Point(x: 20, y: 40), to: Point(x: 380, y: 40))
        try waitFor("a save to look at the document") { hung.isSomeoneWaiting }
        // The writer's thread is stuck now. Each stroke below is an edit the loop hands over, and a frame.
        var presented = 0
        for row in 1...10 {
            let before = host.frames.count
            stroke(session, id: UInt64(row + 1), from: Point(x: 20, y: 40 + Double(row) * 20), to: Point(x: 380, y: 45))
            if host.frames.count > before { presented += 1 }
        }
        hung.end()
        #expect(presented == 10)
        #expect(session.finish())
        sync.close()
        #expect(try DocumentStore(path: documentPath).load().lines.count == 11)
    }

    @Test(
        "with the benchmark's floor switch, a SIGUSR1 stops frames drawing, though they are presented, and the next one brings drawing back, all of it"
    )
    func benchmarkFloorIsSwitchedBySignal() throws {
        let (session, host, sync) = try open(benchmarkFloor: .toggledBySignal)
        defer { sync.close() }
        #expect(!BenchmarkFloor.toggledBySignal.isOn)
        // `raise` signals this thread, which may not be the one that installed the handler and unblocked it.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR1)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(SIGUSR1)
        let framesBefore = host.frames.count
        stroke(session, from: Point(x: 50, y: 50), to: Point(x: 350, y: 50))
        #expect(host.frames.count > framesBefore)
        #expect(host.frames.last?.contains(Point(x: 200, y: 50)) == true)
        #expect(session.renderer.canvas.pixel(x: 200, y: 50)?.red == 255, "nothing drawn while the floor is on")
        // The line's tiles are painted and shown (nothing drawn) while the floor is still on.
        try waitFor("the tiles to be painted") {
            session.drawFrame()
            return session.renderer.tilesComplete
        }
        #expect(session.renderer.canvas.pixel(x: 200, y: 50)?.red == 255)
        raise(SIGUSR1)
        #expect(!BenchmarkFloor.toggledBySignal.isOn)
        // A line in another row of tiles: the first frame after the floor goes off shows the first line too.
        stroke(session, id: 2, from: Point(x: 50, y: 280), to: Point(x: 350, y: 280))
        #expect((session.renderer.canvas.pixel(x: 200, y: 50)?.red ?? 255) < 100)
        #expect((session.renderer.canvas.pixel(x: 200, y: 280)?.red ?? 255) < 100, "the new line drawn")
    }

    @Test("an empty drawing shows the gestures in the middle of the window until the first touch, and only there")
    func emptyWindowShowsTheGestureHintUntilTheFirstTouch() throws {
        let (session, _, sync) = try open()
        defer { sync.close() }
        #expect(session.controller.overlay.hint == .gestureHint)
        let middleRows = (120..<180).flatMap { y in (0..<400).map { x in (x, y) } }
        func inkedPixels() -> Int {
            middleRows.count { session.renderer.canvas.pixel(x: $0.0, y: $0.1).map { $0.red < 200 } ?? false }
        }
        #expect(inkedPixels() > 100, "the hint's text should be drawn in the middle of the window")
        let now = MonotonicClock.now()
        session.clock.advance(to: now)
        session.handle(.touch(TouchInput(id: 1, phase: .began, location: Point(x: 20, y: 20), timestamp: now)))
        session.drawFrame()
        #expect(session.controller.overlay.hint == nil)
        #expect(inkedPixels() == 0)
    }

    @Test("Ctrl+S writes the drawing as a PNG beside the document, off the loop, and the next frames take its outcome")
    func exportIsWritten() throws {
        let host = InMemoryHost()
        let exportPath = folder + "/drawing.png"
        var options = SessionOptions(exportPath: exportPath)
        options.painterThreads = 1
        let session = try DrawingSession(
            host: host, width: 200, height: 100, options: options, loadDocument: { Drawing() }, log: { _ in })
        stroke(session, from: Point(x: 10, y: 50), to: Point(x: 190, y: 50))
        session.handle(.key(KeyCommand(key: "s", control: true)))
        try waitFor("the export written") {
            session.drawFrame()
            return FileManager.default.fileExists(atPath: exportPath)
        }
        let png = try CairoSurface(readingPNG: exportPath)
        #expect((png.pixel(x: 100, y: 50)?.red ?? 255) < 100)
        session.finish()
    }
}

/// A file system call that hangs until released (what a stalled network mount does).
final class Hang: Sendable {
    private let state = Mutex((hung: false, waiting: 0))
    private let released = DispatchSemaphore(value: 0)

    func start() { state.withLock { $0.hung = true } }

    var isSomeoneWaiting: Bool { state.withLock { $0.waiting > 0 } }

    func waitWhileHung() {
        let hung = state.withLock { state -> Bool in
            if state.hung { state.waiting += 1 }
            return state.hung
        }
        if hung { released.wait() }
    }

    func end() {
        let waiting = state.withLock { state -> Int in
            state.hung = false
            return state.waiting
        }
        for _ in 0..<waiting { released.signal() }
    }
}

struct SessionTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` every millisecond for up to 10 s.
func waitFor(_ what: String, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
        if try condition() { return }
        usleep(1000)
    }
    throw SessionTestError("timed out waiting for \(what)")
}
