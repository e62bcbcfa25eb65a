import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

@testable import TouchTrackerSession

/// The session at a screen scale other than 1 (DESIGN.md §2a): events and the drawing in drawing units, the canvas
/// in pixels; a new scale while the window is open keeps the drawing's size and place.
@Suite struct SessionScaleTests {
    /// A session on a 600x450-pixel window at `scale` (400x300 units at 1.5), its (empty) document read.
    private func open(scale: Double) throws -> (DrawingSession, InMemoryHost) {
        let host = InMemoryHost()
        var options = SessionOptions(scale: scale)
        options.painterThreads = 1
        let session = try DrawingSession(
            host: host, width: 600, height: 450, options: options, loadDocument: { Drawing() }, log: { _ in })
        var loaded = false
        session.onDocumentLoaded = { loaded = true }
        try waitFor("the document to be read") {
            session.drawFrame()
            return loaded
        }
        return (session, host)
    }

    private func stroke(_ session: DrawingSession, from begin: Point, to end: Point) {
        for (step, phase) in [TouchInput.Phase.began, .moved, .moved, .ended].enumerated() {
            let t = Double(step) / 3
            let now = MonotonicClock.now()
            session.clock.advance(to: now)
            session.handle(
                .touch(TouchInput(id: 1, phase: phase, location: begin + (end - begin) * t, timestamp: now)))
        }
        session.drawFrame()
    }

    @Test("at scale 1.5 the drawing is 400x300 units, a stroke in units is kept in units and drawn at 1.5 times")
    func strokeAtOneAndAHalf() throws {
        let (session, _) = try open(scale: 1.5)
        #expect(session.controller.window.bounds.size == Size(width: 400, height: 300))
        stroke(session, from: Point(x: 40, y: 100), to: Point(x: 360, y: 100))
        #expect(
            session.controller.drawingView.drawing.lines
                == [Line(begin: Point(x: 40, y: 100), end: Point(x: 360, y: 100))])
        try waitFor("the canvas to show the line at 150 px") {
            session.drawFrame()
            return (session.renderer.canvas.pixel(x: 300, y: 150)?.red ?? 255) < 60
        }
        #expect((session.renderer.canvas.pixel(x: 300, y: 100)?.red ?? 0) > 245)
    }

    @Test("a window moved to a screen of scale 2 keeps its drawing's size: 800x600 pixels are still 400x300 units")
    func newScaleKeepsTheDrawingsSize() throws {
        let (session, _) = try open(scale: 1.5)
        stroke(session, from: Point(x: 40, y: 100), to: Point(x: 360, y: 100))
        session.resize(width: 800, height: 600, scale: 2)
        #expect(session.scale == 2)
        #expect(session.controller.window.bounds.size == Size(width: 400, height: 300))
        // Never blank meanwhile: the first frame already shows the line where it now belongs (200 px down).
        session.drawFrame()
        #expect((session.renderer.canvas.pixel(x: 400, y: 200)?.red ?? 255) < 60)
        try waitFor("the tiles to be painted at scale 2") {
            session.drawFrame()
            return session.renderer.tilesComplete
        }
        #expect((session.renderer.canvas.pixel(x: 400, y: 200)?.red ?? 255) < 60)
        #expect((session.renderer.canvas.pixel(x: 400, y: 150)?.red ?? 0) > 245)
        #expect(session.controller.drawingView.drawing.lines.first?.begin == Point(x: 40, y: 100))
    }

    @Test("the pointer is in units: at scale 2 a pointer at (400, 300) is outside the 300x225-unit window, not in it")
    func pastePointInUnits() throws {
        let (session, host) = try open(scale: 2)
        stroke(session, from: Point(x: 40, y: 100), to: Point(x: 140, y: 100))
        // Nothing selected: the whole drawing is copied.
        session.handle(.key(KeyCommand(key: "c", control: true)))
        // Inside the window's 600x450 pixels, but outside its 300x225 units: the paste goes to the middle.
        host.pointer = Point(x: 400, y: 300)
        session.handle(.key(KeyCommand(key: "v", control: true)))
        try waitFor("the paste") {
            session.drawFrame()
            return session.controller.drawingView.drawing.lines.count == 2
        }
        let pasted = try #require(session.controller.drawingView.drawing.lines.last)
        #expect(Rect.bounding(pasted.begin, pasted.end).center == Point(x: 150, y: 112.5))
    }
}
