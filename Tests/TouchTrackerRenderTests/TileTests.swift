import Glibc
import SeededRandom
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

/// The tiles of complete lines: painted in the background, each swapped in whole, the same pixels as painting them
/// on the spot, and a resize that paints only the tiles it adds.
@Suite struct TileTests {
    static func randomDrawing(lines count: Int, width: Double, height: Double, seed: UInt64) -> Drawing {
        var generator = SplitMix64(seed: seed)
        var lines: [Line] = []
        for index in 0..<count {
            let begin = Point(
                x: Double.random(in: 0..<width, using: &generator), y: Double.random(in: 0..<height, using: &generator))
            let end = Point(
                x: begin.x + Double.random(in: -150...150, using: &generator),
                y: begin.y + Double.random(in: -150...150, using: &generator))
            // Some lines in colour and some wider, so stacking order shows in the pixels.
            lines.append(
                Line(
                    begin: begin, end: end, color: index % 3 == 0 ? .blue : nil, width: index % 5 == 0 ? 24 : nil))
        }
        let circles = [Circle(frame: Rect(x: 200, y: 150, width: 300, height: 200), color: .red)]
        return Drawing(lines: lines, circles: circles)
    }

    /// Pixel (x, y) of `canvas` as a number, 0xRRGGBB.
    static func rgb(_ canvas: CairoSurface, _ x: Int, _ y: Int) -> Int {
        let p = canvas.pixel(x: x, y: y)!
        return Int(p.red) << 16 | Int(p.green) << 8 | Int(p.blue)
    }

    /// Every third pixel of both canvases, as numbers.
    static func samples(_ canvas: CairoSurface) -> [Int] {
        var values: [Int] = []
        for y in stride(from: 0, to: canvas.height, by: 3) {
            for x in stride(from: 0, to: canvas.width, by: 3) { values.append(rgb(canvas, x, y)) }
        }
        return values
    }

    /// The pixels where two canvases of one size differ: (x, y, first's, second's).
    static func differingPixels(_ a: CairoSurface, _ b: CairoSurface) -> [(Int, Int, Int, Int)] {
        var result: [(Int, Int, Int, Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width where rgb(a, x, y) != rgb(b, x, y) {
                result.append((x, y, rgb(a, x, y), rgb(b, x, y)))
            }
        }
        return result
    }

    /// A controller over a random drawing and a renderer with one painter thread whose tiles are all painted.
    static func paintedScene(lines: Int, width: Int, height: Int, seed: UInt64) throws -> (
        DrawingController, DrawingRenderer
    ) {
        let drawing = randomDrawing(lines: lines, width: Double(width), height: Double(height), seed: seed)
        let controller = DrawingController(size: Size(width: Double(width), height: Double(height)), drawing: drawing)
        let renderer = try DrawingRenderer(width: width, height: height, painterThreads: 1)
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
        return (controller, renderer)
    }

    /// One finger down at the first point, through the second, up at the third, 50 ms apart.
    static func stroke(_ controller: DrawingController, _ points: [Point]) {
        for (index, point) in points.enumerated() {
            let phase: TouchInput.Phase = index == 0 ? .began : index == points.count - 1 ? .ended : .moved
            controller.send(TouchInput(id: 1, phase: phase, location: point, timestamp: Double(index) * 0.05))
        }
    }

    @Test("tiles painted by two background threads show exactly what tiles painted on the spot show")
    func threadedTilesMatchInlineTiles() throws {
        let drawing = Self.randomDrawing(lines: 2_000, width: 700, height: 500, seed: 5)
        let frame = Rect(x: 0, y: 0, width: 700, height: 500)
        let inlineView = DrawingView(frame: frame, drawing: drawing)
        let inline = try DrawingRenderer(width: 700, height: 500)
        _ = inline.frame(for: inlineView)
        let threadedView = DrawingView(frame: frame, drawing: drawing)
        let threaded = try DrawingRenderer(width: 700, height: 500, painterThreads: 2)
        _ = threaded.frame(for: threadedView)
        #expect(threaded.waitUntilTilesComplete(for: threadedView))
        _ = threaded.frame(for: threadedView)
        #expect(Self.samples(threaded.canvas) == Self.samples(inline.canvas))
    }

    @Test("a line put back across tiles that finish in different frames leaves the window as the tiles alone show it")
    func lineDrawnLiveAcrossTilesLeavesNoTrace() throws {
        let frame = Rect(x: 0, y: 0, width: 600, height: 300)
        let drawing = Drawing(lines: [
            Line(
                begin: Point(x: 30, y: 100), end: Point(x: 480, y: 100), color: LineColor(red: 0, green: 0, blue: 255)),
            Line(begin: Point(x: 100, y: 20), end: Point(x: 100, y: 280), color: .red),
            Line(begin: Point(x: 350, y: 20), end: Point(x: 350, y: 280), color: .red),
        ])
        let view = DrawingView(frame: frame, drawing: drawing)
        let renderer = try DrawingRenderer(width: 600, height: 300, painterThreads: 1)
        _ = renderer.frame(for: view)
        #expect(renderer.waitUntilTilesComplete(for: view))
        view.select(view.shapes.order[0])
        #expect(view.deleteSelectedShape())
        _ = renderer.frame(for: view)
        #expect(renderer.waitUntilTilesComplete(for: view))
        _ = renderer.frame(for: view)
        // Put back: drawn live over the tiles under its band until each of them shows it, one tile at a time.
        view.undo()
        _ = renderer.frame(for: view)
        var frames = 0
        while !renderer.tilesComplete || renderer.shapesDrawnLive > 0, frames < 50_000 {
            _ = renderer.frame(for: view)
            frames += 1
            usleep(100)
        }
        _ = renderer.frame(for: view)
        #expect(renderer.shapesDrawnLive == 0)
        let fresh = try DrawingRenderer(width: 600, height: 300)
        _ = fresh.frame(for: DrawingView(frame: frame, drawing: view.drawing))
        #expect(Self.differingPixels(renderer.canvas, fresh.canvas).isEmpty)
    }

    @Test("until a tile is painted it shows the plain background, never a half-painted tile")
    func unpaintedTilesArePlain() throws {
        let drawing = Self.randomDrawing(lines: 20_000, width: 700, height: 500, seed: 6)
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 700, height: 500), drawing: drawing)
        let renderer = try DrawingRenderer(width: 700, height: 500, painterThreads: 1)
        _ = renderer.frame(for: view)
        let complete = try DrawingRenderer(width: 700, height: 500)
        _ = complete.frame(for: DrawingView(frame: view.frame, drawing: drawing))
        // Each 256 px tile of the first frame is either all white or exactly the finished tile: a tile part of
        // which is the finished picture and part plain is half painted.
        let finished = Self.samples(complete.canvas)
        let shown = Self.samples(renderer.canvas)
        let columns = (700 + 2) / 3
        var isFinished: [String: Bool] = [:]
        var isPlain: [String: Bool] = [:]
        for (index, value) in shown.enumerated() {
            let key = "\(index % columns * 3 / 256),\(index / columns * 3 / 256)"
            isFinished[key, default: true] = isFinished[key, default: true] && value == finished[index]
            isPlain[key, default: true] = isPlain[key, default: true] && value == 0xFFFFFF
        }
        for key in isFinished.keys.sorted() {
            #expect(isFinished[key]! || isPlain[key]!, "tile \(key) is half painted")
        }
        #expect(renderer.waitUntilTilesComplete(for: view))
        _ = renderer.frame(for: view)
        #expect(Self.samples(renderer.canvas) == finished)
    }

    @Test("tiles repainted only where lines were drawn, deleted and put back show exactly what whole tiles show")
    func partialRepaintsMatchWholeTiles() throws {
        let drawing = Self.randomDrawing(lines: 3_000, width: 700, height: 500, seed: 15)
        let size = Size(width: 700, height: 500)
        let whole = (DrawingController(size: size, drawing: drawing), try DrawingRenderer(width: 700, height: 500))
        let (controller, renderer) = try Self.paintedScene(lines: 3_000, width: 700, height: 500, seed: 15)
        let edits: [(DrawingController) -> Void] = [
            { Self.stroke($0, [Point(x: 20, y: 30), Point(x: 300, y: 200), Point(x: 680, y: 470)]) },
            { Self.stroke($0, [Point(x: 600, y: 20), Point(x: 500, y: 100), Point(x: 400, y: 300)]) },
            { $0.drawingView.undo() },
            { view in
                view.drawingView.select(view.drawingView.shape(at: Point(x: 300, y: 200)))
                view.drawingView.deleteSelectedShape()
            },
            { $0.drawingView.undo() },
            { $0.drawingView.redo() },
        ]
        for (step, edit) in edits.enumerated() {
            edit(whole.0)
            edit(controller)
            _ = whole.1.frame(for: whole.0.drawingView, forceFull: true)
            _ = renderer.frame(for: controller.drawingView)
            #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
            _ = renderer.frame(for: controller.drawingView, forceFull: true)
            let differing = Self.differingPixels(renderer.canvas, whole.1.canvas)
            #expect(differing.isEmpty, "edit \(step): \(differing.count) pixels differ, first \(differing.prefix(5))")
        }
        #expect(renderer.tilesRepaintedInPart > 0)
    }

    @Test("a tile that leaves the window and comes back while a painter still has it ends up showing every edit")
    func tileBackInTheWindowShowsEveryEdit() throws {
        let (controller, renderer) = try Self.paintedScene(lines: 100_000, width: 700, height: 500, seed: 16)
        // Lines all over a right-hand tile (too many places to repaint in part: the painter takes the whole tile),
        // the last deleted while it paints, and later another line there.
        let lines: (DrawingController) -> Void = { controller in
            for row in 0..<40 {
                let y = 5 + 6 * Double(row)
                Self.stroke(controller, [Point(x: 560, y: y), Point(x: 620, y: y + 2), Point(x: 680, y: y + 4)])
            }
        }
        let delete: (DrawingController) -> Void = { controller in
            controller.drawingView.select(controller.drawingView.shape(at: Point(x: 620, y: 241)))
            controller.drawingView.deleteSelectedShape()
        }
        let another: (DrawingController) -> Void = {
            Self.stroke($0, [Point(x: 525, y: 20), Point(x: 530, y: 100), Point(x: 535, y: 200)])
        }
        func resize(_ width: Int) throws {
            try renderer.resize(width: width, height: 500)
            controller.resize(to: Size(width: Double(width), height: 500))
            _ = renderer.frame(for: controller.drawingView)
        }
        for edit in [lines, delete] {
            edit(controller)
            _ = renderer.frame(for: controller.drawingView)
        }
        // The tile leaves the window and comes back while the painter still has it.
        try resize(500)
        try resize(700)
        let painted = renderer.tilesPainted
        for _ in 0..<500 where renderer.tilesPainted == painted {
            usleep(10_000)
            _ = renderer.frame(for: controller.drawingView)
        }
        // Another line there once what the painter had is shown.
        another(controller)
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
        _ = renderer.frame(for: controller.drawingView, forceFull: true)
        // The same edits, tiles painted whole on the spot.
        let whole = DrawingController(
            size: Size(width: 700, height: 500),
            drawing: Self.randomDrawing(lines: 100_000, width: 700, height: 500, seed: 16))
        for edit in [lines, delete, another] { edit(whole) }
        let wholeRenderer = try DrawingRenderer(width: 700, height: 500)
        _ = wholeRenderer.frame(for: whole.drawingView, forceFull: true)
        let differing = Self.differingPixels(renderer.canvas, wholeRenderer.canvas)
        #expect(differing.isEmpty, "\(differing.count) pixels differ, first \(differing.prefix(5))")
    }

    @Test("a line just drawn shows in the first frame after its finger lifts, before its tiles are repainted")
    func newLineShowsAtOnce() throws {
        let (controller, renderer) = try Self.paintedScene(lines: 20_000, width: 700, height: 500, seed: 7)
        Self.stroke(controller, [Point(x: 100, y: 450), Point(x: 400, y: 450), Point(x: 600, y: 450)])
        _ = renderer.frame(for: controller.drawingView)
        // Black (the line's colour), not red (in progress) and not whatever the old tile had there.
        for x in stride(from: 110, through: 590, by: 40) {
            let p = try #require(renderer.canvas.pixel(x: x, y: 450))
            #expect(p.red < 40 && p.green < 40 && p.blue < 40, "(\(x), 450): \(p)")
        }
    }

    @Test("a line finished just before the whole drawing is repainted (a large paste) stays on screen meanwhile")
    func newLineStaysWhileEverythingIsRepainted() throws {
        let (controller, renderer) = try Self.paintedScene(lines: 20_000, width: 700, height: 500, seed: 11)
        Self.stroke(controller, [Point(x: 100, y: 450), Point(x: 400, y: 450), Point(x: 600, y: 450)])
        _ = renderer.frame(for: controller.drawingView)
        let pasted = Self.randomDrawing(lines: 2_000, width: 700, height: 500, seed: 12).lines.map(Shape.line)
        #expect(controller.paste(PreparedPaste(pasted, onto: controller.drawingView.shapes)))
        // The whole window composed again (as an expose would) while the tiles are still being repainted: the old
        // tiles do not have the line, so it must still be drawn on top of them.
        _ = renderer.frame(for: controller.drawingView, forceFull: true)
        for x in stride(from: 110, through: 590, by: 40) {
            let p = try #require(renderer.canvas.pixel(x: x, y: 450))
            #expect(p.red < 40 && p.green < 40 && p.blue < 40, "(\(x), 450): \(p)")
        }
    }

    @Test("a finished diagonal line stops being drawn live once the tiles along it show it")
    func finishedDiagonalLineLeavesTheLiveLayer() throws {
        let (controller, renderer) = try Self.paintedScene(lines: 2_000, width: 1000, height: 700, seed: 10)
        // Corner to corner: its bounding box holds every tile, its band only the tiles along the diagonal.
        Self.stroke(controller, [Point(x: 10, y: 10), Point(x: 500, y: 350), Point(x: 990, y: 690)])
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.waitUntilTilesComplete(for: controller.drawingView))
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.shapesDrawnLive == 0)
    }

    @Test("a resize keeps the tiles still inside the window and paints only the ones it adds")
    func resizePaintsOnlyNewTiles() throws {
        let drawing = Self.randomDrawing(lines: 500, width: 1000, height: 700, seed: 8)
        let controller = DrawingController(size: Size(width: 600, height: 400), drawing: drawing)
        let renderer = try DrawingRenderer(width: 600, height: 400)
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.tilesPainted == 3 * 2)
        try renderer.resize(width: 1000, height: 700)
        controller.resize(to: Size(width: 1000, height: 700))
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.tilesPainted == 4 * 3)
        try renderer.resize(width: 300, height: 300)
        controller.resize(to: Size(width: 300, height: 300))
        _ = renderer.frame(for: controller.drawingView)
        #expect(renderer.tilesPainted == 4 * 3)
    }

    @Test("a double tap's clear makes every tile plain at once, with no painter involved")
    func clearIsImmediate() throws {
        let drawing = Self.randomDrawing(lines: 5_000, width: 700, height: 500, seed: 9)
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 700, height: 500), drawing: drawing)
        let renderer = try DrawingRenderer(width: 700, height: 500, painterThreads: 1)
        _ = renderer.frame(for: view)
        #expect(renderer.waitUntilTilesComplete(for: view))
        view.clearAll()
        _ = renderer.frame(for: view)
        #expect(renderer.tilesComplete)
        #expect(Self.samples(renderer.canvas).allSatisfy { $0 == 0xFFFFFF })
    }

    @Test("a clear while the tiles are being repainted shows in full at once, and stays clear as painters finish")
    func clearWhileRepaintingIsImmediate() throws {
        let (controller, renderer) = try Self.paintedScene(lines: 5_000, width: 700, height: 500, seed: 13)
        let view = controller.drawingView
        // Another large drawing: every tile is queued to be repainted, the old ones showing meanwhile.
        view.replaceDrawing(with: LoadedDocument(Self.randomDrawing(lines: 20_000, width: 700, height: 500, seed: 14)))
        _ = renderer.frame(for: view)
        view.clearAll()
        _ = renderer.frame(for: view)
        #expect(Self.samples(renderer.canvas).allSatisfy { $0 == 0xFFFFFF })
        #expect(renderer.waitUntilTilesComplete(for: view))
        _ = renderer.frame(for: view)
        #expect(Self.samples(renderer.canvas).allSatisfy { $0 == 0xFFFFFF })
    }
}
