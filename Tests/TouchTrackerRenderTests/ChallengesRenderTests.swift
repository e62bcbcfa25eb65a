import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

/// How the challenges look: circles, line colours and widths, on screen and in exports.
@Suite struct ChallengesRenderTests {
    typealias Pixel = (red: UInt8, green: UInt8, blue: UInt8)

    func near(_ pixel: Pixel?, _ red: UInt8, _ green: UInt8, _ blue: UInt8, within tolerance: Int = 30) -> Bool {
        guard let pixel else { return false }
        return abs(Int(pixel.red) - Int(red)) <= tolerance && abs(Int(pixel.green) - Int(green)) <= tolerance
            && abs(Int(pixel.blue) - Int(blue)) <= tolerance
    }

    let circle = Circle(frame: Rect(x: 50, y: 50, width: 200, height: 100), color: .blue)

    @Test("a circle is the oval inscribed in its box, stroked 10 px wide in its colour, hollow")
    func circleOutline() throws {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 300, height: 200), drawing: Drawing(circles: [circle]))
        let renderer = try DrawingRenderer(width: 300, height: 200)
        _ = renderer.frame(for: view)
        let canvas = renderer.canvas
        // The box's edge midpoints lie on the outline; its corners and centre do not.
        for (x, y) in [(50, 100), (249, 100), (150, 50), (150, 149), (54, 100), (150, 146)] {
            #expect(
                near(canvas.pixel(x: x, y: y), 0, 0, 255, within: 60),
                "(\(x), \(y)): \(String(describing: canvas.pixel(x: x, y: y)))")
        }
        for (x, y) in [(150, 100), (52, 52), (248, 148), (40, 100), (150, 40), (62, 100)] {
            #expect(near(canvas.pixel(x: x, y: y), 255, 255, 255, within: 10), "(\(x), \(y))")
        }
    }

    @Test("a selected circle is green and moves with the long-press drag; the old place is repainted white")
    func selectedCircle() throws {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 300, height: 200), drawing: Drawing(circles: [circle]))
        let renderer = try DrawingRenderer(width: 300, height: 200)
        _ = renderer.frame(for: view)
        view.select(view.shape(at: Point(x: 50, y: 100)))
        view.moveSelectedShape(by: Point(x: 20, y: 0))
        view.finishMove()
        #expect(renderer.frame(for: view) != nil)
        #expect(near(renderer.canvas.pixel(x: 70, y: 100), 0, 255, 0, within: 60))
        #expect(near(renderer.canvas.pixel(x: 50, y: 100), 255, 255, 255, within: 10))
        view.select(nil)
        _ = renderer.frame(for: view)
        #expect(near(renderer.canvas.pixel(x: 70, y: 100), 0, 0, 255, within: 60))
    }

    @Test("a line's own width and colour are drawn; the incremental repair reaches lines wider than the default")
    func lineStyle() throws {
        // A loaded document may hold a 100 px line: its stroke reaches 50 px from its segment.
        let wide = Line(begin: Point(x: 20, y: 130), end: Point(x: 280, y: 130), color: .red, width: 100)
        let thin = Line(begin: Point(x: 20, y: 20), end: Point(x: 280, y: 20), width: 2)
        let above = Line(begin: Point(x: 100, y: 90), end: Point(x: 200, y: 90))
        let view = DrawingView(
            frame: Rect(x: 0, y: 0, width: 300, height: 200), drawing: Drawing(lines: [wide, thin, above]))
        let renderer = try DrawingRenderer(width: 300, height: 200)
        _ = renderer.frame(for: view)
        #expect(near(renderer.canvas.pixel(x: 100, y: 175), 255, 0, 0))
        #expect(near(renderer.canvas.pixel(x: 100, y: 20), 0, 0, 0, within: 60))
        #expect(near(renderer.canvas.pixel(x: 100, y: 23), 255, 255, 255, within: 10))
        #expect(near(renderer.canvas.pixel(x: 150, y: 90), 0, 0, 0, within: 60))
        // Deleting the black line restrokes only its region, 40 px from the wide line's segment: the red stroke
        // must come back there.
        view.select(view.shape(at: Point(x: 150, y: 90)))
        view.deleteSelectedShape()
        _ = renderer.frame(for: view)
        #expect(near(renderer.canvas.pixel(x: 150, y: 90), 255, 0, 0))
        #expect(near(renderer.canvas.pixel(x: 150, y: 85), 255, 0, 0))
        #expect(near(renderer.canvas.pixel(x: 150, y: 76), 255, 255, 255, within: 10))
    }

    @Test("with colour by angle a line in progress is drawn in its hue, not red")
    func inProgressHue() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 300, height: 300))
        let view = DrawingView(frame: window.bounds, drawing: Drawing(options: DrawingOptions(colorByAngle: true)))
        window.addSubview(view)
        window.send(TouchInput(id: 1, phase: .began, location: Point(x: 50, y: 50), timestamp: 0))
        window.send(TouchInput(id: 1, phase: .moved, location: Point(x: 50, y: 250), timestamp: 0.1))
        let renderer = try DrawingRenderer(width: 300, height: 300)
        let pixel = withExtendedLifetime(window) { () -> Pixel? in
            _ = renderer.frame(for: view)
            return renderer.canvas.pixel(x: 50, y: 150)
        }
        // Straight down is 270°: hue 270 is violet (#7f00ff).
        #expect(near(pixel, 128, 0, 255), "\(String(describing: pixel))")
    }

    @Test("export draws circles and line colours, and grows the page to hold a circle")
    func export() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("challenges-export-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let drawing = Drawing(
            lines: [Line(begin: Point(x: 10, y: 10), end: Point(x: 200, y: 10), color: .green)],
            circles: [Circle(frame: Rect(x: 500, y: 400, width: 400, height: 300))])
        let size = DrawingExporter.canvasSize(for: drawing)
        #expect(size.width == 906 && size.height == 706)
        let path = folder.appendingPathComponent("out.png").path
        try Data(DrawingExporter.render(drawing, format: .png, width: size.width, height: size.height)).write(
            to: URL(fileURLWithPath: path))
        let png = try CairoSurface(readingPNG: path)
        #expect(near(png.pixel(x: 100, y: 10), 0, 128, 0))
        #expect(near(png.pixel(x: 700, y: 400), 0, 0, 0, within: 60))
        #expect(near(png.pixel(x: 700, y: 550), 255, 255, 255, within: 10))
    }
}
