import Foundation
import Testing
import WestonTestSupport
import XorgTestSupport

/// Real `wl_pointer` scrolls from weston's seat (the tests' input module: `axis_source` wheel and `axis_discrete`
/// for a click, a bare `axis` for smooth travel) reaching the native Wayland app, which logs each scroll it hands
/// the session with `--verbose`.
@Suite("Scrolling on Wayland", .serialized)
struct WestonScrollTests {
    /// Waits until the app has logged `count` scrolls and returns their lines.
    static func waitForScrolls(_ count: Int, in session: WaylandSession) async throws -> [String] {
        func lines() -> [String] { session.app.stderrLines.filter { $0.contains("scroll at ") } }
        do {
            try await waitUntil("\(count) scrolls logged", timeout: .seconds(10)) { lines().count >= count }
        } catch {
            throw AppProcess.AppError(description: "\(error)\n\(session.app.transcript)")
        }
        return lines()
    }

    /// Moves the pointer to window point (`x`, `y`): first next to it, since weston sends no motion for a move to
    /// where the pointer already is.
    static func pointAt(_ x: Double, _ y: Double, in session: WaylandSession) throws {
        try session.input.pointerMotion(x: x - 1, y: y - 1)
        try session.input.pointerMotion(x: x, y: y)
        try session.input.pointerFrame()
    }

    /// One wheel click along `axis` (weston's 10 units, one discrete step), `clicks` times, each its own frame.
    static func wheel(_ clicks: Int, _ axis: WestonInput.Axis = .vertical, in session: WaylandSession) throws {
        for _ in 0..<abs(clicks) {
            try session.input.pointerAxis(axis, value: clicks < 0 ? -10 : 10, discrete: clicks < 0 ? -1 : 1)
            try session.input.pointerFrame()
        }
    }

    @Test("a wheel click down and one left reach the app as a notch down and a notch left where the pointer is")
    func wheelClicksReachTheApp() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try Self.pointAt(300, 200, in: session)
        try Self.wheel(1, in: session)
        try Self.wheel(-1, .horizontal, in: session)
        try session.input.sync()
        let lines = try await Self.waitForScrolls(2, in: session)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasSuffix("scroll at (300.0, 200.0): notches (0.0, 1.0), distance (0.0, 0.0)") == true)
        #expect(lines.last?.hasSuffix("scroll at (300.0, 200.0): notches (-1.0, 0.0), distance (0.0, 0.0)") == true)
    }

    @Test("smooth travel without wheel clicks is distance in surface units")
    func smoothTravelIsDistance() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try Self.pointAt(300, 200, in: session)
        try session.input.pointerAxis(.vertical, value: 12.5)
        try session.input.pointerFrame()
        try session.input.sync()
        let lines = try await Self.waitForScrolls(1, in: session)
        #expect(lines.first?.hasSuffix("notches (0.0, 0.0), distance (0.0, 12.5)") == true, "\(lines)")
    }

    @Test("Ctrl held on weston's keyboard is carried with the wheel's click")
    func controlIsCarried() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try Self.pointAt(300, 200, in: session)
        try session.input.key(LinuxKey.leftControl, pressed: true)
        try Self.wheel(1, in: session)
        try session.input.key(LinuxKey.leftControl, pressed: false)
        try Self.wheel(1, in: session)
        try session.input.sync()
        let lines = try await Self.waitForScrolls(2, in: session)
        #expect(lines.first?.hasSuffix("notches (0.0, 1.0), distance (0.0, 0.0), Ctrl") == true, "\(lines)")
        #expect(lines.last?.hasSuffix("notches (0.0, 1.0), distance (0.0, 0.0)") == true, "\(lines)")
    }

    @Test("after three wheel clicks down a line drawn at window y 100 is saved 180 units lower, at y 280")
    func wheelScrollMovesTheDrawing() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try Self.pointAt(320, 240, in: session)
        try Self.wheel(3, in: session)
        try session.input.sync()
        _ = try await Self.waitForScrolls(3, in: session)
        try session.stroke(id: 0, from: (100, 100), to: (500, 100))
        let document = try await session.savedDocument(lineCount: 1)
        let line = try #require(document.lines.first)
        #expect(abs(line.begin.y - 280) <= 1 && abs(line.end.y - 280) <= 1, "\(line)")
        #expect(abs(line.begin.x - 100) <= 1 && abs(line.end.x - 500) <= 1, "\(line)")
    }

    @Test(
        """
        Ctrl with four wheel clicks up zooms in twice about the pointer at (320, 240): a line drawn across row 100 \
        from x 100 to 500 is saved from (210, 170) to (410, 170)
        """)
    func controlZoomsAboutThePointer() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try Self.pointAt(320, 240, in: session)
        try session.input.key(LinuxKey.leftControl, pressed: true)
        try Self.wheel(-4, in: session)
        try session.input.key(LinuxKey.leftControl, pressed: false)
        try session.input.sync()
        _ = try await Self.waitForScrolls(4, in: session)
        try session.stroke(id: 0, from: (100, 100), to: (500, 100))
        let document = try await session.savedDocument(lineCount: 1)
        let line = try #require(document.lines.first)
        #expect(abs(line.begin.x - 210) <= 1 && abs(line.begin.y - 170) <= 1, "\(line)")
        #expect(abs(line.end.x - 410) <= 1 && abs(line.end.y - 170) <= 1, "\(line)")
    }

    @Test("smooth travel of 120 surface units scrolls the drawing 120 units: a line across row 100 is saved at y 220")
    func smoothTravelMovesTheDrawing() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try Self.pointAt(320, 240, in: session)
        for _ in 0..<4 {
            try session.input.pointerAxis(.vertical, value: 30)
            try session.input.pointerFrame()
        }
        try session.input.sync()
        _ = try await Self.waitForScrolls(4, in: session)
        try session.stroke(id: 0, from: (100, 100), to: (500, 100))
        let document = try await session.savedDocument(lineCount: 1)
        let line = try #require(document.lines.first)
        #expect(abs(line.begin.y - 220) <= 1 && abs(line.end.y - 220) <= 1, "\(line)")
    }
}
