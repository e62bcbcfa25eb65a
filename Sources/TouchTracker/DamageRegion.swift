import TouchKit

/// A region of the window as a short list of rectangles: what a frame redraws and presents.
///
/// A single bounding rectangle made a long line in progress cost its whole bounding box on every move (a window's
/// diagonal is the whole window); a list lets a stroke damage only a band of small boxes along it. The list stays
/// short: a rectangle inside another adds nothing, and beyond `limit` rectangles everything merges into one.
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
        if rects.count >= Self.limit {
            rects = [bounds]
        } else {
            rects.append(rect)
        }
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
    public func coalesced(growth: Double = 1.5) -> [Rect] {
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

    public func contains(_ point: Point) -> Bool { rects.contains { $0.contains(point) } }

    public func intersects(_ rect: Rect) -> Bool {
        bounds.intersects(rect) && rects.contains { $0.intersects(rect) }
    }
}

extension DamageRegion {
    /// Length of the pieces a stroke's band is cut into: short enough that the boxes hug a diagonal (the area per
    /// pixel of length is least near 16 px for a 10 px pen), long enough that a window's diagonal is ~140 boxes.
    static let bandStep = 16.0

    /// The pixels a stroke of `width` with round caps along `lines` can touch, as a band of small boxes: each line
    /// is cut into pieces of about `bandStep` px and each piece gets the box around it, widened by half the pen.
    /// Lines given together (the old and the new place of a line in progress, which share their start) are cut at
    /// the same fractions of their length, and their matching pieces share one box, so a moving line's damage is
    /// one band, not two overlapping ones.
    public static func band(along lines: [Line], width: Double) -> DamageRegion {
        var region = DamageRegion()
        let reach = width / 2 + 1
        let longest = lines.map { $0.begin.distance(to: $0.end) }.max() ?? 0
        guard longest.isFinite else {
            for line in lines { region.add(line.bounds(width: width)) }
            return region
        }
        // At most half the region's rectangles, so a long line leaves room for the rest of the frame: a 4K
        // screen's diagonal is still cut into 35 px pieces.
        let pieces = Swift.min(Swift.max(1, Int((longest / bandStep).rounded(.up))), limit / 2)
        // The pieces follow each other along the line, so none lies inside another: they are listed as they come.
        region.rects.reserveCapacity(pieces)
        for piece in 0..<pieces {
            let t0 = Double(piece) / Double(pieces)
            let t1 = Double(piece + 1) / Double(pieces)
            var box = Rect.null
            for line in lines {
                let direction = line.end - line.begin
                box = box.union(Rect.bounding(line.begin + direction * t0, line.begin + direction * t1))
            }
            let widened = box.insetBy(dx: -reach, dy: -reach)
            guard !widened.isEmpty else { continue }
            region.rects.append(widened)
            region.bounds = region.bounds.union(widened)
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
