import Foundation
import SeededRandom
import Synchronization
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// A 100,000-line drawing never freezes the window: touches are drawn from the first frame while the tiles are
/// still being painted, a tap selects exactly the line it lands on, saving runs in the background without ever
/// leaving a torn file, and a full disk costs no line.
@Suite("Large drawings", .serialized)
struct LargeDrawingTests {
    /// `count` random lines, 20 to 200 px long, over a 640x480 window, below `spare` (the rows kept free).
    static func randomDrawing(_ count: Int, seed: UInt64 = 21, spare: Double = 0) -> Drawing {
        var generator = SplitMix64(seed: seed)
        let lines = (0..<count).map { _ in
            let begin = Point(
                x: Double.random(in: 0..<640, using: &generator), y: Double.random(in: spare..<480, using: &generator))
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &generator)
            let length = Double.random(in: 20...200, using: &generator)
            let end = Point(x: begin.x + length * cos(angle), y: max(spare, begin.y + length * sin(angle)))
            return Line(begin: begin, end: end)
        }
        return Drawing(lines: lines)
    }

    /// Draws `count` horizontal lines one after another (touch ids 0, 1, …), from x `from` to `to`, the first at
    /// `firstY` and each next `spacing` lower, without waiting between them.
    private func drawRows(
        _ session: AppSession, count: Int, firstY: Double, spacing: Double, from: Double, to: Double
    ) throws {
        let touch = try session.server.touch
        for id in 0..<count {
            let y = firstY + spacing * Double(id)
            try touch.touchBegin(id: UInt32(id), x: session.root(from, y).x, y: session.root(from, y).y)
            for step in 1...4 {
                let x = from + (to - from) * Double(step) / 5
                try touch.touchUpdate(id: UInt32(id), x: session.root(x, y).x, y: session.root(x, y).y)
            }
            try touch.touchEnd(id: UInt32(id), x: session.root(to, y).x, y: session.root(to, y).y)
        }
        try touch.sync()
    }

    /// CLOCK_MONOTONIC in seconds: the clock of the app's `--trace-frames` times.
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func isRed(_ pixel: Screenshot.RGB) -> Bool { pixel.r > 180 && pixel.g < 90 && pixel.b < 90 }
    private func isGreen(_ pixel: Screenshot.RGB) -> Bool { pixel.g > 200 && pixel.r < 60 && pixel.b < 60 }

    /// The time of the first trace line containing `marker` (from `--trace-frames`) at or after `after`, and for a
    /// frame, one that includes at least `touches` touch events.
    private func traceTime(
        _ session: AppSession, _ marker: String, touchesAtLeast touches: Int = 0, after: Double = 0
    ) -> Double? {
        for line in session.app.stderrLines where line.contains(marker) {
            let fields = line.split(separator: " ")
            guard let t = fields.first(where: { $0.hasPrefix("t=") }).flatMap({ Double($0.dropFirst(2)) }) else {
                continue
            }
            let handled = fields.first(where: { $0.hasPrefix("touches=") }).flatMap { Int($0.dropFirst(8)) } ?? 0
            if handled >= touches, t >= after { return t }
        }
        return nil
    }

    /// When the stroke of `strokeWhileOpening` began (CLOCK_MONOTONIC seconds), or why it could not, from the
    /// thread that drew it.
    final class StrokeStart: Sendable {
        let state = Mutex<(began: Double?, failure: String?)>((nil, nil))
    }

    @Test("a stroke drawn as soon as a 100,000-line drawing opens shows while its tiles are painted, and is saved")
    func strokeWhileOpening() async throws {
        let frame = AppSession.Frame(x: 100, y: 80, width: 640, height: 480)
        let root: @Sendable (Double, Double) -> (x: Double, y: Double) = { x, y in
            (x + Double(frame.x), y + Double(frame.y))
        }
        let start = StrokeStart()
        // The stroke goes down the moment the first frame is traced, from a thread of its own: the test's own
        // tasks can wait a second for a thread of the cooperative pool while every suite runs at once.
        let session = try await AppSession.launch(
            frame: frame, drawing: Self.randomDrawing(100_000, spare: 60), extraArguments: ["--trace-frames"]
        ) { server, app in
            Thread.detachNewThread {
                let deadline = Self.monotonicNow() + 120
                while !app.stderrLines.contains(where: { $0.contains("frame presented") }) {
                    guard app.isRunning, Self.monotonicNow() < deadline else {
                        start.state.withLock { $0.failure = "no first frame" }
                        return
                    }
                    usleep(1000)
                }
                do {
                    let touch = try server.touch
                    // Along the top rows, which the drawing leaves empty: red there can only be the stroke.
                    let began = Self.monotonicNow()
                    try touch.touchBegin(id: 1, x: root(40, 30).x, y: root(40, 30).y)
                    for step in 1...10 {
                        try touch.touchUpdate(id: 1, x: root(40 + 50 * Double(step), 30).x, y: root(0, 30).y)
                    }
                    try touch.sync()
                    start.state.withLock { $0.began = began }
                } catch {
                    start.state.withLock { $0.failure = "\(error)" }
                }
            }
        }
        defer { session.stop() }
        let began = try await waitForValue("the stroke to be sent", timeout: .seconds(130)) {
            let (began, failure) = start.state.withLock { $0 }
            if let failure { throw AppProcess.AppError(description: "the stroke could not be drawn: \(failure)") }
            return began
        }
        let touch = try session.server.touch
        try await waitUntil("the stroke in progress to show red", timeout: .seconds(5), poll: .milliseconds(20)) {
            let shot = try session.screenshot()
            return isRed(shot.pixel(x: Int(session.root(300, 30).x), y: Int(session.root(300, 30).y)))
        }
        try touch.touchEnd(id: 1, x: session.root(540, 30).x, y: session.root(540, 30).y)
        try touch.sync()
        // That it is saved is this test's to check; how soon is the bench's. A debug build reading, indexing and
        // then saving 100,000 lines while every other suite runs on the same two cores has taken over 30 s.
        let saved = try await session.savedDocument(lineCount: 100_001, timeout: .seconds(120))
        let last = try #require(saved.lines.last)
        #expect(last.begin.distance(to: (40, 30)) < 1 && last.end.distance(to: (540, 30)) < 1, "\(last)")
        // The stroke began within the first 200 ms the window showed (both times are CLOCK_MONOTONIC), and it was
        // drawn while the tiles were still being painted. (How soon it showed is the bench's to measure: on a
        // machine running every suite at once it says nothing about the app.)
        let firstFrame = try #require(traceTime(session, "frame presented"))
        let delay = Int((began - firstFrame) * 1000)
        #expect(began - firstFrame < 0.2, "the stroke began \(delay) ms after the first frame")
        let strokeShown = try #require(traceTime(session, "frame presented", touchesAtLeast: 2))
        // Not after the tiles were all painted (if they are by now: on a loaded machine they may take long).
        let read = try #require(traceTime(session, "document read"))
        if let complete = traceTime(session, "tiles complete", after: read) {
            #expect(strokeShown < complete, "the stroke should have been drawn before the tiles were all painted")
        }
    }

    @Test("a tap while the tiles are still being painted selects exactly the line it lands on")
    func tapWhilePainting() async throws {
        // The topmost line, across the window: a tap on it must select it whatever the tiles show yet.
        let target = Line(begin: Point(x: 60, y: 240), end: Point(x: 580, y: 240))
        var drawing = Self.randomDrawing(100_000, seed: 22)
        drawing.lines.append(target)
        // One painter: on a quiet machine two could finish every tile before the tap, and the tap would no longer
        // be one made while the tiles are being painted. Even one can, when this process reads the app's "document
        // read" late on a loaded machine: then the scenario was not set up, and a new window is tried (the
        // selection itself is checked every time there was a tap).
        for attempt in 1...3 {
            let session = try await AppSession.launch(
                drawing: drawing, extraArguments: ["--trace-frames", "--painter-threads", "1"])
            defer { session.stop() }
            // Once the document is on the canvas (before, the line is not shown, and a tap there rightly selects
            // nothing), while its tiles are still being painted.
            try await session.app.waitForStderrLine(containing: "document read t=", timeout: .seconds(90))
            let read = try #require(traceTime(session, "document read"))
            if traceTime(session, "tiles complete", after: read) != nil {
                if attempt == 3 { Issue.record("the tiles were complete before the tap in 3 windows") }
                continue
            }
            let touch = try session.server.touch
            let tap = session.root(320, 243)
            try touch.touchBegin(id: 1, x: tap.x, y: tap.y)
            try touch.touchEnd(id: 1, x: tap.x, y: tap.y)
            try touch.sync()
            try await waitUntil("the tapped line to turn green", timeout: .seconds(10), poll: .milliseconds(20)) {
                let shot = try session.screenshot()
                return [100, 320, 540].allSatisfy { x in
                    isGreen(shot.pixel(x: Int(session.root(Double(x), 240).x), y: Int(session.root(0, 240).y)))
                }
            }
            // The line stays selected as the tiles under it are repainted and swapped in.
            try await Task.sleep(for: .milliseconds(300))
            let shot = try session.screenshot()
            #expect(isGreen(shot.pixel(x: Int(session.root(320, 240).x), y: Int(session.root(0, 240).y))))
            return
        }
    }

    @Test("a SIGKILL while a 100,000-line drawing is saved in the background leaves a whole document, never a torn one")
    func sigkillDuringBackgroundSave() async throws {
        var generator = SplitMix64(seed: 23)
        var interrupted = 0
        for round in 0..<4 {
            let session = try await AppSession.launch(
                drawing: Self.randomDrawing(100_000, seed: 30 + UInt64(round)), extraArguments: ["--trace-frames"])
            defer { session.stop() }
            // Once the document is read (before, nothing is saved: the lines would be merged into it first).
            try await session.app.waitForStderrLine(containing: "document read t=", timeout: .seconds(90))
            // The kill comes once a save is writing its temporary file (`.drawing.json.tmp-PID-RANDOM`), soon after.
            let folder = session.document.deletingLastPathComponent().path
            let temporary = ".drawing.json.tmp-\(session.app.pid)-"
            func writing() throws -> Bool {
                try FileManager.default.contentsOfDirectory(atPath: folder).contains { $0.hasPrefix(temporary) }
            }
            // Lines in quick succession: each starts a save of about 12 MB while the previous may still run. A
            // save's temporary file lasts some tens of milliseconds, and on a loaded machine this process's looks
            // can miss every one: then three more lines start more saves (up to ten times).
            var drawn = 0
            var seen = false
            for _ in 0..<10 where !seen {
                try drawRows(session, count: 3, firstY: 100, spacing: 40, from: 100, to: 400)
                drawn += 3
                let deadline = ContinuousClock.now + .seconds(6)
                while !seen, ContinuousClock.now < deadline {
                    seen = try writing()
                    if !seen { try await Task.sleep(for: .milliseconds(1)) }
                }
            }
            try #require(seen, "round \(round): no save was seen writing its temporary file")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...30, using: &generator)))
            try await session.app.kill()
            let loaded = try DocumentStore(path: session.document.path).load()
            #expect(
                (100_000...100_000 + drawn).contains(loaded.lines.count), "round \(round): \(loaded.lines.count) lines")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(leftovers.allSatisfy { !$0.hasSuffix(".json") || $0 == "drawing.json" }, "\(leftovers)")
            // A temporary file left behind: the kill cut a save short.
            if leftovers.contains(where: { $0.hasPrefix(temporary) }) { interrupted += 1 }
        }
        #expect(interrupted > 0, "no kill came while a save was being written")
    }

    @Test("a full disk keeps every edit in memory, and the app saves them all by itself once there is room")
    func fullDiskSavesLater() async throws {
        let folder = try makeTemporaryFolder("touchtracker-full-disk")
        defer { try? FileManager.default.removeItem(at: folder) }
        guard try SmallFileSystem.mount(on: folder) else { return }
        defer { SmallFileSystem.unmount(folder) }
        let session = try await AppSession.launch(drawing: Self.randomDrawing(3), folder: folder)
        defer { session.stop() }
        // Fill what is left of the disk.
        let filler = try SmallFileSystem.fill(folder)
        try drawRows(session, count: 5, firstY: 60, spacing: 60, from: 100, to: 420)
        try await session.app.waitForStderrLine(containing: "the disk is full", timeout: .seconds(10))
        #expect(session.app.isRunning)
        #expect(SavedDocument.read(session.document)?.lines.count == 3)
        // The window says so, and keeps saying so: the notice stays while the drawing is not saved.
        try await session.app.waitForStderrLine(
            containing: "notice shown: Not saved: the disk is full — retrying", timeout: .seconds(5))
        try await Task.sleep(for: .seconds(3))
        #expect(isNoticeShown(try session.screenshot()), "the notice went before the drawing was saved")
        try FileManager.default.removeItem(at: filler)
        // No new edit: the writer's own retry saves everything, and the notice goes.
        let saved = try await session.savedDocument(lineCount: 8, timeout: .seconds(20))
        #expect(saved.lines.count == 8)
        try await session.app.waitForStderrLine(
            containing: "saved \(session.document.path) after", timeout: .seconds(5))
        try await session.app.waitForStderrLine(containing: "standing notice gone", timeout: .seconds(5))
        try await waitUntil("the notice to go", timeout: .seconds(5), poll: .milliseconds(100)) {
            try !isNoticeShown(session.screenshot())
        }
    }

    /// The notice's dark bar at the bottom centre of a 640x480 window (36 px high, 24 px above the edge).
    private func isNoticeShown(_ shot: Screenshot) -> Bool {
        let pixel = shot.at(320, 430)
        return max(pixel.r, pixel.g, pixel.b) < 70
    }

    @Test(
        """
        an exit while the drawing cannot be saved keeps it in a recovery file that reads back the same, and the next \
        start on the document says where it is
        """)
    func exitWithFailingSaveKeepsRecoveryFile() async throws {
        let folder = try makeTemporaryFolder("touchtracker-recovery")
        let state = try makeTemporaryFolder("touchtracker-state")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: state)
        }
        guard try SmallFileSystem.mount(on: folder) else { return }
        defer { SmallFileSystem.unmount(folder) }
        let environment: [String: String?] = ["XDG_STATE_HOME": state.path]
        let session = try await AppSession.launch(
            drawing: Self.randomDrawing(3), folder: folder, environment: environment)
        defer { session.stop() }
        _ = try SmallFileSystem.fill(folder)
        try drawRows(session, count: 5, firstY: 60, spacing: 60, from: 100, to: 420)
        try await session.app.waitForStderrLine(containing: "the disk is full", timeout: .seconds(10))
        // Every stroke handled (the last row is on screen) before the app is told to quit.
        try await waitUntil("the fifth line on screen", timeout: .seconds(10), poll: .milliseconds(100)) {
            try session.screenshot().at(260, 300).isBlackish
        }
        #expect(try await session.app.terminate() == 0)
        let kept = try #require(
            session.app.stderrLines.first { $0.contains("the drawing was kept in ") }, "\(session.app.transcript)")
        let path = try #require(
            kept.components(separatedBy: "the drawing was kept in ").last?.components(separatedBy: ";").first)
        #expect(path.hasPrefix(state.path + "/touchtracker/drawing-"), "\(path)")
        let recovered = try #require(SavedDocument.read(URL(fileURLWithPath: path)), "no readable file at \(path)")
        #expect(recovered.lines.count == 8)
        // The document itself still holds the last save that worked.
        #expect(SavedDocument.read(session.document)?.lines.count == 3)

        let next = try await AppSession.launch(folder: folder, environment: environment)
        defer { next.stop() }
        try await next.app.waitForStderrLine(
            containing: "an unsaved copy of this drawing was kept in \(path)", timeout: .seconds(5))
        // Said once the document is read (the recovery folders are looked at then, off the loop), at a frame soon after.
        try await waitUntil("the window to say where the copy is", timeout: .seconds(5), poll: .milliseconds(50)) {
            try isNoticeShown(next.screenshot())
        }
    }
}
