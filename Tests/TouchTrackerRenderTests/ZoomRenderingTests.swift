import Foundation
import Synchronization
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerRender

/// The renderer following the view over the drawing (DESIGN.md §2b): the drawing through the zoom and the scroll,
/// what stays on screen at its size there, tiles kept across a scroll, and a change of zoom never blank.
@Suite struct ZoomRenderingTests {
    private static func isDark(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red < 60 && p.green < 60 && p.blue < 60
    }

    private static func isWhite(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red > 245 && p.green > 245 && p.blue > 245
    }

    /// A 400x300 window's controller holding one horizontal line at y 150 from x 100 to 300 (10 units wide).
    private static func controllerWithLine() -> DrawingController {
        DrawingController(
            size: Size(width: 400, height: 300),
            drawing: Drawing(lines: [Line(begin: Point(x: 100, y: 150), end: Point(x: 300, y: 150))]))
    }

    @Test("zoomed to 200 % about (100, 100), the line lies at twice its distance from there and is 20 px wide")
    func lineThroughTheZoom() throws {
        let controller = Self.controllerWithLine()
        controller.navigation.zoom(to: 2, around: Point(x: 100, y: 100))
        let renderer = try DrawingRenderer(width: 400, height: 300)
        _ = renderer.frame(for: controller.drawingView)
        let canvas = renderer.canvas
        // y 150 shows at 100 + 2·50 = 200; x 100 at 100, x 300 beyond the window.
        #expect(Self.isDark(canvas.pixel(x: 150, y: 200)) && Self.isDark(canvas.pixel(x: 390, y: 200)))
        #expect(Self.isDark(canvas.pixel(x: 150, y: 191)) && Self.isDark(canvas.pixel(x: 150, y: 209)))
        #expect(Self.isWhite(canvas.pixel(x: 150, y: 186)) && Self.isWhite(canvas.pixel(x: 150, y: 214)))
        #expect(Self.isWhite(canvas.pixel(x: 150, y: 150)))
    }

    @Test("zoom and the screen's scale multiply: at 50 % on a 2x screen the line is drawn at 1 pixel per unit")
    func zoomTimesScale() throws {
        let controller = Self.controllerWithLine()
        controller.navigation.zoom(to: 0.5, around: .zero)
        let renderer = try DrawingRenderer(width: 800, height: 600, scale: 2)
        _ = renderer.frame(for: controller.drawingView)
        #expect(Self.isDark(renderer.canvas.pixel(x: 200, y: 150)))
        #expect(Self.isWhite(renderer.canvas.pixel(x: 200, y: 160)))
        #expect(Self.isWhite(renderer.canvas.pixel(x: 310, y: 150)))
    }

    @Test("scrolled to negative coordinates, a line drawn there shows where the pointer drew it")
    func lineAtNegativeCoordinates() throws {
        let controller = DrawingController(size: Size(width: 400, height: 300))
        controller.navigation.scroll(by: Point(x: -1000, y: -700))
        for (phase, x) in [(TouchInput.Phase.began, 50.0), (.moved, 250), (.ended, 250)] {
            controller.send(TouchInput(id: 1, phase: phase, location: Point(x: x, y: 60), timestamp: 0.1))
        }
        #expect(controller.drawingView.drawing.lines.first?.begin == Point(x: -950, y: -640))
        let renderer = try DrawingRenderer(width: 400, height: 300)
        _ = renderer.frame(for: controller.drawingView)
        #expect(Self.isDark(renderer.canvas.pixel(x: 150, y: 60)))
    }

    @Test("the menu stays its size on screen at any zoom, over the zoomed drawing")
    func menuKeepsItsSize() throws {
        let controller = DrawingController(
            size: Size(width: 400, height: 300),
            drawing: Drawing(lines: [Line(begin: Point(x: 0, y: 10), end: Point(x: 100, y: 10))]))
        controller.navigation.zoom(to: 4, around: .zero)
        controller.openSettingsMenu(at: Point(x: 20, y: 20))
        let menu = try #require(controller.menu)
        #expect(menu.frame.maxX < 300)
        let renderer = try DrawingRenderer(width: 400, height: 300)
        _ = renderer.frame(for: controller.drawingView, menu: menu, overlay: controller.overlay)
        // The line is 40 px wide at y 40 across the window; the menu covers it from x 20 to its frame's edge.
        #expect(!Self.isDark(renderer.canvas.pixel(x: 100, y: 40)))
        #expect(Self.isDark(renderer.canvas.pixel(x: Int(menu.frame.maxX) + 30, y: 40)))
        #expect(Self.isDark(renderer.canvas.pixel(x: 10, y: 25)) && Self.isDark(renderer.canvas.pixel(x: 10, y: 55)))
    }

    @Test("a scroll by one tile keeps the tiles still in view and paints only the column it brings in")
    func scrollKeepsTiles() throws {
        let controller = DrawingController(
            size: Size(width: 512, height: 256),
            drawing: Drawing(
                lines: (0..<40).map {
                    Line(begin: Point(x: Double($0) * 20, y: 10), end: Point(x: Double($0) * 20 + 15, y: 240))
                }))
        let renderer = try DrawingRenderer(width: 512, height: 256)
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.tilesPainted == 2)
        controller.navigation.scroll(by: Point(x: 256, y: 0))
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.tilesPainted == 3)
    }

    @Test("zooming in and straight back shows the first zoom's tiles again, painting none")
    func zoomingBackReusesTiles() throws {
        let controller = Self.controllerWithLine()
        let renderer = try DrawingRenderer(width: 400, height: 300)
        _ = renderer.frame(for: controller.drawingView)
        let first = renderer.tilesPainted
        controller.handleKey(KeyCommand(key: "plus", control: true))
        _ = renderer.frame(for: controller.drawingView)
        let zoomedIn = renderer.tilesPainted
        #expect(zoomedIn > first)
        controller.handleKey(KeyCommand(key: "minus", control: true))
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.tilesPainted == zoomedIn)
        #expect(
            Self.isDark(renderer.canvas.pixel(x: 200, y: 150)) && Self.isWhite(renderer.canvas.pixel(x: 200, y: 170)))
    }

    @Test("an edit made at another zoom is shown when the view zooms back: the tiles it touched are painted anew")
    func zoomingBackAfterAnEditShowsIt() throws {
        let controller = Self.controllerWithLine()
        let renderer = try DrawingRenderer(width: 400, height: 300)
        _ = renderer.frame(for: controller.drawingView)
        controller.handleKey(KeyCommand(key: "plus", control: true))
        _ = renderer.frame(for: controller.drawingView)
        controller.handleKey(KeyCommand(key: "Delete", control: true, shift: true))
        _ = renderer.frame(for: controller.drawingView)
        controller.handleKey(KeyCommand(key: "minus", control: true))
        _ = renderer.frame(for: controller.drawingView)
        #expect(Self.isWhite(renderer.canvas.pixel(x: 200, y: 150)))
    }

    @Test("right after a change of zoom, with the painters still at work, the frame shows the drawing, never blank")
    func zoomFrameIsNeverBlank() throws {
        // A dense drawing, so the new zoom's tiles take a while; a thick black band across it to look for.
        var lines = (0..<20_000).map { index in
            let x = Double(index % 200) * 4
            let y = Double(index / 200) * 6
            return Line(begin: Point(x: x, y: y), end: Point(x: x + 30, y: y + 20))
        }
        lines.append(Line(begin: Point(x: 0, y: 300), end: Point(x: 800, y: 300), width: 40))
        let controller = DrawingController(size: Size(width: 800, height: 600), drawing: Drawing(lines: lines))
        let renderer = try DrawingRenderer(width: 800, height: 600, painterThreads: 2)
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
        _ = renderer.frame(for: controller.drawingView)
        controller.scroll(ScrollInput(location: Point(x: 400, y: 300), notches: Point(x: 0, y: -1), control: true))
        let region = renderer.frame(for: controller.drawingView)
        #expect(region?.bounds == Rect(x: 0, y: 0, width: 800, height: 600))
        // The band's middle stays at y 300 (the zoom held the pointer there): dark now, whatever the painters did.
        for x in stride(from: 20, through: 780, by: 40) {
            #expect(Self.isDark(renderer.canvas.pixel(x: x, y: 300)), "x \(x)")
        }
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
    }

    @Test("after a change of zoom the painters wait a moment, then wake the loop, whose next frame has them paint")
    func paintersWakeTheLoopAfterTheZoomSettles() throws {
        let wakes = Atomic(0)
        let controller = Self.controllerWithLine()
        let renderer = try DrawingRenderer(
            width: 400, height: 300, painterThreads: 2, onTileFinished: { wakes.add(1, ordering: .relaxed) })
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
        let painted = renderer.tilesPainted
        let before = wakes.load(ordering: .relaxed)
        controller.handleKey(KeyCommand(key: "plus", control: true))
        _ = renderer.frame(for: controller.drawingView)
        // Held back: nothing painted at the new zoom yet, and the loop is woken without being asked again.
        #expect(renderer.tilesPainted == painted)
        let deadline = Date().addingTimeInterval(2)
        while wakes.load(ordering: .relaxed) == before, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        #expect(wakes.load(ordering: .relaxed) > before)
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
        #expect(renderer.tilesPainted > painted)
    }

    @Test("the earlier zoom's tiles, scaled, put each pixel where the new zoom puts it")
    func fallbackSamplesInPlace() throws {
        let grid = TileGrid(size: 16)
        let surface = try CairoSurface(width: 16, height: 16, format: .screen)
        let context = try CairoContext(surface: surface)
        context.paint(solid: .white)
        context.setColor(.black)
        context.fill(Rect(x: 4, y: 4, width: 4, height: 4))
        surface.flush()
        let tile = PaintedTile(key: TileKey(column: 0, row: 0), version: 1, surface: surface)
        let fallback = FallbackTiles(pixelsPerUnit: 1, grid: grid, tiles: [tile.key: tile])
        let target = try CairoSurface(width: 40, height: 40, format: .screen)
        let pixels = try #require(ImagePixels(target))
        // At twice the size, with the window's corner at tile pixel (2, 2) of the new zoom.
        fallback.sample(
            into: pixels, box: PixelBox(x0: 0, y0: 0, x1: 40, y1: 40), origin: (2, 2), pixelsPerUnit: 2,
            background: .white)
        target.markDirty()
        // The black square 4..<8 is 8..<16 at the new zoom, 6..<14 in the window.
        #expect(Self.isDark(target.pixel(x: 6, y: 6)) && Self.isDark(target.pixel(x: 13, y: 13)))
        #expect(Self.isWhite(target.pixel(x: 5, y: 6)) && Self.isWhite(target.pixel(x: 14, y: 13)))
        // Beyond the old tile (16 px at zoom 1 is 32 at zoom 2): the background.
        #expect(Self.isWhite(target.pixel(x: 35, y: 35)))
    }

    @Test(
        "Cairo's scaling of the earlier zoom's tiles shows the pixels the nearest-pixel rule picks, and never nothing",
        arguments: [2.0, 1.189_207_115_002_721, 0.5, 0.840_896_415_253_714_5])
    func scaledStandInsMatchTheSampling(zoom: Double) throws {
        // Two tiles side by side, checkered in 4 px squares of red and blue, at zoom 1.
        let grid = TileGrid(size: 32)
        var tiles: [TileKey: PaintedTile] = [:]
        for column in 0..<2 {
            let surface = try CairoSurface(width: 32, height: 32, format: .screen)
            let context = try CairoContext(surface: surface)
            for y in 0..<8 {
                for x in 0..<8 {
                    context.setColor(
                        (x + y + column) % 2 == 0 ? Color(red: 1, green: 0, blue: 0) : Color(red: 0, green: 0, blue: 1))
                    context.fill(Rect(x: Double(x * 4), y: Double(y * 4), width: 4, height: 4))
                }
            }
            surface.flush()
            let key = TileKey(column: column, row: 0)
            tiles[key] = PaintedTile(key: key, version: 1, surface: surface)
        }
        let fallback = FallbackTiles(pixelsPerUnit: 1, grid: grid, tiles: tiles)
        let origin = (x: 3, y: 1)
        let box = PixelBox(x0: 0, y0: 0, x1: 80, y1: 40)
        let sampled = try CairoSurface(width: 80, height: 40, format: .screen)
        fallback.sample(
            into: try #require(ImagePixels(sampled)), box: box, origin: origin, pixelsPerUnit: zoom, background: .white)
        sampled.markDirty()
        let scaled = try CairoSurface(width: 80, height: 40, format: .screen)
        try #require(ImagePixels(scaled)).fill(box, with: .white)
        scaled.markDirty()
        fallback.paintScaled(into: scaled, boxes: [box], origin: origin, pixelsPerUnit: zoom)
        var same = 0
        for y in 0..<40 {
            for x in 0..<80 {
                let a = try #require(sampled.pixel(x: x, y: y))
                let b = try #require(scaled.pixel(x: x, y: y))
                if a == b { same += 1 }
                // Red, blue or the background: never black (nothing painted), never a blend.
                let known = [(255, 0, 0), (0, 0, 255), (255, 255, 255)].contains {
                    $0 == (Int(b.red), Int(b.green), Int(b.blue))
                }
                #expect(known, "(\(x), \(y)): \(b)")
            }
        }
        #expect(Double(same) / 3200 > 0.95, "\(same) of 3200 the same")
    }
}
