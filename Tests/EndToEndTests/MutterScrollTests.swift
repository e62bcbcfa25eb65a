import Foundation
import MutterTestSupport
import Testing
import XorgTestSupport

/// Scrolls that GNOME's mutter 43 injects itself (org.gnome.Mutter.RemoteDesktop's wheel clicks and finger
/// scrolling), reaching the native Wayland app through mutter's own `wl_pointer` axis events, whichever seat version
/// it offers; the app logs each scroll it hands the session with `--verbose`.
@Suite("Scrolling on GNOME's mutter", .serialized)
struct MutterScrollTests {
    /// Waits until the app has logged `count` scrolls and returns their lines.
    static func waitForScrolls(_ count: Int, in session: MutterSession) async throws -> [String] {
        func lines() -> [String] { session.app.stderrLines.filter { $0.contains("scroll at ") } }
        do {
            try await waitUntil("\(count) scrolls logged", timeout: .seconds(10)) { lines().count >= count }
        } catch {
            throw AppProcess.AppError(description: "\(error)\n\(session.failureContext())")
        }
        return lines()
    }

    @Test("two wheel clicks down are two notches down at the pointer, in logical units", arguments: [1, 2])
    func wheelClicks(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.pointerMotion(to: (199, 149))
        try session.pointerMotion(to: (200, 150))
        try session.input.pointerWheel(steps: 2)
        // mutter may send the two clicks in one frame or in two.
        _ = try await Self.waitForScrolls(1, in: session)
        try await waitUntil("two notches logged") { Self.scrollNotches(session).reduce(0, +) >= 2 }
        let lines = session.app.stderrLines.filter { $0.contains("scroll at ") }
        #expect(Self.scrollNotches(session).reduce(0, +) == 2, "\(lines)")
        #expect(lines.allSatisfy { $0.contains("scroll at (200.0, 150.0)") }, "\(lines)")
        #expect(lines.allSatisfy { $0.hasSuffix("distance (0.0, 0.0)") }, "\(lines)")
    }

    /// The vertical notches of every scroll logged so far.
    static func scrollNotches(_ session: MutterSession) -> [Double] {
        session.app.stderrLines.compactMap { line -> Double? in
            guard line.contains("scroll at "), let range = line.range(of: "notches (0.0, ") else { return nil }
            return Double(line[range.upperBound...].prefix { $0 != ")" })
        }
    }

    @Test("fingers scrolling on a touchpad are distance, not notches")
    func fingerScrollIsDistance() async throws {
        let session = try await MutterSession.launch(scale: 1)
        defer { session.stop() }
        try session.pointerMotion(to: (199, 149))
        try session.pointerMotion(to: (200, 150))
        try session.input.pointerFingerScroll(dx: 0, dy: 1.5)
        try session.input.pointerFingerScroll(dx: 0, dy: 0, finish: true)
        let lines = try await Self.waitForScrolls(1, in: session)
        #expect(lines.first?.contains("notches (0.0, 0.0), distance (0.0, ") == true, "\(lines)")
        #expect(lines.first?.contains("distance (0.0, 0.0)") == false, "\(lines)")
    }
}
