import Foundation
import SeededRandom
import Testing
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 5, "never lose a drawing": the real app under a private Xorg, killed, signalled, cut off from its server and
/// from its touch device.
@Suite("Crash safety")
struct CrashSafetyTests {
    typealias Point = (x: Double, y: Double)

    @Test(
        "killed with SIGKILL at 60 random moments while touches are injected, the app always leaves a document that parses and holds every line completed before the kill"
    )
    func sigkillAtRandomMoments() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let touch = try server.touch
        let document = server.directory.appendingPathComponent("drawing.json")
        var random = SplitMix64(seed: 0x4B11_0005)
        /// Lines the app confirmed by writing them: every one must survive every later kill.
        var confirmed: [SavedDocument.Line] = []
        var kills = 0
        var killsMidStroke = 0
        var killsRightAfterEnd = 0
        let rounds = 60

        for round in 0..<rounds {
            let app = try AppProcess(display: server.display, document: document, geometry: (640, 480, 0, 0))
            defer { app.stop() }
            try await app.waitForStderrLine(containing: "touchtracker: ready")
            // Kill after this many injected events (a stroke is 6), plus a random few milliseconds for some kills,
            // so kills land mid-stroke, between an end and its save, during a save, and between strokes.
            let killAfter = Int(random.next() % 20)
            var sent = 0
            var open: UInt32?
            var unconfirmed: SavedDocument.Line?
            strokes: while true {
                let id = UInt32(random.next() % 10)
                let begin: Point = (Double(20 + random.next() % 600), Double(20 + random.next() % 440))
                let end: Point = (Double(20 + random.next() % 600), Double(20 + random.next() % 440))
                guard abs(begin.x - end.x) + abs(begin.y - end.y) > 60 else { continue }
                let line = SavedDocument.Line(
                    begin: .init(x: begin.x, y: begin.y), end: .init(x: end.x, y: end.y))
                for step in 0...5 {
                    let t = Double(step) / 5
                    let point = (begin.x + (end.x - begin.x) * t, begin.y + (end.y - begin.y) * t)
                    switch step {
                    case 0:
                        try touch.touchBegin(id: id, x: point.0, y: point.1)
                        open = id
                    case 5:
                        try touch.touchEnd(id: id, x: point.0, y: point.1)
                        open = nil
                        unconfirmed = line
                    default:
                        try touch.touchUpdate(id: id, x: point.0, y: point.1)
                    }
                    sent += 1
                    if sent > killAfter { break strokes }
                }
                // The stroke ended: wait until the app has saved it before counting on it.
                try touch.sync()
                _ = try await SavedDocument.wait(for: document, lineCount: confirmed.count + 1)
                confirmed.append(line)
                unconfirmed = nil
            }
            if random.next() % 3 == 0 {
                try touch.sync()
                try await Task.sleep(for: .microseconds(Int(random.next() % 5000)))
            }
            let status = try await app.kill()
            #expect(status == 128 + SIGKILL, "round \(round): \(app.transcript)")
            kills += 1
            if open != nil { killsMidStroke += 1 }
            if unconfirmed != nil { killsRightAfterEnd += 1 }
            if let open {
                // The server still holds the dead client's touch: lift it, or the id stays taken.
                try touch.touchEnd(id: open, x: 1, y: 1)
            }
            try touch.sync()

            // The document must parse (strictly, as the app reads it) and hold every confirmed line, in order; the
            // line ended just before the kill may or may not have made it.
            guard FileManager.default.fileExists(atPath: document.path) else {
                #expect(confirmed.isEmpty, "round \(round): the document vanished")
                continue
            }
            let saved: Drawing
            do {
                saved = try DocumentStore(path: document.path).load()
            } catch {
                Issue.record("round \(round): the document does not parse after a kill: \(error)")
                return
            }
            let allowed = confirmed.count + (unconfirmed == nil ? 0 : 1)
            #expect(
                (confirmed.count...allowed).contains(saved.lines.count),
                "round \(round): \(saved.lines.count) lines on disk, \(confirmed.count) confirmed")
            for (index, expected) in confirmed.enumerated() where index < saved.lines.count {
                let line = saved.lines[index]
                let matches =
                    expected.begin.distance(to: (line.begin.x, line.begin.y)) <= 1
                    && expected.end.distance(to: (line.end.x, line.end.y)) <= 1
                if !matches {
                    Issue.record("round \(round): line \(index) is \(line), expected \(expected)")
                    return
                }
            }
            if saved.lines.count > confirmed.count, let unconfirmed { confirmed.append(unconfirmed) }
        }
        #expect(kills == rounds)
        #expect(confirmed.count >= rounds / 2, "too few lines completed to prove anything: \(confirmed.count)")
        #expect(killsMidStroke > 5 && killsRightAfterEnd > 2, "\(killsMidStroke) mid-stroke, \(killsRightAfterEnd)")
        print(
            "kill test: \(kills) SIGKILLs survived (\(killsMidStroke) mid-stroke, \(killsRightAfterEnd) right after a "
                + "touch end), \(confirmed.count) completed lines all kept")
    }

    @Test(
        "SIGTERM and SIGINT complete the strokes in progress, save and exit with status 0",
        arguments: [SIGTERM, SIGINT])
    func signalsSaveAndExit(signal: Int32) async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await drawLine(session, id: 0, from: (40, 60), to: (400, 60))
        let second: (begin: Point, end: Point) = ((60, 300), (500, 260))
        try await beginStroke(session, id: 1, from: second.begin, to: second.end)

        kill(session.app.pid, signal)
        let status = try await session.app.waitForExit()
        #expect(status == 0, "\(session.app.transcript)")
        let document = try #require(SavedDocument.read(session.document))
        #expect(document.lines.count == 2, "\(document.lines)")
        if let last = document.lines.last {
            #expect(last.begin.distance(to: second.begin) <= 1 && last.end.distance(to: second.end) <= 1, "\(last)")
        }
        #expect(!session.app.stderr.contains("cannot save"), "\(session.app.transcript)")
    }

    @Test("closing the window (WM_DELETE_WINDOW) saves, with the stroke in progress completed, and exits with status 0")
    func closingTheWindowSaves() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await drawLine(session, id: 0, from: (40, 60), to: (400, 60))
        try await beginStroke(session, id: 1, from: (60, 300), to: (500, 260))
        let ready = try await session.app.waitForStderrLine(containing: "ready window=0x")
        let window = try #require(ready.split(separator: "0x").last.flatMap { UInt($0, radix: 16) }, "\(ready)")
        try WindowManagerClose.send(display: session.server.display, window: window)
        let status = try await session.app.waitForExit()
        #expect(status == 0, "\(session.app.transcript)")
        #expect(SavedDocument.read(session.document)?.lines.count == 2, "\(session.app.transcript)")
    }

    @Test(
        "killing the X server makes the app complete its strokes, save, and exit with status 1 and one line saying so")
    func serverDeathSavesAndExits() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await drawLine(session, id: 0, from: (40, 60), to: (400, 60))
        let second: (begin: Point, end: Point) = ((60, 300), (500, 260))
        try await beginStroke(session, id: 1, from: second.begin, to: second.end)

        session.server.kill()
        let status = try await session.app.waitForExit(timeout: .seconds(10))
        #expect(status == 1, "\(session.app.transcript)")
        let lost = session.app.stderrLines.filter { $0.contains("X server") }
        #expect(lost.count == 1, "\(session.app.transcript)")
        #expect(lost.first?.contains("saved") == true, "\(session.app.transcript)")
        #expect(
            !session.app.stderr.contains("XIO") && !session.app.stderr.contains("Fatal"), "\(session.app.transcript)")
        let document = try #require(SavedDocument.read(session.document))
        #expect(document.lines.count == 2, "\(document.lines)")
    }

    @Test("a touch device disabled mid-stroke completes the line at its last point: no stuck red line")
    func deviceRemovedMidStroke() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let stroke: (begin: Point, end: Point) = ((80, 200), (450, 240))
        try await beginStroke(session, id: 3, from: stroke.begin, to: stroke.end)

        let xinput = try ChildProcess(
            executable: "/usr/bin/xinput", arguments: ["disable", "touch"],
            environment: ["DISPLAY": session.server.display, "PATH": "/usr/bin:/bin"])
        #expect(
            xinput.waitForExit(timeout: .seconds(10))?.status == 0, "\(String(decoding: xinput.stderr, as: UTF8.self))")

        let document = try await session.savedDocument(lineCount: 1)
        #expect(document.lines.count == 1)
        if let line = document.lines.first {
            #expect(line.begin.distance(to: stroke.begin) <= 1 && line.end.distance(to: stroke.end) <= 1, "\(line)")
        }
        // Nothing red is left on screen.
        try await waitUntil("no red pixel along the stroke", timeout: .seconds(5), poll: .milliseconds(50)) {
            let shot = try session.screenshot()
            return (0...10).allSatisfy { step in
                let t = Double(step) / 10
                let point = session.root(
                    stroke.begin.x + (stroke.end.x - stroke.begin.x) * t,
                    stroke.begin.y + (stroke.end.y - stroke.begin.y) * t)
                return !isRed(shot.pixel(x: Int(point.x.rounded()), y: Int(point.y.rounded())))
            }
        }
    }

    // MARK: Helpers

    private func isRed(_ pixel: Screenshot.RGB) -> Bool { pixel.r > 180 && pixel.g < 90 && pixel.b < 90 }

    /// Draws a whole line and waits for it to be saved.
    private func drawLine(_ session: AppSession, id: UInt32, from begin: Point, to end: Point) async throws {
        let touch = try session.server.touch
        let before = SavedDocument.read(session.document)?.lines.count ?? 0
        try touch.touchBegin(id: id, x: session.root(begin).x, y: session.root(begin).y)
        for step in 1...6 {
            let t = Double(step) / 6
            let point = session.root(begin.x + (end.x - begin.x) * t, begin.y + (end.y - begin.y) * t)
            try touch.touchUpdate(id: id, x: point.x, y: point.y)
        }
        try touch.touchEnd(id: id, x: session.root(end).x, y: session.root(end).y)
        try touch.sync()
        _ = try await session.savedDocument(lineCount: before + 1)
    }

    /// Puts a finger down at `begin` and drags it to `end` without lifting it, and waits until the red line in
    /// progress reaches `end` on screen (so the app has handled every move).
    private func beginStroke(_ session: AppSession, id: UInt32, from begin: Point, to end: Point) async throws {
        let touch = try session.server.touch
        try touch.touchBegin(id: id, x: session.root(begin).x, y: session.root(begin).y)
        for step in 1...6 {
            let t = Double(step) / 6
            let point = session.root(begin.x + (end.x - begin.x) * t, begin.y + (end.y - begin.y) * t)
            try touch.touchUpdate(id: id, x: point.x, y: point.y)
        }
        try touch.sync()
        let near = session.root(begin.x + (end.x - begin.x) * 0.97, begin.y + (end.y - begin.y) * 0.97)
        try await waitUntil("the red line in progress to reach its end", timeout: .seconds(5), poll: .milliseconds(20))
        {
            isRed(try session.screenshot().pixel(x: Int(near.x.rounded()), y: Int(near.y.rounded())))
        }
    }
}
