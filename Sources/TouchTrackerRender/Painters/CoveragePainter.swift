import Foundation
import TouchKit
import TouchTracker

/// Paints strokes whose shape a tile cannot show (zoomed far out: a line whose pen is at most a pixel wide, a circle
/// a fraction of a pixel across) straight into the tile's pixels as the ink they leave, without Cairo: each pixel
/// the stroke reaches is blended with its colour by the area of the pixel the stroke covers, which is what Cairo's
/// antialiasing gives such a stroke, and Cairo's stroker and scan converter (~1 µs a short line, more for a longer
/// one: most of painting a zoomed-out tile) are skipped.
///
/// Which shapes (`Self.widestPen`, `Self.largestCircle`): a line of any length whose pen is at most 1.5 px on the
/// tile, a hairline. The pen is what makes a stroke's look more than its ink: so thin, Cairo's result is just the
/// area of each pixel the stroke covers. Here that area is computed exactly, for the polygon Cairo's
/// stroker makes of the line (the rectangle about it and the corners of Cairo's pen at its ends), column by column
/// across the pixel grid (`paintHairline`); what differs from Cairo's is its scan converter's rounding, which
/// measures coverage on 15 rows a pixel: within 18 levels in 255 at any pixel of one line, and 2.5 on average over a
/// field of them (TinyShapeTests). A wider pen fills pixels whole and its round ends show, which Cairo draws as it
/// does. No length is too long: a line's ink is kept in a few pixels of each tile column (or row) it crosses, and
/// the columns off the tile are skipped. A circle is painted here only while its outline is under half a pixel
/// across: no more than a dot, a ring's area of ink spread over its box.
///
/// Only pixels the stroke's polygon enters take any of its ink, pixels within half the pen of the segment: those are
/// pixels the stroke may touch (`Shape.strokeMayTouch`), so a partial repaint, which strokes only the shapes that
/// may touch its region, gives every pixel of it the same ink as painting the whole tile. A pixel's ink from one
/// shape is added up before it is blended, once, as Cairo blends a stroke's coverage once: a line's in a band a few
/// pixels high along it (one column of the tile per pixel along it, so a line of any length fits), a circle's in a
/// 4 x 4 grid.
struct CoveragePainter {
    /// The largest circle painted here, its outline's box in tile pixels, both ways: a larger one Cairo draws as a
    /// ring of four to eight chords, whose hollow shows in the 2 x 2 pixels it covers.
    static let largestCircle = 0.5
    /// The largest circle's box with its pen, in tile pixels, both ways: it covers at most 3 x 3 pixels.
    static let largestCircleStroke = 1.5
    /// The widest pen painted here, in tile pixels: a pixel and a half, so the app's default 10-unit pen is a hairline
    /// at its smallest zoom (10 %: 1 px; on a 150 % screen, 1.5 px), where a drawing fitted to the window has most
    /// of its lines. The exact area holds for any pen (it is the stroker's own polygon); the band holds a pen of
    /// 2 px at 45°.
    static let widestPen = 1.5
    /// Pixels of the circles' scratch grid each way: a box of `largestCircleStroke` reaches into at most 3 pixels.
    private static let span = 4

    private let surface: CairoSurface
    let pixels: ImagePixels
    /// Whether pixels were written since Cairo last had the surface (`handBack`).
    private var writing = false
    /// Where a drawing unit goes on the tile: `unit * scale - origin`.
    private let scale: Double
    private let originX: Double
    private let originY: Double
    /// Each pixel's ink from the circle being painted (`span x span` pixels from `left`, `top`).
    private var ink: [Double]
    private var left = 0
    private var top = 0
    /// Each pixel's ink from the line being painted: `bandRows` pixels of each column along it (the tile's columns,
    /// or its rows for a line steeper than 45°), from the row in `bandTops`.
    var band: [Double]
    var bandTops: [Int]
    /// The outline of the line being painted, in the band's axes (`paintHairline`).
    var outline: [Point] = []
    /// Its edges that are not upright.
    var edges: [Edge] = []
    /// Cairo's pen polygon for the last pen's radius, about the origin, in tile pixels.
    var penPolygon: [Point] = []
    var penRadius = -1.0
    /// The colour last blended, kept ready for the next shape, which is most often the same.
    private var paint: (color: Color, pixel: SourcePixel)?

    /// A painter for `surface`, the tile at `rect` (canvas pixels) painted at `scale` pixels per unit; nil when the
    /// surface has no pixels to write.
    init?(surface: CairoSurface, tileAt rect: Rect, scale: Double) {
        guard let pixels = ImagePixels(surface) else { return nil }
        self.surface = surface
        self.pixels = pixels
        self.scale = scale
        originX = rect.minX
        originY = rect.minY
        ink = Array(repeating: 0, count: Self.span * Self.span)
        let columns = max(pixels.width, pixels.height)
        band = Array(repeating: 0, count: columns * Self.bandRows)
        bandTops = Array(repeating: 0, count: columns)
        outline.reserveCapacity(16)
        edges.reserveCapacity(16)
    }

    /// Paints `shape` with a pen `width` units wide in `color` when its shape cannot show on the tile, and returns
    /// whether it did: false leaves it to Cairo, which must not draw on the surface before `handBack`.
    mutating func paint(_ shape: Shape, width: Double, color: Color) -> Bool {
        let pen = width * scale
        guard pen.isFinite, pen >= 0, pen <= Self.widestPen else { return false }
        switch shape {
        case .line(let line):
            return paintHairline(from: place(line.begin), to: place(line.end), pen: pen, color: color)
        case .circle(let circle):
            let frame = circle.frame
            let low = place(Point(x: frame.minX, y: frame.minY))
            let high = place(Point(x: frame.maxX, y: frame.maxY))
            // Cairo strokes a circle of no width or height as the segment it collapses to (`stroke(_:width:)`).
            if frame.width == 0 || frame.height == 0 {
                return paintHairline(from: low, to: high, pen: pen, color: color)
            }
            return paintRing(low: low, high: high, pen: pen, color: color)
        }
    }

    /// A drawing point on the tile, in pixels.
    private func place(_ point: Point) -> Point {
        Point(x: point.x * scale - originX, y: point.y * scale - originY)
    }

    private mutating func paintRing(low: Point, high: Point, pen: Double, color: Color) -> Bool {
        let r = pen / 2
        guard low.isFinite, high.isFinite, high.x - low.x + pen <= Self.largestCircleStroke,
            high.y - low.y + pen <= Self.largestCircleStroke, high.x - low.x <= Self.largestCircle,
            high.y - low.y <= Self.largestCircle
        else { return false }
        guard pen > 0, start(at: Point(x: low.x - r, y: low.y - r)) else { return true }
        // The ring between the outline widened and narrowed by half the pen, ellipses of those half axes, less
        // what Cairo leaves out of it: it flattens so small an outline to a chord or four (to within 0.1 px), whose
        // stroke covers 0.62 to 0.9 of the ring (measured, at pens of 0.2 to 0.8 px); no less than its pen.
        let (a, b) = ((high.x - low.x) / 2, (high.y - low.y) / 2)
        let ring = Double.pi * ((a + r) * (b + r) - max(0, a - r) * max(0, b - r))
        let area = max(Self.penArea(radius: r), Self.flattenedRing * ring)
        spreadOverBox(area, x0: low.x - r, y0: low.y - r, x1: high.x + r, y1: high.y + r)
        blendGrid(color)
        return true
    }

    /// The share of a tiny circle's ring that Cairo's stroke of it covers, about (see `paintRing`).
    private static let flattenedRing = 0.75

    /// The area of Cairo's pen of `radius` pixels: a regular polygon of `penCorners` corners on the circle.
    static func penArea(radius r: Double) -> Double {
        let corners = Double(penCorners(radius: r))
        return corners < 3 ? 0 : corners / 2 * r * r * sin(2 * Double.pi / corners)
    }

    /// Points the scratch grid at the pixel holding `corner` (the stroke's top-left); false when the stroke lies
    /// wholly off the tile.
    private mutating func start(at corner: Point) -> Bool {
        // Far beyond any tile (and where a pixel's edges are no longer whole numbers apart): nothing to paint.
        guard abs(corner.x) < 1e9, abs(corner.y) < 1e9 else { return false }
        left = Int(corner.x.rounded(.down))
        top = Int(corner.y.rounded(.down))
        return left + Self.span > 0 && top + Self.span > 0 && left < pixels.width && top < pixels.height
    }

    /// Adds `area` of ink over a box, shared among the pixels it overlaps by how much of it each holds.
    private mutating func spreadOverBox(_ area: Double, x0: Double, y0: Double, x1: Double, y1: Double) {
        let total = (x1 - x0) * (y1 - y0)
        guard total > 0 else { return }
        let firstX = max(left, Int(x0.rounded(.down)))
        let lastX = min(left + Self.span - 1, Int(x1.rounded(.up)) - 1)
        let firstY = max(top, Int(y0.rounded(.down)))
        let lastY = min(top + Self.span - 1, Int(y1.rounded(.up)) - 1)
        guard firstX <= lastX, firstY <= lastY else { return }
        for y in firstY...lastY {
            let height = min(y1, Double(y + 1)) - max(y0, Double(y))
            guard height > 0 else { continue }
            for x in firstX...lastX {
                let width = min(x1, Double(x + 1)) - max(x0, Double(x))
                if width > 0 { ink[(y - top) * Self.span + (x - left)] += area * width * height / total }
            }
        }
    }

    /// Tells Cairo that the pixels were written behind its back, if they were since the last call: before Cairo
    /// draws on the surface again, and when the painting is done.
    mutating func handBack() {
        guard writing else { return }
        surface.markDirty()
        writing = false
    }

    /// Blends each pixel of the scratch grid that lies on the tile with `color` by its ink, and clears the grid.
    private mutating func blendGrid(_ color: Color) {
        let source = beginBlending(color)
        for row in 0..<Self.span {
            let y = top + row
            for column in 0..<Self.span {
                let index = row * Self.span + column
                let amount = ink[index]
                guard amount > 0 else { continue }
                ink[index] = 0
                let x = left + column
                guard x >= 0, y >= 0, x < pixels.width, y < pixels.height else { continue }
                blendPixel(x: x, y: y, source, coverage: amount)
            }
        }
    }

    /// Makes the pixels ready to be written (what Cairo drew is in them first), and returns `color` as a pixel.
    mutating func beginBlending(_ color: Color) -> SourcePixel {
        if !writing {
            surface.flush()
            writing = true
        }
        if paint?.color != color { paint = (color, SourcePixel(color)) }
        return paint!.pixel
    }

    /// Blends the pixel at (`x`, `y`), on the tile, with `source` by `coverage` (at most all of it).
    func blendPixel(x: Int, y: Int, _ source: SourcePixel, coverage: Double) {
        let pixel = (pixels.data + y * pixels.stride + x * 4).assumingMemoryBound(to: UInt32.self)
        pixel.pointee = source.over(pixel.pointee, coverage: coverage)
    }
}
