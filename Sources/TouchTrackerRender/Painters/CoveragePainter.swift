import Foundation
import TouchKit
import TouchTracker

/// Paints strokes too small on a tile for their shape to be seen (zoomed far out, a line a pixel or so long and a
/// fraction of a pixel wide) straight into the tile's pixels as the ink they leave, without Cairo: each pixel the
/// stroke reaches is blended with its colour by the area of the pixel the stroke covers, which is what Cairo's
/// antialiasing gives such a stroke, and Cairo's stroker and scan converter (~1 µs a line at this size, most of
/// painting a zoomed-out tile) are skipped.
///
/// A line's segment is cut where it crosses the pixel grid; each piece lays `width x length` of ink (and each end
/// a round cap, half of Cairo's pen polygon), spread over the box its stroke fills (the piece's box widened by half
/// the pen) by the share of that box in each pixel. Only pixels within half the pen of the piece take any: those are pixels the stroke
/// may touch (`Shape.strokeMayTouch`), so a partial repaint, which strokes only the shapes that may touch its
/// region, gives every pixel of it the same ink as painting the whole tile. A circle this small is a ring's area of
/// ink spread over its box. A pixel's ink from one shape is added up before it is blended, once, as Cairo blends a
/// stroke's coverage once.
///
/// Which shapes are small enough (`Self.largest`, `Self.widestPen`): a stroke whose box is at most 1.5 px both ways
/// covers at most 3 x 3 pixels, and within so few pixels the only thing Cairo's result shows is how much ink went
/// into each; the box spread tells it to within 36 levels in 255 at any pixel of one stroke, and to within 2.5 on
/// average, with no bias, over a dense field of them (TinyShapeTests). A longer stroke shows its direction and edges, which Cairo draws exactly; a wider pen fills
/// pixels whole, and its round ends would be squared by the box spread. A circle is painted here only while its
/// outline is under half a pixel across (`largestCircle`): no more than a dot.
struct CoveragePainter {
    /// The largest stroke painted here: its box (pen included), in tile pixels, both ways.
    static let largest = 1.5
    /// The largest circle painted here, its outline's box in tile pixels, both ways: a larger one Cairo draws as a
    /// ring of four to eight chords, whose hollow shows in the 2 x 2 pixels it covers.
    static let largestCircle = 0.5
    /// The widest pen painted here, in tile pixels (a 1.5 px box holds no wider one anyway).
    static let widestPen = 1.0
    /// Pixels of the scratch grid each way: a box of `largest` pixels reaches into at most 3 pixels.
    private static let span = 4

    private let surface: CairoSurface
    private let pixels: ImagePixels
    /// Whether pixels were written since Cairo last had the surface (`handBack`).
    private var writing = false
    /// Where a drawing unit goes on the tile: `unit * scale - origin`.
    private let scale: Double
    private let originX: Double
    private let originY: Double
    /// Each pixel's ink from the shape being painted (`span x span` pixels from `left`, `top`).
    private var ink: [Double]
    /// Each pixel's share of the piece being spread (same grid).
    private var shares: [Double]
    private var left = 0
    private var top = 0
    /// The colour last blended, kept ready for the next shape, which is most often the same.
    private var paint: (color: Color, pixel: SourcePixel)?
    /// Where a line's segment crosses the pixel grid, as fractions of its length (kept to reuse its storage).
    private var cuts: [Double] = []

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
        shares = ink
        cuts.reserveCapacity(8)
    }

    /// Paints `shape` with a pen `width` units wide in `color` when it is small enough, and returns whether it
    /// did: false leaves it to Cairo, which must not draw on the surface before `handBack`.
    mutating func paint(_ shape: Shape, width: Double, color: Color) -> Bool {
        let pen = width * scale
        guard pen.isFinite, pen >= 0, pen <= Self.widestPen else { return false }
        switch shape {
        case .line(let line):
            return paintLine(from: place(line.begin), to: place(line.end), pen: pen, color: color)
        case .circle(let circle):
            let frame = circle.frame
            let low = place(Point(x: frame.minX, y: frame.minY))
            let high = place(Point(x: frame.maxX, y: frame.maxY))
            // Cairo strokes a circle of no width or height as the segment it collapses to (`stroke(_:width:)`).
            if frame.width == 0 || frame.height == 0 { return paintLine(from: low, to: high, pen: pen, color: color) }
            return paintRing(low: low, high: high, pen: pen, color: color)
        }
    }

    /// A drawing point on the tile, in pixels.
    private func place(_ point: Point) -> Point {
        Point(x: point.x * scale - originX, y: point.y * scale - originY)
    }

    private mutating func paintLine(from a: Point, to b: Point, pen: Double, color: Color) -> Bool {
        let r = pen / 2
        guard a.isFinite, b.isFinite, abs(b.x - a.x) + pen <= Self.largest, abs(b.y - a.y) + pen <= Self.largest
        else { return false }
        guard pen > 0, start(at: Point(x: min(a.x, b.x) - r, y: min(a.y, b.y) - r)) else { return true }
        // The pieces between the grid crossings, each inside one pixel.
        cuts.removeAll(keepingCapacity: true)
        cuts.append(0)
        cuts.append(1)
        let dx = b.x - a.x
        let dy = b.y - a.y
        Self.appendCrossings(from: a.x, by: dx, to: &cuts)
        Self.appendCrossings(from: a.y, by: dy, to: &cuts)
        cuts.sort()
        let length = (dx * dx + dy * dy).squareRoot()
        for index in 1..<cuts.count where cuts[index] > cuts[index - 1] {
            let p = Point(x: a.x + dx * cuts[index - 1], y: a.y + dy * cuts[index - 1])
            let q = Point(x: a.x + dx * cuts[index], y: a.y + dy * cuts[index])
            spread(pen * length * (cuts[index] - cuts[index - 1]), along: p, q, reach: r)
        }
        // The round caps, half of Cairo's pen at each end.
        let cap = Self.penArea(radius: r) / 2
        spread(cap, along: a, a, reach: r)
        spread(cap, along: b, b, reach: r)
        blend(color)
        return true
    }

    /// Appends to `cuts` where a coordinate going from `from` by `delta` crosses a whole number, as fractions of
    /// the way.
    private static func appendCrossings(from: Double, by delta: Double, to cuts: inout [Double]) {
        guard delta != 0 else { return }
        var line = min(from, from + delta).rounded(.down) + 1
        while line < max(from, from + delta) {
            cuts.append((line - from) / delta)
            line += 1
        }
    }

    private mutating func paintRing(low: Point, high: Point, pen: Double, color: Color) -> Bool {
        let r = pen / 2
        guard low.isFinite, high.isFinite, high.x - low.x + pen <= Self.largest, high.y - low.y + pen <= Self.largest,
            high.x - low.x <= Self.largestCircle, high.y - low.y <= Self.largestCircle
        else { return false }
        guard pen > 0, start(at: Point(x: low.x - r, y: low.y - r)) else { return true }
        // The ring between the outline widened and narrowed by half the pen, ellipses of those half axes, less
        // what Cairo leaves out of it: it flattens so small an outline to a chord or four (to within 0.1 px), whose
        // stroke covers 0.62 to 0.9 of the ring (measured, at pens of 0.2 to 0.8 px); no less than its pen.
        let (a, b) = ((high.x - low.x) / 2, (high.y - low.y) / 2)
        let ring = Double.pi * ((a + r) * (b + r) - max(0, a - r) * max(0, b - r))
        let area = max(Self.penArea(radius: r), Self.flattenedRing * ring)
        spreadOverBox(area, x0: low.x - r, y0: low.y - r, x1: high.x + r, y1: high.y + r)
        blend(color)
        return true
    }

    /// The share of a tiny circle's ring that Cairo's stroke of it covers, about (see `paintRing`).
    private static let flattenedRing = 0.75

    /// The area of Cairo's pen of `radius` pixels: a polygon of as many corners as keep it within Cairo's default
    /// tolerance (0.1 px) of the circle, and at least 4 (`_cairo_pen_vertices_needed`); none under 0.025 px.
    static func penArea(radius r: Double) -> Double {
        let tolerance = 0.1
        let corners: Int
        if tolerance >= 4 * r {
            return 0
        } else if tolerance >= r {
            corners = 4
        } else {
            let needed = Int((2 * Double.pi / acos(1 - tolerance / r)).rounded(.up))
            corners = max(4, needed + needed % 2)
        }
        return Double(corners) / 2 * r * r * sin(2 * Double.pi / Double(corners))
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

    /// Adds `area` of ink over the box the stroke of segment `p`–`q` fills (`reach` each side), shared among the
    /// pixels it overlaps that lie within `reach` of the segment, by how much of the box each holds.
    private mutating func spread(_ area: Double, along p: Point, _ q: Point, reach: Double) {
        let x0 = min(p.x, q.x) - reach
        let x1 = max(p.x, q.x) + reach
        let y0 = min(p.y, q.y) - reach
        let y1 = max(p.y, q.y) + reach
        var total = 0.0
        Self.forEachPixel(x0: x0, y0: y0, x1: x1, y1: y1, left: left, top: top) { x, y, index, overlap in
            guard Self.distance(from: p, q, toPixel: x, y) <= reach else { return }
            shares[index] = overlap
            total += overlap
        }
        guard total > 0 else { return }
        Self.forEachPixel(x0: x0, y0: y0, x1: x1, y1: y1, left: left, top: top) { _, _, index, _ in
            ink[index] += area * shares[index] / total
            shares[index] = 0
        }
    }

    /// Adds `area` of ink over a box, shared among the pixels it overlaps by how much of it each holds.
    private mutating func spreadOverBox(_ area: Double, x0: Double, y0: Double, x1: Double, y1: Double) {
        let total = (x1 - x0) * (y1 - y0)
        guard total > 0 else { return }
        Self.forEachPixel(x0: x0, y0: y0, x1: x1, y1: y1, left: left, top: top) { _, _, index, overlap in
            ink[index] += area * overlap / total
        }
    }

    /// Calls `body` with each pixel of the scratch grid (from `left`, `top`) the box overlaps, its place in the
    /// grid, and the area of the overlap. Static, so the painter that `body` changes is not read meanwhile.
    private static func forEachPixel(
        x0: Double, y0: Double, x1: Double, y1: Double, left: Int, top: Int,
        _ body: (_ x: Int, _ y: Int, _ index: Int, _ overlap: Double) -> Void
    ) {
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
                if width > 0 { body(x, y, (y - top) * Self.span + (x - left), width * height) }
            }
        }
    }

    /// The distance from the segment `p`–`q` to the pixel square at (`x`, `y`): 0 when it enters it; otherwise the
    /// nearest points are an end of the segment or a corner of the square.
    private static func distance(from p: Point, _ q: Point, toPixel x: Int, _ y: Int) -> Double {
        let (x0, y0) = (Double(x), Double(y))
        func toSquare(_ point: Point) -> Double {
            let dx = max(x0 - point.x, 0, point.x - (x0 + 1))
            let dy = max(y0 - point.y, 0, point.y - (y0 + 1))
            return (dx * dx + dy * dy).squareRoot()
        }
        var nearest = min(toSquare(p), toSquare(q))
        guard nearest > 0 else { return 0 }
        let segment = Line(begin: p, end: q)
        for (cx, cy) in [(x0, y0), (x0 + 1, y0), (x0, y0 + 1), (x0 + 1, y0 + 1)] {
            nearest = min(nearest, segment.distance(to: Point(x: cx, y: cy)))
        }
        return nearest
    }

    /// Tells Cairo that the pixels were written behind its back, if they were since the last call: before Cairo
    /// draws on the surface again, and when the painting is done.
    mutating func handBack() {
        guard writing else { return }
        surface.markDirty()
        writing = false
    }

    /// Blends each pixel of the scratch grid that lies on the tile with `color` by its ink (at most all of it),
    /// and clears the grid.
    private mutating func blend(_ color: Color) {
        if !writing {
            // What Cairo drew is in the pixels before they are read.
            surface.flush()
            writing = true
        }
        if paint?.color != color { paint = (color, SourcePixel(color)) }
        let source = paint!.pixel
        for row in 0..<Self.span {
            let y = top + row
            for column in 0..<Self.span {
                let index = row * Self.span + column
                let amount = ink[index]
                guard amount > 0 else { continue }
                ink[index] = 0
                let x = left + column
                guard x >= 0, y >= 0, x < pixels.width, y < pixels.height else { continue }
                let pixel = (pixels.data + y * pixels.stride + x * 4).assumingMemoryBound(to: UInt32.self)
                pixel.pointee = source.over(pixel.pointee, coverage: amount)
            }
        }
    }
}
