import Foundation
import Testing

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

    // MARK: Helpers

    private func interpolate(_ a: Point, _ b: Point, _ t: Double) -> Point {
        (a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t)
    }

    /// Waits (polling screenshots) until several points along every line are black and every
    /// white spot is white; on timeout records the failing samples and saves the screenshot.
    private func expectDrawn(
        lines: [(begin: Point, end: Point)], whiteSpots: [Point], in session: AppSession, name: String,
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
