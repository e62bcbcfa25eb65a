import Foundation
import Testing
import TouchKit
import TouchTracker
import WestonTestSupport
import XorgTestSupport

/// The app on a weston output at scale 2 (1024x768 in the compositor's coordinates, 2048x1536 pixels): the window
/// is painted at two pixels per drawing unit, and the drawing is kept in units, as on a 100 % screen; and the
/// pixels it hands over are opaque, as screenshot tools read them.
@Suite("Wayland at scale 2, and opaque", .serialized)
struct WaylandScaleTests {
    @Test("a stroke at scale 2 is saved in drawing units, as the compositor's coordinates give it, not in pixels")
    func strokeIsSavedInUnits() async throws {
        let session = try await WaylandSession.launch(scale: 2)
        defer { session.stop() }
        #expect(session.app.stderr.contains("touchtracker: scale 2.0"), "\(session.app.transcript)")
        try session.stroke(id: 0, from: (50, 100), to: (300, 100))
        let document = try await session.document(lineCount: 1)
        #expect(document.lines[0].begin.distance(to: (50, 100)) <= 1, "\(document.lines)")
        #expect(document.lines[0].end.distance(to: (300, 100)) <= 1, "\(document.lines)")
    }

    @Test("at scale 2 the line is painted sharp at twice its units: 20 pixels wide at y = 200 of the screen")
    func lineIsPaintedAtTwicePixels() async throws {
        let session = try await WaylandSession.launch(scale: 2)
        defer { session.stop() }
        try session.stroke(id: 0, from: (50, 100), to: (300, 100))
        _ = try await session.document(lineCount: 1)
        // The kiosk shell puts the window at the output's top-left corner.
        _ = try await waitForValue("the line in weston's screenshot", timeout: .seconds(10)) { () -> Bool? in
            let shot = try session.screenshot()
            guard shot.width == 2048, let centre = shot.pixel(x: 350, y: 200), let edge = shot.pixel(x: 350, y: 208),
                let beyond = shot.pixel(x: 350, y: 213), let above = shot.pixel(x: 350, y: 150)
            else { return nil }
            let black = { (p: (red: UInt8, green: UInt8, blue: UInt8)) in max(p.red, p.green, p.blue) < 60 }
            let white = { (p: (red: UInt8, green: UInt8, blue: UInt8)) in min(p.red, p.green, p.blue) > 230 }
            return black(centre) && black(edge) && white(beyond) && white(above) ? true : nil
        }
    }

    @Test("at scale 2 a tap selects the line and a tap on Delete, where the menu is in units, removes it")
    func tapThenDeleteAtScale() async throws {
        let session = try await WaylandSession.launch(scale: 2)
        defer { session.stop() }
        try session.stroke(id: 0, from: (40, 100), to: (300, 100))
        try session.stroke(id: 1, from: (40, 250), to: (300, 250))
        _ = try await session.document(lineCount: 2)
        try session.tap(id: 2, at: (150, 103))
        try await Task.sleep(for: .milliseconds(800))
        // The menu opens at the tap point; its Delete row is 4 to 40 units below it.
        try session.tap(id: 3, at: (190, 125))
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 250) <= 1, "\(document.lines)")
    }

    @Test("weston's screenshot tool shows the window: the canvas's pixels are opaque white, not transparent black")
    func screenshotShowsTheWindow() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        // Weston's screenshooter reads the unused byte of an XRGB buffer as alpha, as other screenshot tools do: a
        // zero byte would show the canvas as transparent black.
        _ = try await waitForValue("the canvas in weston's screenshot", timeout: .seconds(10)) { () -> Bool? in
            let shot = try session.screenshot()
            let samples = [(900, 40), (500, 300), (1000, 700)].compactMap { shot.pixel(x: $0.0, y: $0.1) }
            return samples.count == 3 && samples.allSatisfy { $0 == (255, 255, 255) } ? true : nil
        }
    }

    @Test("a drawing saved at 100 % opens at scale 2 the same size: its line lies at twice the pixels")
    func documentFromAHundredPercentOpensTheSameSize() async throws {
        let drawing = Drawing(lines: [Line(begin: Point(x: 20, y: 150), end: Point(x: 250, y: 150))])
        let session = try await WaylandSession.launch(scale: 2, drawing: drawing)
        defer { session.stop() }
        _ = try await waitForValue("the line at y = 300 px", timeout: .seconds(10)) { () -> Bool? in
            let shot = try session.screenshot()
            guard let on = shot.pixel(x: 400, y: 300), let off = shot.pixel(x: 400, y: 150) else { return nil }
            return max(on.red, on.green, on.blue) < 60 && min(off.red, off.green, off.blue) > 230 ? true : nil
        }
    }
}
