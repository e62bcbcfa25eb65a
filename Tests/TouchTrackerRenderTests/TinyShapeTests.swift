import Foundation
import SeededRandom
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerRender

/// Zoomed far out, strokes too small to show their shape are laid into the tiles as their ink (`CoveragePainter`)
/// instead of being stroked by Cairo: they must look as Cairo's strokes look, leave larger strokes exactly as Cairo
/// draws them, and give a partial repaint the pixels of a whole tile.
@Suite struct TinyShapeTests {
    /// A tile's edge, and the scale of a drawing 20 windows wide fitted into one.
    static let size = 256
    static let scale = 0.05
    static let tile = Rect(x: 0, y: 0, width: Double(size), height: Double(size))

    /// How far strokes painted as ink may be from Cairo's strokes of them, in levels of 255 of one channel. On
    /// average over the tile (the tone the eye sees; 1 %):
    static let meanTolerance = 2.5
    /// At the worst pixel of one line alone. A line's ink is the exact area of each pixel its stroke's polygon
    /// covers; Cairo's scan converter (`cairo-tor-scan-converter.c`, `GRID_Y` 15) measures it on 15 rows a pixel,
    /// so an edge running nearly along the pixel rows is placed to within one of those rows, 255 / 15 = 17 levels
    /// in a pixel it crosses whole, and each side rounds to a whole level (measured: 17 over 1,200 hairlines, 15
    /// over 200 tiny lines).
    static let oneLineTolerance = 18
    /// At the worst pixel of a field of lines: two lines' edges in one pixel, each a row of Cairo's off (measured:
    /// 20 to 24 over fields of 3,000 and 10,000 hairlines, 15 over 20,000 tiny lines).
    static let lineFieldTolerance = 2 * oneLineTolerance
    /// At the worst pixel of a field of tiny circles, whose ink is spread over their box rather than laid where
    /// their ring is: a pixel where a few of them meet adds up their differences.
    static let circleFieldTolerance = 64

    /// `count` lines of 5 to 25 units (0.25 to 1.25 px) in every direction over the tile, in the palette's colours
    /// or the default, with pens of the default width, 4 or 16 units (0.5, 0.2 and 0.8 px).
    static func tinyLines(_ count: Int, seed: UInt64) -> [Line] {
        var generator = SplitMix64(seed: seed)
        let extent = Double(size) / scale
        return (0..<count).map { index in
            let begin = Point(
                x: Double.random(in: 0..<extent, using: &generator), y: Double.random(in: 0..<extent, using: &generator)
            )
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &generator)
            let length = Double.random(in: 5...25, using: &generator)
            let end = Point(x: begin.x + length * cos(angle), y: begin.y + length * sin(angle))
            let colors: [LineColor?] = [nil, .red, .blue, .green, nil]
            let widths: [Double?] = [nil, 4, 16]
            return Line(begin: begin, end: end, color: colors[index % colors.count], width: widths[index % 3])
        }
    }

    /// `count` hairlines of 2 to 40 px (40 to 800 units) over the tile, with pens of 0.2 to 1.5 px (4 to 30 units):
    /// most in any direction, one in eight each exactly horizontal, vertical, at 45° and at -45°, and one in four of
    /// those starting on the pixel grid or halfway between its lines.
    static func hairlines(_ count: Int, seed: UInt64) -> [Line] {
        var generator = SplitMix64(seed: seed)
        let extent = Double(size) / scale
        return (0..<count).map { index in
            var begin = Point(
                x: Double.random(in: 0..<extent, using: &generator), y: Double.random(in: 0..<extent, using: &generator)
            )
            let length = Double.random(in: 40...800, using: &generator)
            let along: Point
            switch index % 8 {
            case 0: along = Point(x: length, y: 0)
            case 1: along = Point(x: 0, y: -length)
            case 2: along = Point(x: length, y: length) * (1 / 2.squareRoot())
            case 3: along = Point(x: -length, y: length) * (1 / 2.squareRoot())
            default:
                let angle = Double.random(in: 0..<(2 * Double.pi), using: &generator)
                along = Point(x: length * cos(angle), y: length * sin(angle))
            }
            if index % 8 < 4, index % 32 < 8 {
                // On the grid (a pixel is 20 units), or halfway.
                let step = index % 2 == 0 ? 20.0 : 10.0
                begin = Point(x: (begin.x / step).rounded() * step, y: (begin.y / step).rounded() * step)
            }
            let colors: [LineColor?] = [nil, .red, .blue, .green, nil]
            return Line(
                begin: begin, end: begin + along, color: colors[index % colors.count],
                width: Double.random(in: 4...30, using: &generator))
        }
    }

    static func scene(_ drawing: Drawing, scale: Double = scale, levelOfDetail: Bool) -> TileScene {
        let view = DrawingView(frame: Rect(x: 0, y: 0, width: 4000, height: 4000), drawing: drawing)
        return TileScene(
            version: 1, view: view, scale: scale, background: .white, completeColor: .black,
            levelOfDetail: levelOfDetail)
    }

    static func painted(_ drawing: Drawing, scale: Double = scale, levelOfDetail: Bool) throws -> CairoSurface {
        try #require(try scene(drawing, scale: scale, levelOfDetail: levelOfDetail).paintTile(at: tile, size: size))
    }

    /// Each channel of each pixel of two tiles: the mean and the largest difference, in levels of 255.
    static func difference(_ a: CairoSurface, _ b: CairoSurface) -> (mean: Double, worst: Int) {
        var total = 0
        var worst = 0
        for y in 0..<size {
            for x in 0..<size {
                let (p, q) = (a.pixel(x: x, y: y)!, b.pixel(x: x, y: y)!)
                for d in [Int(p.red) - Int(q.red), Int(p.green) - Int(q.green), Int(p.blue) - Int(q.blue)] {
                    total += abs(d)
                    worst = max(worst, abs(d))
                }
            }
        }
        return (Double(total) / Double(3 * size * size), worst)
    }

    @Test("a field of tiny lines laid in as ink is within 2.5 levels on average, and 36 at worst, of Cairo's strokes")
    func tinyLinesLookLikeCairo() throws {
        let drawing = Drawing(lines: Self.tinyLines(20_000, seed: 9))
        let ink = try Self.painted(drawing, levelOfDetail: true)
        let cairo = try Self.painted(drawing, levelOfDetail: false)
        let (mean, worst) = Self.difference(ink, cairo)
        #expect(mean <= Self.meanTolerance, "mean difference \(mean)")
        #expect(worst <= Self.lineFieldTolerance, "worst difference \(worst)")
        // The field is not blank: the comparison compares ink.
        let blank = try CairoSurface(width: Self.size, height: Self.size)
        try CairoContext(surface: blank).paint(solid: .white)
        #expect(Self.difference(cairo, blank).mean > 5)
    }

    @Test("one tiny line anywhere in a pixel, at any angle and pen, is within 18 levels of Cairo's stroke")
    func oneTinyLineLooksLikeCairo() throws {
        var generator = SplitMix64(seed: 4)
        for _ in 0..<200 {
            let begin = Point(
                x: 1000 + Double.random(in: 0..<40, using: &generator),
                y: 1000 + Double.random(in: 0..<40, using: &generator))
            let angle = Double.random(in: 0..<(2 * Double.pi), using: &generator)
            let length = Double.random(in: 0...20, using: &generator)
            let line = Line(
                begin: begin, end: Point(x: begin.x + length * cos(angle), y: begin.y + length * sin(angle)),
                width: Double.random(in: 1...20, using: &generator))
            let drawing = Drawing(lines: [line])
            let (_, worst) = Self.difference(
                try Self.painted(drawing, levelOfDetail: true), try Self.painted(drawing, levelOfDetail: false))
            #expect(worst <= Self.oneLineTolerance, "\(line): \(worst)")
        }
    }

    @Test("a field of hairlines laid in as ink is within 2.5 levels on average, and 36 at worst, of Cairo's strokes")
    func hairlinesLookLikeCairo() throws {
        let drawing = Drawing(lines: Self.hairlines(3_000, seed: 5))
        let ink = try Self.painted(drawing, levelOfDetail: true)
        let cairo = try Self.painted(drawing, levelOfDetail: false)
        let (mean, worst) = Self.difference(ink, cairo)
        #expect(mean <= Self.meanTolerance, "mean difference \(mean)")
        #expect(worst <= Self.lineFieldTolerance, "worst difference \(worst)")
        let blank = try CairoSurface(width: Self.size, height: Self.size)
        try CairoContext(surface: blank).paint(solid: .white)
        #expect(Self.difference(cairo, blank).mean > 20)
    }

    @Test("one hairline alone, at any angle, pen and place, is within 18 levels of Cairo's stroke at any pixel")
    func oneHairlineLooksLikeCairo() throws {
        for (index, line) in Self.hairlines(400, seed: 17).enumerated() {
            let drawing = Drawing(lines: [line])
            let (_, worst) = Self.difference(
                try Self.painted(drawing, levelOfDetail: true), try Self.painted(drawing, levelOfDetail: false))
            #expect(worst <= Self.oneLineTolerance, "\(index): \(line): \(worst)")
        }
    }

    @Test("a hairline far longer than the tile, crossing it or passing by at any angle, is within 18 levels of Cairo's")
    func longHairlinesLookLikeCairo() throws {
        var generator = SplitMix64(seed: 23)
        let middle = Point(x: 2560, y: 2560)
        var compared = 0
        for index in 0..<60 {
            // Through a point within a tile's width of the tile's middle: most cross it, some pass beside it; some
            // end on it.
            let through =
                middle
                + Point(
                    x: Double.random(in: -5120...5120, using: &generator),
                    y: Double.random(in: -5120...5120, using: &generator))
            let angle =
                index % 6 == 0 ? Double(index / 6) * Double.pi / 4 : Double.random(in: 0..<Double.pi, using: &generator)
            let along = Point(x: cos(angle), y: sin(angle)) * 200_000
            let line = Line(
                begin: through - along, end: index % 5 == 0 ? through : through + along,
                width: Double.random(in: 4...20, using: &generator))
            let drawing = Drawing(lines: [line])
            let ink = try Self.scene(drawing, levelOfDetail: true).paintTile(at: Self.tile, size: Self.size)
            let cairo = try Self.scene(drawing, levelOfDetail: false).paintTile(at: Self.tile, size: Self.size)
            // A line whose stroke cannot reach the tile leaves it plain either way.
            guard let ink, let cairo else {
                #expect(ink == nil && cairo == nil)
                continue
            }
            let (_, worst) = Self.difference(ink, cairo)
            #expect(worst <= Self.oneLineTolerance, "\(line): \(worst)")
            compared += 1
        }
        // Most of them cross the tile: the comparison compares ink.
        #expect(compared >= 30, "\(compared) lines on the tile")
    }

    @Test("circles under half a pixel across laid in as ink are within 2.5 levels on average, and 64 at worst")
    func tinyCirclesLookLikeCairo() throws {
        var generator = SplitMix64(seed: 12)
        let circles = (0..<3_000).map { index in
            Circle(
                frame: Rect(
                    x: Double.random(in: 0..<5000, using: &generator),
                    y: Double.random(in: 0..<5000, using: &generator),
                    width: Double.random(in: 0...10, using: &generator),
                    height: index % 7 == 0 ? 0 : Double.random(in: 0...10, using: &generator)),
                color: index % 2 == 0 ? .red : nil, width: index % 3 == 0 ? 6 : nil)
        }
        let drawing = Drawing(circles: circles)
        let (mean, worst) = Self.difference(
            try Self.painted(drawing, levelOfDetail: true), try Self.painted(drawing, levelOfDetail: false))
        #expect(mean <= Self.meanTolerance, "mean difference \(mean)")
        #expect(worst <= Self.circleFieldTolerance, "worst difference \(worst)")
    }

    @Test(
        "strokes with a pen over 1.5 px, and circles over half a pixel across, are stroked by Cairo exactly as before",
        arguments: [0.05, 0.5, 1])
    func widerStrokesAreCairos(scale: Double) throws {
        // At each scale: lines of pens just over a pixel to 4 px, short and long; circles over half a pixel across.
        let unit = 1 / scale
        let lines = (0..<200).map { index in
            let begin = Point(x: Double(index % 20) * 12 * unit, y: Double(index / 20) * 24 * unit)
            let length = (0.3 + Double(index % 9) * 2) * unit
            let pens = [1.51, 2, 3, 4]
            return Line(
                begin: begin, end: begin + Point(x: length, y: Double(index % 3) * length / 3),
                color: index % 2 == 0 ? .red : nil, width: pens[index % pens.count] * unit)
        }
        let circles = (0..<40).map { (index: Int) -> Circle in
            let (width, height): (Double, Double) = index % 2 == 0 ? (1.8, 2) : (0.6, 0.55)
            let frame = Rect(x: Double(index) * 6 * unit, y: 230 * unit, width: width * unit, height: height * unit)
            return Circle(frame: frame, width: 0.2 * unit)
        }
        let drawing = Drawing(lines: lines, circles: circles)
        let withInk = try Self.painted(drawing, scale: scale, levelOfDetail: true)
        let cairo = try Self.painted(drawing, scale: scale, levelOfDetail: false)
        #expect(TileTests.differingPixels(withInk, cairo).isEmpty)
    }

    @Test("a tile repainted in parts shows, in them, exactly what the whole tile painted at once shows, hairlines too")
    func partialRepaintMatchesWholeTile() throws {
        var generator = SplitMix64(seed: 21)
        // Tiny lines and hairlines, one after the other.
        let lines = zip(Self.tinyLines(3_000, seed: 3), Self.hairlines(3_000, seed: 8)).flatMap { [$0, $1] }
        // Some lines Cairo strokes, among them.
        let long = (0..<30).map { index in
            Line(
                begin: Point(x: Double(index) * 170, y: 0), end: Point(x: 5000 - Double(index) * 150, y: 5100),
                color: .blue, width: index % 2 == 0 ? 30 : nil)
        }
        let whole = Drawing(lines: Array(lines[..<3_000]) + long + Array(lines[3_000...]))
        let full = Self.scene(whole, levelOfDetail: true)
        let wholeTile = try #require(try full.paintTile(at: Self.tile, size: Self.size))
        // The base: the tile as it was before a third of the lines were drawn.
        let before = Self.scene(Drawing(lines: Array(lines[..<2_000]) + long), levelOfDetail: true)
        let base = try #require(try before.paintTile(at: Self.tile, size: Self.size))
        for _ in 0..<20 {
            let region = (0..<3).map { _ in
                Rect(
                    x: Double.random(in: 0..<240, using: &generator), y: Double.random(in: 0..<240, using: &generator),
                    width: Double.random(in: 0.5..<40, using: &generator),
                    height: Double.random(in: 0.5..<40, using: &generator))
            }
            let repainted = try full.repaintTile(at: Self.tile, size: Self.size, over: base, within: region)
            let boxes = region.map { PixelBox($0, width: Self.size, height: Self.size) }
            for y in 0..<Self.size {
                for x in 0..<Self.size {
                    let inRegion = boxes.contains { x >= $0.x0 && x < $0.x1 && y >= $0.y0 && y < $0.y1 }
                    let expected = inRegion ? wholeTile : base
                    #expect(
                        TileTests.rgb(repainted, x, y) == TileTests.rgb(expected, x, y),
                        "(\(x), \(y)) in \(region)")
                }
            }
        }
    }

    @Test("a tiny line's ink is in its own colour, or the default, and as much as its own pen's area")
    func inkFollowsTheShapesStyle() throws {
        // 20 units long at 0.05: a 1 px line, alone on the tile, the pens 0.2 and 0.5 px wide.
        func ink(of line: Line, completeColor: Color = .black) throws -> (red: Double, green: Double, blue: Double) {
            let view = DrawingView(frame: Rect(x: 0, y: 0, width: 4000, height: 4000), drawing: Drawing(lines: [line]))
            let scene = TileScene(
                version: 1, view: view, scale: Self.scale, background: .white, completeColor: completeColor)
            let tile = try #require(try scene.paintTile(at: Self.tile, size: Self.size))
            var sum = (red: 0.0, green: 0.0, blue: 0.0)
            for y in 0..<Self.size {
                for x in 0..<Self.size {
                    let p = tile.pixel(x: x, y: y)!
                    sum.red += Double(255 - Int(p.red)) / 255
                    sum.green += Double(255 - Int(p.green)) / 255
                    sum.blue += Double(255 - Int(p.blue)) / 255
                }
            }
            return sum
        }
        let begin = Point(x: 2010, y: 2013)
        let end = begin + Point(x: 20, y: 0)
        // Red on white leaves red alone and takes green and blue away by the stroke's area: 1 x 0.5, and a cap at
        // each end, together Cairo's pen (an octagon of radius 0.25 at its tolerance of 0.1 px).
        let red = try ink(of: Line(begin: begin, end: end, color: .red))
        let area = 1 * 0.5 + 2 * 2.squareRoot() * 0.25 * 0.25
        #expect(red.red == 0)
        #expect(abs(red.green - area) < 0.02 && abs(red.blue - area) < 0.02, "\(red) against \(area)")
        // Its own width: 4 units, 0.2 px.
        let thin = try ink(of: Line(begin: begin, end: end, color: .red, width: 4))
        let thinArea = 1 * 0.2 + 2 * 0.1 * 0.1  // the pen a square
        #expect(abs(thin.green - thinArea) < 0.02, "\(thin) against \(thinArea)")
        // No colour of its own: the scene's colour for complete shapes.
        let plain = try ink(of: Line(begin: begin, end: end), completeColor: Color(red: 0, green: 0, blue: 1))
        #expect(plain.blue == 0 && abs(plain.red - area) < 0.02 && abs(plain.green - area) < 0.02, "\(plain)")
    }
}
