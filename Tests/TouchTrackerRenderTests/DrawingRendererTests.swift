import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

@Suite struct DrawingRendererTests {
    func render(_ view: DrawingView) throws -> CairoSurface {
        let renderer = try DrawingRenderer(width: Int(view.bounds.width), height: Int(view.bounds.height))
        _ = renderer.frame(for: view)
        return renderer.canvas
    }

    func isBlack(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red < 40 && p.green < 40 && p.blue < 40
    }

    func isWhite(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red > 245 && p.green > 245 && p.blue > 245
    }

    @Test("a complete line is black along its length and the canvas white away from it")
    func completeLineIsBlack() throws {
        let view = DrawingView(
            frame: Rect(x: 0, y: 0, width: 200, height: 100),
            drawing: Drawing(lines: [Line(begin: Point(x: 20, y: 50), end: Point(x: 180, y: 50))]))
        let canvas = try render(view)
        for x in stride(from: 20, through: 180, by: 20) { #expect(isBlack(canvas.pixel(x: x, y: 50))) }
        #expect(isBlack(canvas.pixel(x: 100, y: 54)))
        #expect(isWhite(canvas.pixel(x: 100, y: 60)))
        #expect(isWhite(canvas.pixel(x: 100, y: 10)))
    }

    @Test("round caps reach half the width beyond each end")
    func roundCaps() throws {
        let view = DrawingView(
            frame: Rect(x: 0, y: 0, width: 200, height: 100),
            drawing: Drawing(lines: [Line(begin: Point(x: 20, y: 50), end: Point(x: 180, y: 50))]))
        let canvas = try render(view)
        #expect(isBlack(canvas.pixel(x: 16, y: 50)))
        #expect(isWhite(canvas.pixel(x: 13, y: 50)))
        // A square cap would cover this corner pixel; a round one leaves it white.
        #expect(isWhite(canvas.pixel(x: 15, y: 45)))
    }

    @Test("a line in progress is red")
    func inProgressIsRed() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let view = DrawingView(frame: window.bounds)
        window.addSubview(view)
        window.send(TouchInput(id: 1, phase: .began, location: Point(x: 20, y: 20), timestamp: 0))
        window.send(TouchInput(id: 1, phase: .moved, location: Point(x: 150, y: 20), timestamp: 0.1))
        // The window must outlive the render: a window that goes away cancels its touches, completing the line.
        let canvas = try withExtendedLifetime(window) { try render(view) }
        let pixel = try #require(canvas.pixel(x: 80, y: 20))
        #expect(pixel.red > 240 && pixel.green < 20 && pixel.blue < 20)
    }

    @Test("a frame with nothing changed draws nothing")
    func idleFrameIsEmpty() throws {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let renderer = try DrawingRenderer(width: 100, height: 100)
        #expect(renderer.frame(for: view) != nil)
        #expect(renderer.frame(for: view) == nil)
    }
}
