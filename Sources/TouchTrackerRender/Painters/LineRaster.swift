import CCairo
import Glibc
import TouchKit
import TouchTracker

/// A straight line with round caps, antialiased and written straight into an RGB24 image surface's pixels. Lines
/// in progress are drawn with it: a finger's line across a 1920x1080 window is redrawn on every move, and Cairo's
/// general stroker (a polygon, then a scan converter sampling several sub-rows per pixel row over the line's whole
/// height) takes ~0.18 ms for a 10 px line across the 1920x1080 diagonal, this ~0.025 ms: each row's span is worked
/// out directly, most of it is a plain fill, and only the few pixels at each edge are blended. (Rounding rules
/// passed as arguments, libm's `floor` and Cairo's getters at every row slow it down: keep the row loops plain.)
///
/// A pixel's coverage is the overlap of `[d − ½, d + ½]` with `[−r, r]`, where `d` is the distance from its centre
/// to the segment and `r` half the width: a box filter across the line. For a pen under 2 px, whose caps are too
/// small for that, a cap's pixels are the share of an 8x8 grid of points across them within `r` of the segment.
/// Cairo's scan converter estimates the covered area by sampling, from caps drawn as polygons to within 0.1 px, and
/// the two agree to within 24 levels in 255 at any angle (tested; 28 for pens under 3 px, 36 under 1 px), so a line
/// keeps its look when it is finished and goes into the tiles. Every pixel it touches has its centre less than
/// `r + 0.71` (half a pixel's diagonal, rounded up) from the segment, so it lies inside the line's damage band
/// (`DamageRegion.band`, which reaches `r + 1`).
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
    /// rows: where a row's points project onto the segment's ends (`alongSlope`, `alongSpan`; meaningless for a
    /// vertical segment), where the segment's centre line crosses the row and how far to each side one pixel of
    /// reach takes it (`acrossSlope`, `perReach`; meaningless for a horizontal one).
    private let alongSlope: Double
    private let alongSpan: Double
    private let acrossSlope: Double
    private let perReach: Double
    private let isVertical: Bool
    private let isHorizontal: Bool
    /// The rows with any coverage (none for a line with a coordinate that is not a number).
    let rows: Range<Int>
    /// The rows the line's ends do not reach into (a long line's rows, all but a few at each end): there the pixels
    /// within any reach up to a touched pixel's are those of the strip along the line's whole length, which
    /// crosses the row between two x that move linearly down the rows (`interval` needs no look at the caps).
    private let body: Range<Int>

    /// How far beyond its centre a pixel's square reaches (half its diagonal, rounded up): around a cap, where
    /// the edge can cross a pixel at any angle, pixels are touched and covered entirely within this of the circle.
    private static let squareReach = 0.71
    /// Segments are cut to this square around the origin (keeping their direction), so a finger far outside the
    /// window keeps the arithmetic in whole pixels; the window lies far inside it.
    private static let limit = 1.0e6

    init(_ line: Line, width: Double) {
        radius = width.isFinite ? max(0, min(width, Self.limit) / 2) : 0
        let clipped = Self.clip(line, to: Self.limit)
        begin = clipped?.begin ?? Point(x: 0, y: 0)
        end = clipped?.end ?? Point(x: 0, y: 0)
        let dx = end.x - begin.x
        let dy = end.y - begin.y
        let length = (dx * dx + dy * dy).squareRoot()
        self.length = length > 1e-9 ? length : 0
        (ux, uy) = length > 1e-9 ? (dx / length, dy / length) : (0, 0)
        isVertical = abs(ux) <= 1e-12
        isHorizontal = abs(uy) <= 1e-12
        alongSlope = isVertical ? 0 : -uy / ux
        alongSpan = isVertical ? 0 : self.length / ux
        acrossSlope = isHorizontal ? 0 : ux / uy
        perReach = isHorizontal ? 0 : 1 / abs(uy)
        guard clipped != nil else {
            rows = 0..<0
            body = 0..<0
            return
        }
        let reach = radius + Self.squareReach
        let top = Int((min(begin.y, end.y) - reach - 0.5).rounded(.down))
        rows = top..<(Int((max(begin.y, end.y) + reach).rounded(.up)) + 1)
        body = Self.body(begin: begin, ux: ux, uy: uy, length: self.length, reach: Self.outerReach(radius))
    }

    /// How far from the segment a pixel's centre can lie and the line still touch the pixel: half a pixel beyond
    /// the edge, or half its diagonal for a pen under 2 px (whose caps are sampled).
    private static func outerReach(_ radius: Double) -> Double {
        radius + (radius < 1 ? squareReach : 0.5)
    }

    /// The rows where, for every point within `reach` of the segment's line, the segment's ends are out of reach:
    /// the line crosses such a row at least `reach · |ux / uy|` along from either end, so the strip within `reach`
    /// of it crosses the row between its ends and holds both caps' parts of the row. One row in from each side, so
    /// rounding never puts a row in that is not.
    private static func body(begin: Point, ux: Double, uy: Double, length: Double, reach: Double) -> Range<Int> {
        guard length > 0, abs(uy) > 1e-12 else { return 0..<0 }
        let margin = reach * abs(ux) / abs(uy)
        guard length > 2 * margin else { return 0..<0 }
        let a = begin.y + uy * margin
        let b = begin.y + uy * (length - margin)
        let first = Self.ceilPixel(min(a, b) - 0.5) + 1
        let last = Self.floorPixel(max(a, b) - 0.5) - 1
        return first <= last ? first..<(last + 1) : 0..<0
    }

    /// `line` cut to the square `[−limit, limit]²` along its own direction, or nil when a coordinate is not a number
    /// or no part of it lies inside.
    private static func clip(_ line: Line, to limit: Double) -> (begin: Point, end: Point)? {
        let (x0, y0, x1, y1) = (line.begin.x, line.begin.y, line.end.x, line.end.y)
        guard !x0.isNaN, !y0.isNaN, !x1.isNaN, !y1.isNaN else { return nil }
        if abs(x0) <= limit, abs(y0) <= limit, abs(x1) <= limit, abs(y1) <= limit { return (line.begin, line.end) }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite,
            let part = line.clipped(to: Rect(x: -limit, y: -limit, width: 2 * limit, height: 2 * limit))
        else { return nil }
        return (part.begin, part.end)
    }

    /// Draws the line in `color` into `surface` (RGB24), only within `boxes` (which must not overlap, or a pixel
    /// in two is blended twice). Call `flush` on the surface before and `markDirty` after, as for any write behind
    /// Cairo's back.
    func draw(in color: Color, into surface: CairoSurface, within boxes: [PixelBox]) {
        guard radius > 0, !rows.isEmpty, let pixels = ImagePixels(surface) else { return }
        let bounds = PixelBox(x0: 0, y0: 0, x1: pixels.width, y1: pixels.height)
        let paint = SourcePixel(color)
        for box in boxes {
            draw(paint, into: pixels, within: box.intersection(bounds))
        }
    }

    /// Draws the line within `box` (inside `pixels`): in each row, the pixels it touches, those it covers entirely
    /// filled and the few at the edges blended.
    private func draw(_ paint: SourcePixel, into pixels: ImagePixels, within box: PixelBox) {
        let firstRow = max(box.y0, rows.lowerBound)
        let lastRow = min(box.y1 - 1, rows.upperBound - 1)
        guard !box.isEmpty, firstRow <= lastRow else { return }
        // Touched: centres less than `outer` from the segment (a sampled cap's pixel up to half its diagonal);
        // covered entirely: within `inner` (no fill under a sampled cap).
        let outer = Self.outerReach(radius)
        let inner = radius - 0.5
        let fills = paint.isOpaque && radius >= 1
        // The body's rows (all but a few at each end of a long line; a pen at least a pixel wide) go through
        // `drawBody`, the rest, which the caps reach, through the general path below.
        let bodyRows = radius >= 0.5 ? body.clamped(to: firstRow..<(lastRow + 1)) : 0..<0
        if !bodyRows.isEmpty { drawBody(rows: bodyRows, paint: paint, fills: fills, into: pixels, within: box) }
        for y in firstRow...lastRow where !bodyRows.contains(y) {
            let cy = Double(y) + 0.5
            // Pixels whose centres lie strictly within `outer` of the segment: x + ½ in (low, high).
            let (low, high) = interval(atRow: y, within: outer)
            guard low < high else { continue }
            let first = max(box.x0, Self.floorPixel(low - 0.5) + 1)
            let last = min(box.x1 - 1, Self.ceilPixel(high - 0.5) - 1)
            guard first <= last else { continue }
            let row = (pixels.data + y * pixels.stride).assumingMemoryBound(to: UInt32.self)
            // Pixels covered entirely (centres within `inner`) take the colour as it is; the few at the edges are
            // blended.
            var fillFirst = Int.max
            var fillLast = Int.min
            if fills {
                let (innerLow, innerHigh) = interval(atRow: y, within: inner)
                if innerLow <= innerHigh {
                    fillFirst = max(first, Self.ceilPixel(innerLow - 0.5))
                    fillLast = min(last, Self.floorPixel(innerHigh - 0.5))
                }
            }
            guard fillFirst <= fillLast else {
                blend(row: row, cy: cy, from: first, to: last, paint: paint)
                continue
            }
            blend(row: row, cy: cy, from: first, to: fillFirst - 1, paint: paint)
            var pixel = row + fillFirst
            for _ in fillFirst...fillLast {
                pixel.pointee = paint.word
                pixel += 1
            }
            blend(row: row, cy: cy, from: fillLast + 1, to: last, paint: paint)
        }
    }

    /// Draws `rows` of the body (rows the caps do not reach; a pen at least a pixel wide), the same pixels with the
    /// same coverage as the general path, worked out more cheaply: a long line's thousand rows are most of a moving
    /// line's frame. There a pixel's distance from the segment is its distance across it, `|x + ½ − centre| · |uy|`
    /// from where the centre line crosses the row, so
    /// - a row's span is the crossing's whole part plus four offsets fixed for the line (`BodyEdge`): one rounding
    ///   a row, not four;
    /// - an edge pixel's weight (coverage times 255 times the alpha) falls linearly from the centre, and is worked
    ///   out from the row's crossing alone, so a pixel gets the same weight whichever box it is drawn in.
    private func drawBody(
        rows: Range<Int>, paint: SourcePixel, fills: Bool, into pixels: ImagePixels, within box: PixelBox
    ) {
        // Touched: centres strictly within `outerHalf` of the crossing; covered entirely: within `innerHalf`.
        let outerHalf = Self.outerReach(radius) * perReach
        let innerHalf = (radius - 0.5) * perReach
        let touchedFirst = BodyEdge(offset: -outerHalf - 0.5, roundedUp: false, plus: 1)
        let touchedLast = BodyEdge(offset: outerHalf - 0.5, roundedUp: true, plus: -1)
        let filledFirst = BodyEdge(offset: -innerHalf - 0.5, roundedUp: true, plus: 0)
        let filledLast = BodyEdge(offset: innerHalf - 0.5, roundedUp: false, plus: 0)
        // The weight at the crossing (before it is capped) and how much it falls a pixel away from it.
        let peak = (radius + 0.5) * paint.scale + 0.5
        let fall = abs(uy) * paint.scale
        for y in rows {
            let centre = begin.x + (Double(y) + 0.5 - begin.y) * acrossSlope
            let whole = Self.floorPixel(centre)
            let fraction = centre - Double(whole)
            let first = whole + touchedFirst.offset(at: fraction)
            let last = whole + touchedLast.offset(at: fraction)
            var fillFirst = last + 1
            var fillLast = last
            if fills {
                fillFirst = max(first, whole + filledFirst.offset(at: fraction))
                fillLast = min(last, whole + filledLast.offset(at: fraction))
                if fillFirst > fillLast { (fillFirst, fillLast) = (last + 1, last) }
            }
            let row = (pixels.data + y * pixels.stride).assumingMemoryBound(to: UInt32.self)
            let edge = (centre: centre, peak: peak, fall: fall)
            blendEdge(row: row, from: max(first, box.x0), to: min(fillFirst - 1, box.x1 - 1), edge, paint: paint)
            blendEdge(row: row, from: max(fillLast + 1, box.x0), to: min(last, box.x1 - 1), edge, paint: paint)
            let fillFrom = max(fillFirst, box.x0)
            let fillTo = min(fillLast, box.x1 - 1)
            if fillFrom <= fillTo { (row + fillFrom).update(repeating: paint.word, count: fillTo - fillFrom + 1) }
        }
    }

    /// Blends pixels `from...to` of a body row whose centre line crosses at `edge.centre`: each by the weight
    /// `edge.peak` less `edge.fall` for each pixel away from the crossing, capped at the colour's full weight.
    private func blendEdge(
        row: UnsafeMutablePointer<UInt32>, from: Int, to: Int, _ edge: (centre: Double, peak: Double, fall: Double),
        paint: SourcePixel
    ) {
        // Worked out from the pixel's own place (not stepped from `from`), so a pixel weighs the same in any box.
        let half = 0.5 - edge.centre
        func weight(_ x: Int) -> UInt16 {
            let weight = edge.peak - abs(Double(x) + half) * edge.fall
            return weight >= 1 ? UInt16(min(weight, paint.fullWeight)) : 0
        }
        // Two pixels at a time in 16-bit lanes, the same arithmetic as `SourcePixel.over` (SSE2 on x86-64): a lane
        // holds colour · m + pixel · (255 − m) + 128 ≤ 255 · 255 + 128 = 65,153 for any m, so none overflows.
        var x = from
        while x < to {
            let memory = UnsafeMutableRawPointer(row + x)
            let under = SIMD8<UInt16>(truncatingIfNeeded: memory.loadUnaligned(as: SIMD8<UInt8>.self))
            let m = SIMD8(lowHalf: SIMD4(repeating: weight(x)), highHalf: SIMD4(repeating: weight(x + 1)))
            var c = paint.channels &* m &+ under &* (255 &- m) &+ 128
            // The unused top byte set as `over` sets it, whatever the pixel held there.
            c = ((c &+ (c &>> 8)) &>> 8) | paint.topBytes
            memory.storeBytes(of: SIMD8<UInt8>(truncatingIfNeeded: c), as: SIMD8<UInt8>.self)
            x += 2
        }
        if x == to { row[x] = paint.over(row[x], weight: UInt32(weight(x))) }
    }

    /// An end of a body row's span as the crossing's whole part plus an offset fixed for the line: `floor` (or
    /// `ceil`) of `whole + fraction + offset` is `whole + base`, plus one where the fraction passes `threshold`
    /// (and `plus`).
    private struct BodyEdge {
        private let base: Int
        private let threshold: Double
        private let roundedUp: Bool

        init(offset: Double, roundedUp: Bool, plus: Int) {
            let whole = LineRaster.floorPixel(offset)
            base = whole + plus + (roundedUp ? 1 : 0)
            // fraction + (offset − whole), in [0, 2): its floor is 1 from 1 on, its ceil 2 beyond 1 (and 1 here at
            // exactly 0, where ceil says 0: that pixel lies exactly on the edge, and comes out the same either way).
            threshold = 1 - (offset - Double(whole))
            self.roundedUp = roundedUp
        }

        func offset(at fraction: Double) -> Int {
            if roundedUp { return fraction > threshold ? base + 1 : base }
            return fraction >= threshold ? base + 1 : base
        }
    }

    /// `floor(edge)` as a pixel index, held to the held coordinates' range so the conversion cannot trap. Floor and
    /// ceil are two functions rather than one taking a rounding rule, which would be a call through the standard
    /// library's value witnesses at every row.
    private static func floorPixel(_ edge: Double) -> Int {
        PixelRounding.floor(edge, lower: -limit * 4, upper: limit * 4)
    }

    /// `ceil(edge)` as a pixel index, as `floorPixel`.
    private static func ceilPixel(_ edge: Double) -> Int {
        PixelRounding.ceil(edge, lower: -limit * 4, upper: limit * 4)
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

    /// The coverage of the pixel whose centre lies at `(px, py)` from `begin`, `along` the segment and `across` it.
    private func coverage(px: Double, py: Double, along: Double, across: Double) -> Double {
        if radius < 1, !(length > 0 && along >= 0 && along <= length) { return sampledCoverage(px: px, py: py) }
        return coverage(atDistance: distance(px: px, py: py, along: along, across: across))
    }

    /// The share of an 8x8 grid of points across the pixel centred at `(px, py)` that lie within half the width of
    /// the segment: for the caps of a pen under 2 px.
    private func sampledCoverage(px: Double, py: Double) -> Double {
        let samples = 8
        var inside = 0
        let squared = radius * radius
        for row in 0..<samples {
            let sy = py - 0.5 + (Double(row) + 0.5) / Double(samples)
            for column in 0..<samples {
                let sx = px - 0.5 + (Double(column) + 0.5) / Double(samples)
                let t = min(length, max(0, sx * ux + sy * uy))
                let ex = sx - t * ux
                let ey = sy - t * uy
                if ex * ex + ey * ey <= squared { inside += 1 }
            }
        }
        return Double(inside) / Double(samples * samples)
    }

    private func coverage(atDistance distance: Double) -> Double {
        max(0, min(radius, distance + 0.5) - max(-radius, distance - 0.5))
    }

    private func blend(row: UnsafeMutablePointer<UInt32>, cy: Double, from first: Int, to last: Int, paint: SourcePixel)
    {
        guard first <= last else { return }
        let py = cy - begin.y
        // Beside the segment of a pen at least a pixel wide, the overlap is `r + ½ − d`, at most 1 (the common case,
        // worked out without the general formula's two bounds).
        let outer = radius + 0.5
        let plain = radius >= 0.5 && length > 0
        for x in first...last {
            // From the pixel's own place, not stepped from `first`: a pixel blends the same whichever box cut the
            // row (stepping drifts, and near a cap that can switch the formula).
            let px = Double(x) + 0.5 - begin.x
            let along = px * ux + py * uy
            let across = px * uy - py * ux
            let cover: Double
            if plain, along >= 0, along <= length {
                cover = min(1, outer - abs(across))
            } else {
                cover = coverage(px: px, py: py, along: along, across: across)
            }
            if cover > 0 { row[x] = paint.over(row[x], coverage: cover) }
        }
    }

    /// The x interval of row `y`'s centre line lying within `reach` (at most a touched pixel's) of the segment: the
    /// union of the caps' discs and the band beside the segment (the shape is convex, so the union is one
    /// interval). Empty: `low > high`.
    private func interval(atRow y: Int, within reach: Double) -> (low: Double, high: Double) {
        let cy = Double(y) + 0.5
        if body.contains(y) {
            // The strip alone, with the arithmetic of its part below: a few operations instead of looking at both
            // caps and both ends in each of a long line's thousand rows.
            let centre = (cy - begin.y) * acrossSlope
            let half = reach * perReach
            return (begin.x + (centre - half), begin.x + (centre + half))
        }
        var low = Double.infinity
        var high = -Double.infinity
        let squared = reach * reach
        // The caps' discs.
        let dyBegin = cy - begin.y
        if squared > dyBegin * dyBegin {
            let half = (squared - dyBegin * dyBegin).squareRoot()
            low = begin.x - half
            high = begin.x + half
        }
        let dyEnd = cy - end.y
        if squared > dyEnd * dyEnd {
            let half = (squared - dyEnd * dyEnd).squareRoot()
            low = min(low, end.x - half)
            high = max(high, end.x + half)
        }
        guard length > 0 else { return (low, high) }
        // Beside the segment: 0 ≤ (x − bx)·ux + oy·uy ≤ length and |(x − bx)·uy − oy·ux| ≤ reach.
        let oy = dyBegin
        var slabLow = -Double.infinity
        var slabHigh = Double.infinity
        if !isVertical {
            let start = oy * alongSlope
            slabLow = min(start, start + alongSpan)
            slabHigh = max(start, start + alongSpan)
        } else if oy * uy < 0 || oy * uy > length {
            return (low, high)
        }
        if !isHorizontal {
            let centre = oy * acrossSlope
            let half = reach * perReach
            slabLow = max(slabLow, centre - half)
            slabHigh = min(slabHigh, centre + half)
        } else if abs(oy) > reach {
            return (low, high)
        }
        guard slabLow < slabHigh else { return (low, high) }
        return (min(low, begin.x + slabLow), max(high, begin.x + slabHigh))
    }
}
