import CCairo
import TouchKit
import TouchTracker

/// A straight line with round caps, antialiased and written straight into an RGB24 image surface's pixels. Lines
/// in progress are drawn with it: a finger's line across a 1920x1080 window is redrawn on every move, and Cairo's
/// general stroker (a polygon, then a scan converter sampling 15 rows per pixel row over the line's whole height)
/// took ~0.2 ms of a frame for it, against a few hundredths here, where each row's span is worked out directly.
///
/// A pixel's coverage is the overlap of `[d − ½, d + ½]` with `[−r, r]`, where `d` is the distance from its centre
/// to the segment and `r` half the width: a box filter across the line, Cairo's antialiasing to within a few
/// levels in 255. Every pixel it touches has its centre less than `r + ½` from the segment, so it lies inside the
/// line's damage band (`DamageRegion.band`, which reaches `r + 1`).
struct LineRaster {
    private let begin: Point
    private let end: Point
    /// Half the stroke width.
    private let radius: Double
    /// The unit direction from `begin` to `end` (zero for a dot) and the length.
    private let ux: Double
    private let uy: Double
    private let length: Double
    /// How the band beside the segment crosses each row, as offsets from `begin.x` that move linearly down the
    /// rows: where a row's points project onto the segment's ends (nil for a vertical segment), and where the
    /// segment's centre line crosses it and how far to each side `reach` takes it (nil for a horizontal one).
    private let along: (slope: Double, span: Double)?
    private let across: (slope: Double, perReach: Double)?
    /// The rows with any coverage.
    let rows: ClosedRange<Int>

    /// Coordinates are held to this, so a finger far outside the window keeps the arithmetic in range.
    private static let limit = 1.0e7

    init(_ line: Line, width: Double) {
        func held(_ value: Double) -> Double { value.isFinite ? min(Self.limit, max(-Self.limit, value)) : 0 }
        begin = Point(x: held(line.begin.x), y: held(line.begin.y))
        end = Point(x: held(line.end.x), y: held(line.end.y))
        radius = width.isFinite ? max(0, min(width, Self.limit) / 2) : 0
        let dx = end.x - begin.x
        let dy = end.y - begin.y
        length = (dx * dx + dy * dy).squareRoot()
        (ux, uy) = length > 1e-9 ? (dx / length, dy / length) : (0, 0)
        along = length > 1e-9 && abs(ux) > 1e-12 ? (-uy / ux, length / ux) : nil
        across = length > 1e-9 && abs(uy) > 1e-12 ? (ux / uy, 1 / abs(uy)) : nil
        let reach = radius + 0.5
        rows = Int((min(begin.y, end.y) - reach - 0.5).rounded(.down))...Int((max(begin.y, end.y) + reach).rounded(.up))
    }

    /// Draws the line in `color` into `surface` (RGB24), only within `box`. Call `flush` on the surface before and
    /// `markDirty` after, as for any write behind Cairo's back.
    func draw(in color: Color, into surface: CairoSurface, within box: PixelBox) {
        let box = box.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !box.isEmpty, radius > 0, let data = cairo_image_surface_get_data(surface.pointer) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface.pointer))
        let paint = SourcePixel(color)
        let firstRow = max(box.y0, rows.lowerBound)
        let lastRow = min(box.y1 - 1, rows.upperBound)
        guard firstRow <= lastRow else { return }
        for y in firstRow...lastRow {
            guard let touched = span(row: y, within: radius + 0.5, inner: false) else { continue }
            let first = max(box.x0, touched.lowerBound)
            let last = min(box.x1 - 1, touched.upperBound)
            guard first <= last else { continue }
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            // Pixels covered entirely take the colour as it is; only the few at the edges are blended.
            let inner = radius >= 0.5 ? span(row: y, within: radius - 0.5, inner: true) : nil
            let fillFirst = max(first, inner?.lowerBound ?? Int.max)
            let fillLast = min(last, inner?.upperBound ?? Int.min)
            guard paint.isOpaque, fillFirst <= fillLast else {
                blend(row: row, y: y, from: first, to: last, paint: paint)
                continue
            }
            blend(row: row, y: y, from: first, to: fillFirst - 1, paint: paint)
            (row + fillFirst).update(repeating: paint.word, count: fillLast - fillFirst + 1)
            blend(row: row, y: y, from: fillLast + 1, to: last, paint: paint)
        }
    }

    /// How much of pixel (x, y) the line covers, 0...1.
    func coverage(x: Int, y: Int) -> Double {
        let px = Double(x) + 0.5 - begin.x
        let py = Double(y) + 0.5 - begin.y
        return coverage(atDistance: distance(px: px, py: py, along: px * ux + py * uy, across: px * uy - py * ux))
    }

    /// The distance from the point `(px, py)` (from `begin`) to the segment, given its place `along` the segment
    /// and `across` it, which the caller steps pixel by pixel.
    private func distance(px: Double, py: Double, along: Double, across: Double) -> Double {
        // Beside the segment: the distance across it, with no square root (most pixels of a long line).
        if length > 0, along >= 0, along <= length { return abs(across) }
        let t = min(length, max(0, along))
        let ex = px - t * ux
        let ey = py - t * uy
        return (ex * ex + ey * ey).squareRoot()
    }

    private func coverage(atDistance distance: Double) -> Double {
        max(0, min(radius, distance + 0.5) - max(-radius, distance - 0.5))
    }

    private func blend(row: UnsafeMutablePointer<UInt32>, y: Int, from first: Int, to last: Int, paint: SourcePixel) {
        guard first <= last else { return }
        var px = Double(first) + 0.5 - begin.x
        let py = Double(y) + 0.5 - begin.y
        var along = px * ux + py * uy
        var across = px * uy - py * ux
        for x in first...last {
            let weight = coverage(atDistance: distance(px: px, py: py, along: along, across: across)) * paint.alpha
            if weight > 0 { row[x] = paint.over(row[x], weight: weight) }
            px += 1
            along += ux
            across += uy
        }
    }

    /// The pixels of row `y` whose centres lie within `reach` of the segment: strictly (`inner` false: the pixels
    /// touched at all) or with the ends included (`inner` true: those covered entirely, for `reach` = `r − ½`).
    private func span(row y: Int, within reach: Double, inner: Bool) -> ClosedRange<Int>? {
        guard let (low, high) = interval(row: y, within: reach) else { return nil }
        // Limited to the held coordinates' range, so the conversion to Int cannot trap.
        let bound = Self.limit * 4
        let lowEdge = max(-bound, low - 0.5)
        let highEdge = min(bound, high - 0.5)
        let first = inner ? Int(lowEdge.rounded(.up)) : Int(lowEdge.rounded(.down)) + 1
        let last = inner ? Int(highEdge.rounded(.down)) : Int(highEdge.rounded(.up)) - 1
        return first <= last ? first...last : nil
    }

    /// The x interval of row `y`'s centre line lying within `reach` of the segment: the union of the caps' discs and
    /// the slab beside the segment (the shape is convex, so the union is one interval).
    private func interval(row y: Int, within reach: Double) -> (Double, Double)? {
        guard reach > 0 else { return nil }
        let cy = Double(y) + 0.5
        var low = Double.infinity
        var high = -Double.infinity
        func addCap(_ cap: Point) {
            let dy = cy - cap.y
            let squared = reach * reach - dy * dy
            guard squared > 0 else { return }
            let half = squared.squareRoot()
            low = min(low, cap.x - half)
            high = max(high, cap.x + half)
        }
        addCap(begin)
        addCap(end)
        if length > 1e-9, let slab = slab(atY: cy, within: reach) {
            low = min(low, slab.low)
            high = max(high, slab.high)
        }
        return low < high ? (low, high) : nil
    }

    /// Where the row at `cy` crosses the points that project onto the segment and lie within `reach` across it.
    private func slab(atY cy: Double, within reach: Double) -> (low: Double, high: Double)? {
        let oy = cy - begin.y
        var low = -Double.infinity
        var high = Double.infinity
        // Along: 0 ≤ (x − bx)·ux + oy·uy ≤ length.
        if let along {
            let start = oy * along.slope
            low = min(start, start + along.span)
            high = max(start, start + along.span)
        } else if oy * uy < 0 || oy * uy > length {
            return nil
        }
        // Across: |(x − bx)·uy − oy·ux| ≤ reach.
        if let across {
            let centre = oy * across.slope
            let half = reach * across.perReach
            low = max(low, centre - half)
            high = min(high, centre + half)
        } else if abs(oy) > reach {
            return nil
        }
        return low < high ? (begin.x + low, begin.x + high) : nil
    }
}

/// A colour as Cairo's RGB24 stores it (a native 32-bit word) and its alpha, blended over a pixel as Cairo's OVER
/// does with a coverage mask.
private struct SourcePixel {
    let word: UInt32
    let alpha: Double
    private let red, green, blue: UInt32

    init(_ color: Color) {
        // As Cairo does: a channel goes to 16 bits, of which the image keeps the top 8.
        func channel(_ value: Double) -> UInt32 {
            UInt32(min(1, max(0, value.isFinite ? value : 0)) * 65535 + 0.5) >> 8
        }
        (red, green, blue) = (channel(color.red), channel(color.green), channel(color.blue))
        alpha = color.alpha.isFinite ? min(1, max(0, color.alpha)) : 1
        word = 0xFF00_0000 | red << 16 | green << 8 | blue
    }

    var isOpaque: Bool { alpha >= 1 }

    /// `pixel` with this colour laid over it at `weight` (0...1).
    func over(_ pixel: UInt32, weight: Double) -> UInt32 {
        let m = UInt32(min(1, weight) * 255 + 0.5)
        guard m < 255 else { return word }
        let n = 255 - m
        func mix(_ source: UInt32, _ shift: UInt32) -> UInt32 {
            let t = source * m + ((pixel >> shift) & 0xFF) * n + 128
            return ((t + (t >> 8)) >> 8) << shift
        }
        return 0xFF00_0000 | mix(red, 16) | mix(green, 8) | mix(blue, 0)
    }
}
