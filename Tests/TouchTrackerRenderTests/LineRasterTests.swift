import Foundation
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerRender

/// Lines in progress are drawn by `LineRaster`, not Cairo: they must look like Cairo's strokes, stay inside the
/// band a frame redraws for them, and blend each pixel once however the damage region's rectangles overlap.
@Suite struct LineRasterTests {
    /// A white 400x300 canvas with `draw` done on it.
    private func canvas(_ draw: (CairoSurface) throws -> Void) throws -> CairoSurface {
        let canvas = try CairoSurface(width: 400, height: 300)
        let context = try CairoContext(surface: canvas)
        context.paint(solid: .white)
        canvas.flush()
        try draw(canvas)
        canvas.flush()
        return canvas
    }

    private func rasterized(_ line: Line, width: Double, color: Color = .black) throws -> CairoSurface {
        try canvas {
            LineRaster(line, width: width).draw(in: color, into: $0, within: [PixelBox(x0: 0, y0: 0, x1: 400, y1: 300)])
            $0.markDirty()
        }
    }

    /// How many pixels of a 400x300 `canvas` are not white.
    private func paintedPixels(_ canvas: CairoSurface) -> Int {
        var painted = 0
        for y in 0..<300 {
            for x in 0..<400 where canvas.pixel(x: x, y: y)! != (255, 255, 255) { painted += 1 }
        }
        return painted
    }

    @Test(
        "every pixel the raster paints lies inside the line's band, at any angle and pen width",
        arguments: [10.0, 3.0, 31.0, 1.0, 0.6])
    func bandHoldsEveryRasterizedPixel(width: Double) throws {
        for line in StrokeBandPixelTests.lines {
            let outside = StrokeBandPixelTests.paintedOutside(
                DamageRegion.band(along: [line], width: width), in: try rasterized(line, width: width))
            #expect(outside.isEmpty, "\(line): \(outside.prefix(5))")
        }
    }

    @Test(
        "the raster's pixels are Cairo's stroke's to within 24 levels in 255 (28 under 3 px, 36 under 1 px)",
        arguments: [(10.0, 24), (3.0, 24), (31.0, 24), (2.0, 28), (1.0, 28), (0.6, 36)])
    func looksLikeCairo(width: Double, levels: Int) throws {
        for line in StrokeBandPixelTests.lines {
            let ours = try rasterized(line, width: width)
            let cairo = try StrokeBandPixelTests.stroked(line, width: width)
            var worst = 0
            for y in 0..<300 {
                for x in 0..<400 {
                    worst = max(worst, abs(Int(ours.pixel(x: x, y: y)!.red) - Int(cairo.pixel(x: x, y: y)!.red)))
                }
            }
            #expect(worst <= levels, "\(line): differs from Cairo by \(worst) of 255")
        }
    }

    @Test("pixels the line covers entirely take its colour exactly")
    func coveredPixelsAreTheColour() throws {
        let canvas = try rasterized(
            Line(begin: Point(x: 20, y: 30), end: Point(x: 380, y: 250)), width: 10, color: .red)
        // On the centre line, well inside the stroke.
        for t in stride(from: 0.05, through: 0.95, by: 0.05) {
            let x = Int(20 + 360 * t)
            let y = Int(30 + 220 * t)
            #expect(canvas.pixel(x: x, y: y)! == (255, 0, 0), "(\(x), \(y))")
        }
    }

    @Test("a line drawn within a region's overlapping rectangles is blended once, as if drawn once")
    func overlappingRectanglesBlendOnce() throws {
        let line = Line(begin: Point(x: 20, y: 30), end: Point(x: 380, y: 250))
        var region = DamageRegion()
        region.add(Rect(x: 0, y: 0, width: 250, height: 300))
        region.add(Rect(x: 150, y: 0, width: 250, height: 300))
        let once = try rasterized(line, width: 10)
        let inBoxes = try canvas { canvas in
            LineRaster(line, width: 10).draw(
                in: .black, into: canvas, within: PixelRegion(region, within: canvas).boxes)
            canvas.markDirty()
        }
        var differing = 0
        for y in 0..<300 {
            for x in 0..<400 where once.pixel(x: x, y: y)! != inBoxes.pixel(x: x, y: y)! { differing += 1 }
        }
        #expect(differing == 0)
    }

    /// The pixels of a 400x300 canvas, as stored (with the byte RGB24 leaves unused), after `draw` on a grey whose
    /// unused byte is 0, so that a blend that mixed that byte in would show.
    private func storedWords(_ draw: (CairoSurface) -> Void) throws -> [UInt32] {
        let canvas = try CairoSurface(width: 400, height: 300)
        canvas.flush()
        let pixels = try #require(ImagePixels(canvas))
        for y in 0..<300 {
            (pixels.data + y * pixels.stride).assumingMemoryBound(to: UInt32.self).update(
                repeating: 0x0080_8080, count: 400)
        }
        draw(canvas)
        return (0..<300).flatMap { y in
            (0..<400).map { x in (pixels.data + y * pixels.stride + x * 4).load(as: UInt32.self) }
        }
    }

    @Test(
        "a pixel comes out the same whichever boxes the line is drawn in, body rows and cap rows alike",
        arguments: [
            (Line(begin: Point(x: 366.5, y: 180.5), end: Point(x: 140.96497269795253, y: 180.34680512036027)), 1.0),
            (Line(begin: Point(x: 12.3, y: 7.9), end: Point(x: 391.1, y: 288.4)), 10.0),
            (Line(begin: Point(x: 30.25, y: 260.5), end: Point(x: 350.75, y: 40.125)), 1.5),
            (Line(begin: Point(x: 200.4, y: 10.6), end: Point(x: 207.9, y: 290.2)), 3.0),
        ])
    func sameInAnyBoxes(line: Line, width: Double) throws {
        for color in [Color.black, Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.5)] {
            let whole = try storedWords { canvas in
                LineRaster(line, width: width).draw(
                    in: color, into: canvas, within: [PixelBox(x0: 0, y0: 0, x1: 400, y1: 300)])
            }
            // Grids of boxes cutting rows and columns at odd places, each box drawn in once.
            for (columns, rows) in [(7, 1), (13, 5), (37, 11), (3, 29)] {
                let xs = (0...columns).map { $0 * 400 / columns + ($0 % 2) }.map { min(400, $0) }
                let ys = (0...rows).map { $0 * 300 / rows }
                var boxes: [PixelBox] = []
                for row in 0..<rows {
                    for column in 0..<columns {
                        boxes.append(PixelBox(x0: xs[column], y0: ys[row], x1: xs[column + 1], y1: ys[row + 1]))
                    }
                }
                let cut = try storedWords { canvas in
                    LineRaster(line, width: width).draw(in: color, into: canvas, within: boxes)
                }
                let differing = zip(whole, cut).filter { $0 != $1 }.count
                #expect(differing == 0, "\(line), width \(width), \(columns)x\(rows) boxes: \(differing) pixels differ")
            }
        }
    }

    @Test("a line with a coordinate that is not a number draws nothing")
    func notANumberDrawsNothing() throws {
        let canvas = try rasterized(Line(begin: Point(x: 20, y: 30), end: Point(x: .nan, y: 250)), width: 10)
        #expect(paintedPixels(canvas) == 0)
    }

    @Test("a line whose end lies far outside the window is drawn along its own direction")
    func farEndKeepsTheDirection() throws {
        // Through (200, 150) towards a point 10^9 px away: cut to the arithmetic's range, it must still pass there.
        let begin = Point(x: 100, y: 100)
        let far = Point(x: 100 + 2e9, y: 100 + 1e9)
        let canvas = try rasterized(Line(begin: begin, end: far), width: 10, color: .red)
        #expect(canvas.pixel(x: 300, y: 200)! == (255, 0, 0))
        #expect(canvas.pixel(x: 300, y: 150)! == (255, 255, 255))
    }

    @Test("filling a box that lies wholly below the surface changes nothing")
    func fillOutsideChangesNothing() throws {
        let canvas = try canvas { surface in
            ImagePixels(surface)!.fill(PixelBox(x0: 10, y0: 400, x1: 50, y1: 500), with: .black)
            surface.markDirty()
        }
        #expect(paintedPixels(canvas) == 0)
    }
}
