import Foundation
import Testing
import XorgTestSupport

/// Drives the real `touchtracker` on a private Xorg with inputtest touch and pointer devices.
/// Each test gets its own server and app; coordinates are window coordinates unless named root.
@Suite("Drawing lines")
struct DrawingTests {
    typealias Point = (x: Double, y: Double)

    @Test("two simultaneous touches moving along different paths save exactly those two lines and draw them in black")
    func twoSimultaneousTouchesDrawTwoLines() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let touch = try session.server.touch

        let first: (begin: Point, end: Point) = ((40, 60), (400, 100))
        let second: (begin: Point, end: Point) = ((60, 400), (520, 300))
        try touch.touchBegin(id: 0, at: session.root(first.begin))
        try touch.touchBegin(id: 1, at: session.root(second.begin))
        let steps = 12
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            try touch.touchUpdate(id: 0, at: session.root(interpolate(first.begin, first.end, t)))
            try touch.touchUpdate(id: 1, at: session.root(interpolate(second.begin, second.end, t)))
        }
        try touch.touchEnd(id: 0, at: session.root(first.end))
        try touch.touchEnd(id: 1, at: session.root(second.end))
        try touch.sync()

        let document = try await session.savedDocument(lineCount: 2)
        #expect(document.version == 1)
        #expect(document.lines.count == 2, "\(document.lines)")
        for expected in [first, second] {
            #expect(
                document.lines.contains {
                    $0.begin.distance(to: expected.begin) <= 1 && $0.end.distance(to: expected.end) <= 1
                },
                "no saved line \(expected.begin)→\(expected.end) in \(document.lines)")
        }

        let whiteSpots: [Point] = [(320, 200), (600, 40), (20, 460), (620, 460), (222, 50), (218, 110), (290, 330)]
        try await expectDrawn(lines: [first, second], whiteSpots: whiteSpots, in: session, name: "two-touches")

        // Pointer events the server emulates from the touches must not have drawn a third line.
        #expect(SavedDocument.read(session.document)?.lines.count == 2)
    }

    @Test(
        """
        a touch line reaches the screen in black at 24-bit depth through shared memory, at 24-bit depth without \
        MIT-SHM (as on a remote display) and at 16-bit depth (Cairo's Xlib surface)
        """,
        arguments: [
            (24, [], "frames: XShmPutImage from shared memory"),
            (24, ["MIT-SHM"], "frames: XPutImage from the canvas's memory"),
            (16, [], "frames: through a Cairo Xlib surface"),
        ])
    func touchLineAtEachScreenDepth(depth: Int, disabledExtensions: [String], presentation: String) async throws {
        let session = try await AppSession.launch(depth: depth, disabledExtensions: disabledExtensions)
        defer { session.stop() }
        #expect(session.app.stderr.contains(presentation), "\(session.app.transcript)")
        let touch = try session.server.touch
        let line: (begin: Point, end: Point) = ((60, 80), (560, 380))
        try touch.touchBegin(id: 0, at: session.root(line.begin))
        for step in 1...12 {
            try touch.touchUpdate(id: 0, at: session.root(interpolate(line.begin, line.end, Double(step) / 12)))
        }
        try touch.touchEnd(id: 0, at: session.root(line.end))
        try touch.sync()
        _ = try await session.savedDocument(lineCount: 1)
        try await expectDrawn(
            lines: [line], whiteSpots: [(560, 80), (60, 380), (320, 100)], in: session,
            name: "depth-\(depth)\(disabledExtensions.isEmpty ? "" : "-without-shm")")
    }

    @Test("dragging the mouse with button 1 saves one line and draws it in black")
    func mouseDragDrawsOneLine() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let pointer = try session.server.pointer

        let line: (begin: Point, end: Point) = ((80, 420), (560, 90))
        try pointer.moveTo(at: session.root(line.begin))
        try pointer.buttonDown(1)
        let steps = 12
        for step in 1...steps {
            try pointer.moveTo(at: session.root(interpolate(line.begin, line.end, Double(step) / Double(steps))))
        }
        try pointer.buttonUp(1)
        try pointer.sync()

        let document = try await session.savedDocument(lineCount: 1)
        #expect(document.lines.count == 1, "\(document.lines)")
        let saved = try #require(document.lines.first)
        #expect(saved.begin.distance(to: line.begin) <= 1, "\(saved)")
        #expect(saved.end.distance(to: line.end) <= 1, "\(saved)")

        try await expectDrawn(
            lines: [line], whiteSpots: [(100, 60), (540, 440), (300, 200), (340, 320)], in: session, name: "mouse-drag")
    }

    @Test("a touch that moves less than 10 px draws no line")
    func shortTouchDrawsNothing() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let touch = try session.server.touch

        // A tap that wobbles 5 px, then a real line so the document gets saved.
        try touch.touchBegin(id: 0, at: session.root((300, 240)))
        try touch.touchUpdate(id: 0, at: session.root((303, 244)))
        try touch.touchEnd(id: 0, at: session.root((303, 244)))
        let line: (begin: Point, end: Point) = ((50, 50), (250, 50))
        try touch.touchBegin(id: 1, at: session.root(line.begin))
        try touch.touchUpdate(id: 1, at: session.root((150, 50)))
        try touch.touchUpdate(id: 1, at: session.root(line.end))
        try touch.touchEnd(id: 1, at: session.root(line.end))
        try touch.sync()

        let document = try await session.savedDocument(lineCount: 1)
        #expect(document.lines.count == 1, "\(document.lines)")
        let saved = try #require(document.lines.first)
        #expect(saved.begin.distance(to: line.begin) <= 1 && saved.end.distance(to: line.end) <= 1, "\(saved)")
        try await expectDrawn(lines: [line], whiteSpots: [(300, 240), (303, 244)], in: session, name: "short-touch")
    }

    @Test("a completed line is drawn black, about 10 px wide, with round caps")
    func completedLineHasWidthAndRoundCaps() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let touch = try session.server.touch

        let line: (begin: Point, end: Point) = ((100, 200), (400, 200))
        try touch.touchBegin(id: 0, at: session.root(line.begin))
        for x in stride(from: 150.0, through: 400, by: 50) {
            try touch.touchUpdate(id: 0, at: session.root((x, 200)))
        }
        try touch.touchEnd(id: 0, at: session.root(line.end))
        try touch.sync()
        _ = try await session.savedDocument(lineCount: 1)

        // Pixel (i, j) has its centre at (i + 0.5, j + 0.5); margins allow the app to put the
        // line's centre at 200 or 200.5. Width: 3.5 to 4.5 px off the centre is inside a 10 px
        // line, 7.5 to 8.5 px off is outside. Caps: 2 to 2.5 px beyond an end is inside a round
        // cap (outside a butt cap); the cap's corners (about 6.4 px away) are outside a round cap
        // but inside a square one.
        let black: [Point] = [(250, 196), (250, 204), (97, 200), (402, 200)]
        let white: [Point] = [(250, 192), (250, 208), (95, 195), (95, 205), (405, 195), (405, 205)]
        try await expectDrawn(
            lines: [line], whiteSpots: white, blackSpots: black, in: session, name: "width-and-caps")
    }

    @Test("the window is titled after its drawing and placed at the requested geometry")
    func windowHasTitleAndGeometry() async throws {
        let frame = AppSession.Frame(x: 37, y: 61, width: 500, height: 300)
        let session = try await AppSession.launch(frame: frame)
        defer { session.stop() }

        let windows = try TopLevelWindows.list(display: session.server.display)
        let window = try #require(windows.first { $0.name == "drawing.json — TouchTracker" }, "\(windows)")
        #expect(window.x == frame.x && window.y == frame.y, "\(window)")
        #expect(window.width == frame.width && window.height == frame.height, "\(window)")
        #expect(window.isViewable)
        // "ready" promises a mapped window with input selected, not a painted one: wait for white.
        let corners = [(0, 0), (499, 0), (0, 299), (499, 299), (250, 150)]
        var notWhite: [String] = []
        do {
            try await waitUntil("the window to be painted white", timeout: .seconds(5), poll: .milliseconds(20)) {
                let shot = try session.screenshot()
                notWhite = corners.compactMap { x, y in
                    let pixel = shot.pixel(x: frame.x + x, y: frame.y + y)
                    return pixel.isWhitish ? nil : "window pixel (\(x), \(y)) is \(pixel)"
                }
                return notWhite.isEmpty
            }
        } catch {
            Issue.record("\(error): \(notWhite.joined(separator: "; "))")
        }
    }

    // MARK: Helpers

    private func interpolate(_ a: Point, _ b: Point, _ t: Double) -> Point {
        (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }

    /// Waits (polling screenshots) until several points along every line are black and every
    /// white spot is white; on timeout records the failing samples and saves the screenshot.
    private func expectDrawn(
        lines: [(begin: Point, end: Point)], whiteSpots: [Point], blackSpots: [Point] = [], in session: AppSession,
        name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        func failures(_ shot: Screenshot) -> [String] {
            var failures: [String] = []
            for line in lines {
                for t in [0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0] {
                    let point = session.root(interpolate(line.begin, line.end, t))
                    let pixel = shot.pixel(x: Int(point.x.rounded()), y: Int(point.y.rounded()))
                    if !pixel.isBlackish { failures.append("expected black at root \(point) on \(line), got \(pixel)") }
                }
            }
            for spot in blackSpots {
                let point = session.root(spot.x, spot.y)
                let pixel = shot.pixel(x: Int(point.x.rounded()), y: Int(point.y.rounded()))
                if !pixel.isBlackish { failures.append("expected black at window \(spot), got \(pixel)") }
            }
            for spot in whiteSpots {
                let point = session.root(spot.x, spot.y)
                let pixel = shot.pixel(x: Int(point.x.rounded()), y: Int(point.y.rounded()))
                if !pixel.isWhitish { failures.append("expected white at window \(spot), got \(pixel)") }
            }
            return failures
        }
        var last: (Screenshot, [String])?
        do {
            try await waitUntil("the lines on screen", timeout: .seconds(5), poll: .milliseconds(50)) {
                let shot = try session.screenshot()
                last = (shot, failures(shot))
                return last!.1.isEmpty
            }
            if let directory = ProcessInfo.processInfo.environment["E2E_SCREENSHOTS"], let shot = last?.0 {
                let saved = try shot.save(named: name, in: URL(fileURLWithPath: directory, isDirectory: true))
                trace("saved \(saved.path)")
            }
        } catch {
            let saved = try? last?.0.save(named: "touchtracker-e2e-\(name)-\(session.server.displayNumber)")
            Issue.record(
                "\(error): \(last?.1.joined(separator: "; ") ?? "no screenshot") (screenshot: \(saved?.path ?? "none"))",
                sourceLocation: sourceLocation)
        }
    }
}

extension InputTestDevice {
    fileprivate func touchBegin(id: UInt32, at point: (x: Double, y: Double)) throws {
        try touchBegin(id: id, x: point.x, y: point.y)
    }

    fileprivate func touchUpdate(id: UInt32, at point: (x: Double, y: Double)) throws {
        try touchUpdate(id: id, x: point.x, y: point.y)
    }

    fileprivate func touchEnd(id: UInt32, at point: (x: Double, y: Double)) throws {
        try touchEnd(id: id, x: point.x, y: point.y)
    }

    fileprivate func moveTo(at point: (x: Double, y: Double)) throws {
        try moveTo(x: point.x, y: point.y)
    }
}
