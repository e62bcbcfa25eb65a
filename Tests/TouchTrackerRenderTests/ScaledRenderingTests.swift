import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerRender

/// The renderer as the one place where drawing units meet the screen's pixels (DESIGN.md §2a): the view is in
/// units, the canvas `scale` pixels per unit.
@Suite struct ScaledRenderingTests {
    private static func isBlack(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red < 40 && p.green < 40 && p.blue < 40
    }

    private static func isWhite(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red > 245 && p.green > 245 && p.blue > 245
    }

    /// A 200x100-unit view holding one line from (20, 50) to (180, 50).
    private static func viewWithLine() -> DrawingView {
        DrawingView(
            frame: Rect(x: 0, y: 0, width: 200, height: 100),
            drawing: Drawing(lines: [Line(begin: Point(x: 20, y: 50), end: Point(x: 180, y: 50))]))
    }

    @Test("at scale 1.5 a line of 10 units lies at 1.5 times its place and is 15 pixels wide", arguments: [0, 2])
    func lineAtOneAndAHalf(painterThreads: Int) throws {
        let view = Self.viewWithLine()
        let renderer = try DrawingRenderer(width: 300, height: 150, scale: 1.5, painterThreads: painterThreads)
        renderer.waitUntilTilesComplete(for: view)
        _ = renderer.frame(for: view, forceFull: true)
        let canvas = renderer.canvas
        // The centre line is at y = 75 px; 15 px wide: black 6 px off it, white 10 px off.
        for x in stride(from: 40, through: 260, by: 20) { #expect(Self.isBlack(canvas.pixel(x: x, y: 75)), "x \(x)") }
        #expect(Self.isBlack(canvas.pixel(x: 150, y: 69)) && Self.isBlack(canvas.pixel(x: 150, y: 81)))
        #expect(Self.isWhite(canvas.pixel(x: 150, y: 64)) && Self.isWhite(canvas.pixel(x: 150, y: 86)))
        // The round cap reaches 7.5 px beyond the end at 270 px, not 5.
        #expect(Self.isBlack(canvas.pixel(x: 275, y: 75)) && Self.isWhite(canvas.pixel(x: 279, y: 75)))
    }

    @Test("a line in progress is drawn at the scale too: units in, pixels out")
    func lineInProgressAtScale() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let view = DrawingView(frame: window.bounds)
        window.addSubview(view)
        window.send(TouchInput(id: 1, phase: .began, location: Point(x: 20, y: 20), timestamp: 0))
        window.send(TouchInput(id: 1, phase: .moved, location: Point(x: 150, y: 20), timestamp: 0.1))
        let renderer = try DrawingRenderer(width: 400, height: 200, scale: 2)
        _ = withExtendedLifetime(window) { renderer.frame(for: view) }
        let red = try #require(renderer.canvas.pixel(x: 200, y: 40))
        #expect(red.red > 240 && red.green < 20 && red.blue < 20)
        #expect(Self.isWhite(renderer.canvas.pixel(x: 200, y: 20)))
        #expect(Self.isWhite(renderer.canvas.pixel(x: 320, y: 40)))
    }

    @Test("the menu is laid out in units and painted at the scale: its panel covers twice its frame at scale 2")
    func menuAtScale() throws {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 200, height: 150))
        let menu = PopupMenu(anchor: Point(x: 20, y: 20), items: [.delete], within: view.bounds)
        let renderer = try DrawingRenderer(width: 400, height: 300, scale: 2)
        _ = renderer.frame(for: view, menu: menu, forceFull: true)
        // The panel (120 x 44 units from (20, 20)) covers (40, 40) to (280, 128) px: its grey (250), not the white
        // canvas (255), shows near its far corner, and the canvas beyond it.
        #expect(renderer.canvas.pixel(x: 270, y: 120)?.red == 250)
        #expect(renderer.canvas.pixel(x: 300, y: 140)?.red == 255)
    }

    @Test("a frame's damage is in pixels: a line drawn in units damages its band times the scale")
    func damageIsScaled() throws {
        let window = Window(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let view = DrawingView(frame: window.bounds)
        window.addSubview(view)
        let renderer = try DrawingRenderer(width: 600, height: 300, scale: 3)
        _ = renderer.frame(for: view)
        window.send(TouchInput(id: 1, phase: .began, location: Point(x: 100, y: 50), timestamp: 0))
        window.send(TouchInput(id: 1, phase: .moved, location: Point(x: 150, y: 50), timestamp: 0.1))
        let region = try #require(withExtendedLifetime(window) { renderer.frame(for: view) })
        // The stroke reaches from 95 to 155 units across and 45 to 55 down, so at least 285...465 by 135...165 px.
        #expect(region.bounds.minX <= 285 && region.bounds.maxX >= 465, "\(region.bounds)")
        #expect(region.bounds.minY <= 135 && region.bounds.maxY >= 165, "\(region.bounds)")
    }

    @Test("every pixel handed to the screen is opaque: the fourth byte of a screen canvas is 0xff", arguments: [0, 2])
    func screenPixelsAreOpaque(painterThreads: Int) throws {
        let view = Self.viewWithLine()
        let renderer = try DrawingRenderer(
            width: 300, height: 150, scale: 1.5, painterThreads: painterThreads,
            makeCanvas: { (width, height) throws(CairoError) in
                try CairoSurface(width: width, height: height, format: .screen)
            })
        renderer.waitUntilTilesComplete(for: view)
        _ = renderer.frame(
            for: view, menu: PopupMenu(anchor: Point(x: 10, y: 10), items: [.delete], within: view.bounds),
            overlay: Overlay(keyboardCursor: Point(x: 100, y: 80)), forceFull: true)
        let pixels = try #require(ImagePixels(renderer.canvas))
        var transparent = 0
        for y in 0..<pixels.height {
            for x in 0..<pixels.width
            where (pixels.data + y * pixels.stride + x * 4).load(as: UInt32.self) >> 24 != 0xFF {
                transparent += 1
            }
        }
        #expect(transparent == 0)
    }

    @Test("a new scale shows the old picture stretched until the tiles are painted again, never a blank window")
    func rescaleShowsTheOldPictureMeanwhile() throws {
        let view = Self.viewWithLine()
        let renderer = try DrawingRenderer(width: 200, height: 100, scale: 1, painterThreads: 1)
        renderer.waitUntilTilesComplete(for: view)
        _ = renderer.frame(for: view, forceFull: true)
        try renderer.resize(width: 400, height: 200, scale: 2)
        // Whatever the painter has done by now, the line is there at its new place (100 px down the canvas).
        _ = renderer.frame(for: view, forceFull: true)
        #expect(Self.isBlack(renderer.canvas.pixel(x: 200, y: 100)))
        #expect(Self.isWhite(renderer.canvas.pixel(x: 200, y: 20)))
        renderer.waitUntilTilesComplete(for: view)
        _ = renderer.frame(for: view, forceFull: true)
        // Sharp at the new scale: 20 px wide, black 8 px off the centre, white 12 px off.
        #expect(
            Self.isBlack(renderer.canvas.pixel(x: 200, y: 108)) && Self.isWhite(renderer.canvas.pixel(x: 200, y: 112)))
        #expect(renderer.tilesComplete)
    }

    @Test("tiles a painter finished at the old scale are never shown after a change of scale")
    func oldScaleTilesAreDropped() throws {
        let view = Self.viewWithLine()
        let renderer = try DrawingRenderer(width: 200, height: 100, scale: 1, painterThreads: 1)
        _ = renderer.frame(for: view)
        // The painter may be anywhere in the first painting when the scale changes.
        try renderer.resize(width: 400, height: 200, scale: 2)
        renderer.waitUntilTilesComplete(for: view)
        _ = renderer.frame(for: view, forceFull: true)
        // At scale 1 the line would lie at y = 50 px: nothing of it may show there now.
        #expect(Self.isWhite(renderer.canvas.pixel(x: 100, y: 50)))
        #expect(Self.isBlack(renderer.canvas.pixel(x: 100, y: 100)))
    }
}
