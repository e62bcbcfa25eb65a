import Testing
import TouchKit
import TouchTracker

@Suite struct WidthByPressureTests {
    /// Draws one line with a finger pressing with `force` on every event, after P turned width by pressure on.
    func line(force: Double?, pressureOn: Bool = true) -> Line? {
        let controller = DrawingController(size: Size(width: 800, height: 600))
        if pressureOn { controller.handleKey(KeyCommand(key: "p")) }
        var time = 0.0
        for (phase, x) in [(TouchInput.Phase.began, 100.0), (.moved, 200), (.moved, 300), (.ended, 300)] {
            time += 0.05
            controller.send(
                TouchInput(id: 1, phase: phase, location: Point(x: x, y: 100), timestamp: time, force: force))
        }
        return controller.drawingView.drawing.lines.first
    }

    @Test("a normal press (force 1/3) draws the default 10 px width")
    func normalPress() {
        #expect(abs((line(force: 1.0 / 3)?.width ?? 0) - 10) < 0.01)
    }

    @Test("pressure widths are clamped to 1 and 20 px", arguments: [(0.0, 1.0), (0.01, 1.0), (1.0, 20.0), (5.0, 20.0)])
    func clamped(force: Double, width: Double) {
        #expect(line(force: force)?.width == width)
    }

    @Test("a device without pressure draws the default width, saved without a width field")
    func noPressure() {
        #expect(line(force: nil)?.width == nil)
    }

    @Test("with width by pressure off, pressure changes nothing")
    func off() {
        #expect(line(force: 1.0, pressureOn: false)?.width == nil)
    }

    @Test("width by pressure is saved with the document and read back")
    func savedOption() throws {
        let drawing = Drawing(lines: [], options: DrawingOptions(widthByPressure: true))
        let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        #expect(text.contains("\"widthByPressure\": true"))
        #expect(try DocumentCodec.decode(DocumentCodec.encode(drawing)).options.widthByPressure)
    }

    @Test("a non-finite force is no pressure")
    func nonFinite() {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(view.tracker.widthForPressure(.nan) == nil)
        #expect(view.tracker.widthForPressure(-1) == nil)
    }
}
