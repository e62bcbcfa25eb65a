import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

/// A stroke's band is the region a frame redraws for it: every pixel Cairo paints for the stroke must lie inside,
/// or a moving line would leave a trail of its old place on screen.
@Suite struct StrokeBandPixelTests {
    /// Lines at every steepness, including the two axes, the diagonals, a dot and a 1 px stub, in two pen widths.
    static let lines: [Line] = {
        var lines: [Line] = []
        let center = Point(x: 200.3, y: 150.7)
        for degrees in stride(from: 0.0, to: 360.0, by: 7.5) {
            let angle = degrees * .pi / 180
            let end = Point(x: center.x + 170 * cos(angle), y: center.y + 130 * sin(angle))
            lines.append(Line(begin: center, end: end))
        }
        lines.append(Line(begin: center, end: center))
        lines.append(Line(begin: center, end: Point(x: center.x + 1, y: center.y + 0.4)))
        return lines
    }()

    /// `line` stroked by Cairo in black, `width` wide, on a white 400x300 canvas.
    static func stroked(_ line: Line, width: Double) throws -> CairoSurface {
        let canvas = try CairoSurface(width: 400, height: 300)
        let context = try CairoContext(surface: canvas)
        context.paint(solid: .white)
        context.setColor(.black)
        context.stroke(line, width: width)
        canvas.flush()
        return canvas
    }

    /// The painted (not white) pixels of a 400x300 `canvas` that lie outside `band`, as "(x, y)".
    static func paintedOutside(_ band: DamageRegion, in canvas: CairoSurface) -> [String] {
        var outside: [String] = []
        for y in 0..<300 {
            for x in 0..<400 where canvas.pixel(x: x, y: y)! != (255, 255, 255) {
                if !band.intersects(Rect(x: Double(x), y: Double(y), width: 1, height: 1)) {
                    outside.append("(\(x), \(y))")
                }
            }
        }
        return outside
    }

    @Test("every pixel a stroke paints lies inside its band, at any angle and pen width", arguments: [10.0, 3.0, 31.0])
    func bandHoldsEveryPaintedPixel(width: Double) throws {
        for line in Self.lines {
            let outside = Self.paintedOutside(
                DamageRegion.band(along: [line], width: width), in: try Self.stroked(line, width: width))
            #expect(outside.isEmpty, "\(line): \(outside.prefix(5))")
        }
    }

    @Test("the old and the new place of a moving line, together, hold every pixel either stroke paints")
    func movingBandHoldsBothStrokes() throws {
        let begin = Point(x: 30, y: 20)
        let old = Line(begin: begin, end: Point(x: 370, y: 280))
        let new = Line(begin: begin, end: Point(x: 330, y: 290))
        let band = DamageRegion.band(along: [old, new], width: 10)
        for line in [old, new] {
            let outside = Self.paintedOutside(band, in: try Self.stroked(line, width: 10))
            #expect(outside.isEmpty, "\(line): \(outside.prefix(5))")
        }
    }
}
