import TouchKit

/// A region of the window as a short list of rectangles: what a frame redraws and presents.
///
/// A single bounding rectangle made a long line in progress cost its whole bounding box on every move (a window's
/// diagonal is the whole window); a list lets a stroke damage only a band of small boxes along it. The list stays
/// short: a rectangle inside another adds nothing, and at `limit` rectangles neighbours merge until half as many are
/// left (see `add`).
public struct DamageRegion: Sendable, Equatable {
    public private(set) var rects: [Rect] = []
    /// The smallest rectangle holding the whole region.
    public private(set) var bounds: Rect = .null
    public static let limit = 256

    public init() {}

    public init(_ rect: Rect) {
        add(rect)
    }

    public var isEmpty: Bool { rects.isEmpty }

    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            return
        }
        if rects.contains(where: { $0.contains(rect) }) { return }
        rects.removeAll { rect.contains($0) }
        bounds = bounds.union(rect)
        rects.append(rect)
        if rects.count > Self.limit { rects = Self.merged(rects, toAtMost: Self.limit / 2) }
    }

    /// `rects` as at most `count` rectangles, each neighbour merged with the next while their bounding box grows
    /// least: bands follow each other in the list, so several long lines in progress at once (ten fingers) stay
    /// bands of larger boxes. (Merging all into the bounds, as this once did, made two long lines redraw and
    /// present the whole window at every move.)
    private static func merged(_ rects: [Rect], toAtMost count: Int) -> [Rect] {
        var growth = 1.5
        var result = coalesce(rects, growth: growth)
        while result.count > count {
            growth *= 2
            result = coalesce(result, growth: growth)
        }
        return result
    }

    public mutating func add(_ other: DamageRegion) {
        // The usual frame has one source of damage: take it whole rather than compare rectangle by rectangle.
        if rects.isEmpty {
            self = other
            return
        }
        for rect in other.rects { add(rect) }
    }

    /// The part of the region inside `rect`. (No rectangle lay inside another, and cutting them all by the same
    /// rectangle keeps it so, except for ones cut to the same piece: harmless, and rare enough not to look for.)
    public func intersection(_ rect: Rect) -> DamageRegion {
        if rect.contains(bounds) { return self }
        var result = DamageRegion()
        for part in rects {
            let cut = part.intersection(rect)
            guard !cut.isEmpty else { continue }
            result.rects.append(cut)
            result.bounds = result.bounds.union(cut)
        }
        return result
    }

    /// The region as fewer, larger rectangles, for copying to the screen where each rectangle is one request:
    /// neighbours in the list (a band's boxes follow each other along the line) are merged while their bounding
    /// box stays within `growth` times the area of the rectangles it replaces.
    public func coalesced(growth: Double = 1.5) -> [Rect] { Self.coalesce(rects, growth: growth) }

    private static func coalesce(_ rects: [Rect], growth: Double) -> [Rect] {
        var result: [Rect] = []
        var current = Rect.null
        var currentArea = 0.0
        for rect in rects {
            let area = rect.width * rect.height
            let merged = current.union(rect)
            if !current.isNull, merged.width * merged.height <= growth * (currentArea + area) {
                current = merged
                currentArea += area
            } else {
                if !current.isNull { result.append(current) }
                current = rect
                currentArea = area
            }
        }
        if !current.isNull { result.append(current) }
        return result
    }

    /// The region with every rectangle multiplied by `factor` (drawing units to the canvas's pixels). Scaling keeps
    /// which rectangle lies inside which, so the list is taken as it is, not added again rectangle by rectangle.
    public func scaled(by factor: Double) -> DamageRegion {
        guard factor != 1, factor.isFinite, factor > 0 else { return self }
        var result = DamageRegion()
        result.rects = rects.map { $0.scaled(by: factor) }
        result.bounds = bounds.scaled(by: factor)
        return result
    }

    /// The region with every rectangle multiplied by `factor`, moved by `-offset` and grown by `margin` on every
    /// side (drawing units to a zoomed canvas's pixels, with room for antialiasing however small the zoom).
    public func transformed(scale factor: Double, offset: Point, margin: Double) -> DamageRegion {
        guard factor.isFinite, factor > 0 else { return self }
        func map(_ rect: Rect) -> Rect {
            guard !rect.isNull else { return rect }
            return Rect(
                x: rect.minX * factor - offset.x - margin, y: rect.minY * factor - offset.y - margin,
                width: rect.width * factor + 2 * margin, height: rect.height * factor + 2 * margin)
        }
        var result = DamageRegion()
        result.rects = rects.map(map)
        result.bounds = map(bounds)
        return result
    }

    public func contains(_ point: Point) -> Bool { rects.contains { $0.contains(point) } }

    public func intersects(_ rect: Rect) -> Bool {
        bounds.intersects(rect) && rects.contains { $0.intersects(rect) }
    }
}

extension DamageRegion {
    /// Thickness of the slabs a stroke's band is cut into, in rows (or columns) of pixels: thin enough that each
    /// box hugs a diagonal (a 45° line's box is the slab's thickness wider than the stroke), thick enough that a
    /// window's diagonal is about a hundred boxes.
    static let slabThickness = 8

    /// The pixels a stroke of `width` with round caps along `lines` can touch, as a band of small boxes. The band is
    /// cut across the lines' main direction into slabs a few pixels thick (rows for a steep line, columns for a flat
    /// one), and each slab's box spans only where the strokes can reach in it. Lines given together (the old and the
    /// new place of a line in progress) share each slab's box, so a moving line's damage is one band, not two.
    ///
    /// Boxes cut along the line, widened by half the pen on every side, covered a 45° line's diagonal three times
    /// over; slabs cover it about one and a half times, so a long line's move redraws half the pixels.
    public static func band(along lines: [Line], width: Double) -> DamageRegion {
        var region = DamageRegion()
        let reach = width / 2 + 1
        guard let longest = lines.max(by: { $0.begin.distance(to: $0.end) < $1.begin.distance(to: $1.end) }),
            lines.allSatisfy({ $0.begin.x.isFinite && $0.begin.y.isFinite && $0.end.x.isFinite && $0.end.y.isFinite }),
            reach.isFinite
        else {
            for line in lines { region.add(line.bounds(width: width)) }
            return region
        }
        // Slabs run across the longest line's main direction: rows when it is steep, columns when it is flat.
        let steep = abs(longest.end.y - longest.begin.y) >= abs(longest.end.x - longest.begin.x)
        let segments = lines.map { steep ? BandSegment($0) : BandSegment($0.transposed) }
        let lowest = segments.map { Swift.min($0.begin.major, $0.end.major) }.min()! - reach
        let highest = segments.map { Swift.max($0.begin.major, $0.end.major) }.max()! + reach
        let first = lowest.rounded(.down)
        // At most half the region's rectangles, so a long line leaves room for the rest of the frame: a 4K
        // screen's diagonal gets slabs 17 px thick.
        let thickness = Swift.max(
            Double(slabThickness), ((highest - first) / Double(limit / 2)).rounded(.up))
        let slabs = Swift.max(1, Int(((highest - first) / thickness).rounded(.up)))
        region.rects.reserveCapacity(slabs)
        // The slabs follow each other along the line, so none lies inside another: they are listed as they come.
        for slab in 0..<slabs {
            let from = first + Double(slab) * thickness
            let to = from + thickness
            var low = Double.infinity
            var high = -Double.infinity
            for segment in segments {
                guard let reached = segment.minorReach(from: from, to: to, reach: reach) else { continue }
                low = Swift.min(low, reached.low)
                high = Swift.max(high, reached.high)
            }
            guard low < high else { continue }
            let box =
                steep
                ? Rect(x: low, y: from, width: high - low, height: thickness)
                : Rect(x: from, y: low, width: thickness, height: high - low)
            region.rects.append(box)
            region.bounds = region.bounds.union(box)
        }
        return region
    }

    /// The pixels `shape`'s stroke can touch (`defaultWidth` standing in for a width it does not set): a band of
    /// small boxes along a line (a long diagonal line does not damage its whole bounding box), a circle's stroke
    /// bounds.
    public static func stroke(of shape: Shape, defaultWidth: Double) -> DamageRegion {
        switch shape {
        case .line(let line): .band(along: [line], width: line.width ?? defaultWidth)
        case .circle(let circle): DamageRegion(circle.strokeBounds(defaultWidth: defaultWidth))
        }
    }
}

/// A line in the coordinates of a band's slabs: `major` across the slabs, `minor` along them.
private struct BandSegment {
    struct End {
        var major: Double
        var minor: Double
    }

    let begin: End
    let end: End

    init(_ line: Line) {
        begin = End(major: line.begin.y, minor: line.begin.x)
        end = End(major: line.end.y, minor: line.end.x)
    }

    /// Where along the slab between `from` and `to` a round-capped stroke of this segment, `reach` to either side,
    /// can be; nil when nowhere. Two bounds, each holding every point of the stroke in the slab, are intersected:
    /// the part of the segment within `reach` of the slab, widened by `reach`; and the slab's cut through the strip
    /// within `reach` of the segment's line (which keeps a diagonal's box from growing by its whole reach twice).
    func minorReach(from: Double, to: Double, reach: Double) -> (low: Double, high: Double)? {
        let run = end.major - begin.major
        let rise = end.minor - begin.minor
        // The segment's part whose major coordinate lies within `reach` of the slab.
        var t0 = 0.0
        var t1 = 1.0
        if run == 0 {
            guard begin.major >= from - reach, begin.major <= to + reach else { return nil }
        } else {
            let a = (from - reach - begin.major) / run
            let b = (to + reach - begin.major) / run
            t0 = Swift.max(0, Swift.min(a, b))
            t1 = Swift.min(1, Swift.max(a, b))
            guard t0 <= t1 else { return nil }
        }
        var low = Swift.min(begin.minor + rise * t0, begin.minor + rise * t1) - reach
        var high = Swift.max(begin.minor + rise * t0, begin.minor + rise * t1) + reach
        // The strip within `reach` of the line, cut by the slab: its centre moves `rise / run` per unit across,
        // and it is `reach * length / |run|` wide to either side of the centre.
        if run != 0 {
            let slope = rise / run
            let halfWidth = reach * (run * run + rise * rise).squareRoot() / abs(run)
            let atFrom = begin.minor + slope * (from - begin.major)
            let atTo = begin.minor + slope * (to - begin.major)
            low = Swift.max(low, Swift.min(atFrom, atTo) - halfWidth)
            high = Swift.min(high, Swift.max(atFrom, atTo) + halfWidth)
        }
        return low < high ? (low, high) : nil
    }
}

extension Line {
    /// The line with x and y swapped: a flat line's band is cut into columns as a steep line's is into rows.
    fileprivate var transposed: Line {
        Line(begin: Point(x: begin.y, y: begin.x), end: Point(x: end.y, y: end.x), color: color, width: width)
    }
}
