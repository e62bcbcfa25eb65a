import Foundation
import TouchKit
import TouchTracker

/// Hairlines: a line's stroke of a pen at most a pixel wide, of any length, laid in as the area of each pixel it
/// covers.
///
/// The stroke is the polygon Cairo's stroker makes of it: the rectangle about the segment, half the pen each side,
/// and at each end a round cap of the corners of Cairo's pen polygon that lie beyond it (`outline`). It is walked
/// along the line's longer axis (`u`; the other is `v`) one pixel column at a time, and the area of it in each pixel
/// of a column is the area under its upper edges less the area under its lower ones; under an edge, a pixel's share
/// is an integral of a clamped linear function, summed exactly across the pixel-grid crossings (`columnArea`). That
/// is what Cairo's antialiasing gives it, to its scan converter's rounding.
///
/// A line's ink is added up in a band of `bandRows` pixels about it in each column (`band`, one column of the tile
/// per `u`, so a line of any length fits) and blended once per pixel. No pixel takes ink unless the polygon enters
/// it, so none farther than half the pen from the segment.
extension CoveragePainter {
    /// An edge of a stroke's polygon, not upright, from its end of lower `u` (`CoveragePainter.edges`).
    struct Edge {
        let low: Point
        let highU: Double
        let slope: Double
        /// 1 for an edge the polygon goes along to higher `u`, -1 for one it comes back along.
        let sign: Double

        func v(at u: Double) -> Double { low.y + slope * (u - low.x) }
    }

    /// Pixels of the band each column keeps: in a column the stroke spans at most 1 (the slope, at most 1) plus
    /// `√2` (its thickness in `v`, a pen of 1 px at 45°), so at most 5 pixels, kept from 2.5 px above the middle of
    /// the segment's part in the column.
    static let bandRows = 6

    mutating func paintHairline(from start: Point, to end: Point, pen: Double, color: Color) -> Bool {
        // Far beyond any tile (and where a pixel's edges are no longer whole numbers apart): left to Cairo.
        let far = 1e9
        guard start.isFinite, end.isFinite, abs(start.x) < far, abs(start.y) < far, abs(end.x) < far,
            abs(end.y) < far
        else { return false }
        guard pen > 0 else { return true }
        // Along the longer axis, from the lower end.
        let transposed = abs(end.y - start.y) > abs(end.x - start.x)
        func uv(_ p: Point) -> Point { transposed ? Point(x: p.y, y: p.x) : p }
        var (a, b) = (uv(start), uv(end))
        if b.x < a.x { swap(&a, &b) }
        let extent = transposed ? (u: pixels.height, v: pixels.width) : (u: pixels.width, v: pixels.height)
        guard let columns = Self.columns(from: a, to: b, extent: extent) else { return true }
        let du = b.x - a.x
        let slope = du > 0 ? (b.y - a.y) / du : 0
        for column in columns {
            let middle = min(max(Double(column) + 0.5, a.x), b.x)
            bandTops[column] = Int((a.y + slope * (middle - a.x) - 2.5).rounded(.down))
        }
        makeOutline(from: a, to: b, radius: pen / 2, transposed: transposed)
        makeEdges()
        for column in columns { addArea(column: column) }
        blendBand(columns, transposed: transposed, rows: extent.v, color: color)
        return true
    }

    /// The tile's columns the stroke of `a`–`b` (`a` the lower in `u`) may put ink in that lies on the tile: within
    /// a pixel of its ends, where the segment passes within 3 px of the tile's rows. Nil when there are none.
    private static func columns(from a: Point, to b: Point, extent: (u: Int, v: Int)) -> ClosedRange<Int>? {
        var low = a.x - 1
        var high = b.x + 1
        let margin = 3.0
        if b.y != a.y {
            let slope = (b.y - a.y) / (b.x - a.x)
            let (enter, leave) = ((-margin - a.y) / slope + a.x, (Double(extent.v) + margin - a.y) / slope + a.x)
            low = max(low, min(enter, leave))
            high = min(high, max(enter, leave))
        } else if a.y < -margin || a.y > Double(extent.v) + margin {
            return nil
        }
        // Off the tile's columns, each way, as whole numbers.
        let first = Int(max(-1, min(Double(extent.u), low)).rounded(.down))
        let last = Int(max(-1, min(Double(extent.u), high)).rounded(.down))
        let range = (max(first, 0), min(last, extent.u - 1))
        return range.0 <= range.1 ? range.0...range.1 : nil
    }

    /// Sets `outline` to the stroke of `a`–`b` (`a` the lower in `u`) with a round pen of `radius`, as Cairo's
    /// stroker makes it, in order round it with its upper edges going to higher `u`: along the side of higher `v`,
    /// round the cap at `b`, back along the other side and round the cap at `a`. A line of no length is stroked as
    /// one going towards higher `x` (`_cairo_stroker_add_caps`): two caps back to back, Cairo's pen.
    private mutating func makeOutline(from a: Point, to b: Point, radius r: Double, transposed: Bool) {
        let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        let out = length > 0 ? Point(x: (b.x - a.x) / length, y: (b.y - a.y) / length) : Point(x: 1, y: 0)
        let side = Point(x: -out.y * r, y: out.x * r)
        if r != penRadius {
            penRadius = r
            let corners = Self.penCorners(radius: r)
            penPolygon = (0..<corners).map { index in
                let angle = 2 * Double.pi * Double(index) / Double(corners)
                return Point(x: r * cos(angle), y: r * sin(angle))
            }
        }
        outline.removeAll(keepingCapacity: true)
        outline.append(a + side)
        outline.append(b + side)
        appendCap(at: b, outward: out, transposed: transposed)
        outline.append(b - side)
        outline.append(a - side)
        appendCap(at: a, outward: out * -1, transposed: transposed)
    }

    /// Appends to `outline` the corners of Cairo's pen (`penPolygon`, in `x` and `y`) that lie `outward` of
    /// `center`, in order from the side `outward` turned towards higher `v` to the other
    /// (`_cairo_pen_find_active_cw_vertices`).
    private mutating func appendCap(at center: Point, outward: Point, transposed: Bool) {
        let first = outline.count
        for corner in penPolygon {
            let offset = transposed ? Point(x: corner.y, y: corner.x) : corner
            if offset.x * outward.x + offset.y * outward.y > 0 { outline.append(center + offset) }
        }
        // From the side turned towards higher `v` (the most turned that way from `outward`) to the other: a pen has
        // at most 10 corners at this size, 5 on a side.
        func turn(_ point: Point) -> Double { outward.x * (point.y - center.y) - outward.y * (point.x - center.x) }
        outline[first...].sort { turn($0) > turn($1) }
    }

    /// How many corners Cairo's pen of `radius` pixels has at its default tolerance of 0.1 px
    /// (`_cairo_pen_vertices_needed`): enough to keep within it of the circle, at least 4 and even; 1 (no area)
    /// under 0.025 px.
    static func penCorners(radius r: Double) -> Int {
        let tolerance = 0.1
        if tolerance >= 4 * r { return 1 }
        if tolerance >= r { return 4 }
        let needed = Int((2 * Double.pi / acos(1 - tolerance / r)).rounded(.up))
        return max(4, needed + needed % 2)
    }

    /// Sets `edges` to those of the polygon `outline` that are not upright, each from its end of lower `u`, with
    /// its slope and its sense: 1 going to higher `u`, -1 coming back.
    private mutating func makeEdges() {
        edges.removeAll(keepingCapacity: true)
        for index in outline.indices {
            let (p, q) = (outline[index], outline[index + 1 < outline.count ? index + 1 : 0])
            guard p.x != q.x else { continue }
            let (low, high) = p.x < q.x ? (p, q) : (q, p)
            edges.append(
                Edge(low: low, highU: high.x, slope: (high.y - low.y) / (high.x - low.x), sign: p.x < q.x ? 1 : -1))
        }
    }

    /// Adds to `column`'s band the area of each of its pixels that the polygon `outline` covers (convex, in order
    /// round it, its upper edges going to higher `u`): what lies under the edges going to higher `u` less what lies
    /// under those coming back.
    private mutating func addArea(column: Int) {
        let (left, right) = (Double(column), Double(column + 1))
        var lowest = Double.infinity
        for edge in edges where edge.low.x < right && edge.highU > left {
            let (s0, s1) = (max(edge.low.x, left), min(edge.highU, right))
            lowest = min(lowest, edge.v(at: s0), edge.v(at: s1))
        }
        guard lowest.isFinite else { return }
        // Below every edge each adds its whole width, which the others take back: rows from the lowest one on.
        let top = bandTops[column]
        let base = column * Self.bandRows - top
        let firstRow = max(Int(lowest.rounded(.down)), top)
        let lastRow = top + Self.bandRows - 1
        for edge in edges where edge.low.x < right && edge.highU > left {
            let (s0, s1) = (max(edge.low.x, left), min(edge.highU, right))
            let (v0, v1) = (edge.v(at: s0), edge.v(at: s1))
            let under = min(Int(min(v0, v1).rounded(.down)), lastRow + 1)
            let last = min(Int(max(v0, v1).rounded(.down)), lastRow)
            if firstRow < under {
                for row in firstRow..<under { band[base + row] += edge.sign * (s1 - s0) }
            }
            guard max(firstRow, under) <= last else { continue }
            for row in max(firstRow, under)...last {
                let area = Self.columnArea(row: row, from: v0, to: v1, width: s1 - s0, slope: edge.slope)
                band[base + row] += edge.sign * area
            }
        }
    }

    /// The area of pixel row `row` below a line going from `v0` to `v1` over `width` (`slope` = its rise per unit):
    /// the integral of the line's height clamped to the row, `clamp(v - row, 0, 1)`, which is linear in each piece
    /// between the grid's crossings and so has a closed form.
    static func columnArea(row: Int, from v0: Double, to v1: Double, width: Double, slope: Double) -> Double {
        let bottom = Double(row)
        // A slope too small to divide by: the clamped height is linear enough to take at the middle.
        guard abs(slope) > 1e-6 else { return width * min(1, max(0, (v0 + v1) / 2 - bottom)) }
        // An antiderivative of the clamped height, in `v`.
        func integral(_ v: Double) -> Double {
            let above = v - bottom
            return above <= 0 ? 0 : (above <= 1 ? above * above / 2 : above - 0.5)
        }
        return (integral(v1) - integral(v0)) / slope
    }

    /// Blends each pixel of the band's `columns` with `color` by its ink (at most all of it), and clears them.
    private mutating func blendBand(_ columns: ClosedRange<Int>, transposed: Bool, rows: Int, color: Color) {
        let source = beginBlending(color)
        for column in columns {
            let top = bandTops[column]
            for index in column * Self.bandRows..<(column + 1) * Self.bandRows {
                let amount = band[index]
                guard amount != 0 else { continue }
                band[index] = 0
                // What an edge added and another took back can leave a rounding's worth below zero.
                guard amount > 0 else { continue }
                let row = top + index - column * Self.bandRows
                guard row >= 0, row < rows else { continue }
                blendPixel(x: transposed ? row : column, y: transposed ? column : row, source, coverage: amount)
            }
        }
    }
}
