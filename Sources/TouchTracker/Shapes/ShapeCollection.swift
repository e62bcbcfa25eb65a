import Synchronization
import TouchKit

/// The complete shapes in stacking order, each with a stable ID, kept filed in one spatial index.
///
/// Lines and circles live here together: one order (by ID, so circles, whose IDs come from a higher band, stay
/// above every line), one storage, one index. The document's two lists (`lines`, `circles`) are views of it.
public struct ShapeCollection: Sendable {
    /// IDs from bottom to top. Always sorted, because IDs are handed out in drawing order.
    public private(set) var order: [ShapeID] = []
    private var storage = ShapeStorage()
    public private(set) var index = ShapeIndex()
    /// The number the next shape of each kind gets.
    private var nextLine: UInt64 = 1
    private var nextCircle: UInt64 = 1
    /// Changes whenever the collection does, to a number no other collection has had: two collections with the
    /// same revision hold the same shapes (one is an unchanged copy of the other). A paste prepared on another
    /// thread checks with it that the drawing did not change meanwhile.
    public private(set) var revision = ShapeCollection.newRevision()

    private static let revisions = Atomic<UInt64>(0)

    private static func newRevision() -> UInt64 {
        revisions.add(1, ordering: .relaxed).newValue
    }

    public init(lines: [Line] = [], circles: [Circle] = []) {
        order.reserveCapacity(lines.count + circles.count)
        // Fresh IDs 1, 2, 3, … in order: none can be taken yet and each goes on top, so the lookup before storing
        // and the search for the place in `order` are left out (a document opens with all its shapes).
        for line in lines { appendFresh(.line(line)) }
        for circle in circles { appendFresh(.circle(circle)) }
    }

    private mutating func appendFresh(_ shape: Shape) {
        let id = takeID(for: shape.kind)
        storage[id] = shape
        order.append(id)
        index.insert(id, shape)
    }

    /// The document's shapes.
    public init(_ drawing: Drawing) {
        self.init(lines: drawing.lines, circles: drawing.circles)
    }

    /// The document's shapes, numbered from `firstNumber` on (above every shape of a collection they replace, so an
    /// ID kept from before, a screen reader's object, never names one of these).
    public init(_ drawing: Drawing, firstNumber: UInt64) {
        self.init(firstNumber: firstNumber)
        order.reserveCapacity(drawing.lines.count + drawing.circles.count)
        for line in drawing.lines { appendFresh(.line(line)) }
        for circle in drawing.circles { appendFresh(.circle(circle)) }
    }

    /// The number the next shape of either kind gets at least: every shape here has a lower one.
    public var nextNumber: UInt64 { Swift.max(nextLine, nextCircle) }

    /// An empty collection whose shapes get numbers from `firstNumber` on (above every shape of a document still
    /// being read, which then goes beneath them: `merging`).
    public init(firstNumber: UInt64) {
        nextLine = firstNumber
        nextCircle = firstNumber
    }

    private mutating func takeID(for kind: Shape.Kind) -> ShapeID {
        switch kind {
        case .line:
            defer { nextLine += 1 }
            return ShapeID(.line, number: nextLine)
        case .circle:
            defer { nextCircle += 1 }
            return ShapeID(.circle, number: nextCircle)
        }
    }

    /// Makes sure IDs handed out later are above `id`.
    private mutating func noteTaken(_ id: ShapeID) {
        switch id.kind {
        case .line: nextLine = Swift.max(nextLine, id.number + 1)
        case .circle: nextCircle = Swift.max(nextCircle, id.number + 1)
        }
    }

    public var count: Int { order.count }
    public var isEmpty: Bool { order.isEmpty }

    /// How many of the shapes are lines (they are the bottom of the stack).
    public var lineCount: Int { order.partitioningIndex { $0.kind == .circle } }

    /// How many of the shapes are circles (they are the top of the stack).
    public var circleCount: Int { count - lineCount }

    public subscript(id: ShapeID) -> Shape? { storage[id] }

    /// The lines bottom to top, as the document stores them.
    public var lines: [Line] { order[..<lineCount].map { storage[$0]!.line! } }

    /// The circles bottom to top, as the document stores them.
    public var circles: [Circle] { order[lineCount...].map { storage[$0]!.circle! } }

    /// The document as these shapes and `options`.
    public func drawing(options: DrawingOptions) -> Drawing {
        Drawing(lines: lines, circles: circles, options: options)
    }

    /// The position of `id` in `order`: among all the shapes, the lines first, then the circles.
    public func orderPosition(of id: ShapeID) -> Int? { order.sortedPosition(of: id) }

    /// The position of `id` in the document's list of its kind (`lines` or `circles`).
    public func position(of id: ShapeID) -> Int? {
        guard let position = order.sortedPosition(of: id) else { return nil }
        return id.kind == .circle ? position - lineCount : position
    }

    /// Adds a new shape on top of the shapes of its kind and returns its ID.
    @discardableResult
    public mutating func append(_ shape: Shape) -> ShapeID {
        let id = takeID(for: shape.kind)
        restore(id, shape)
        return id
    }

    /// Puts back a shape that was removed, at its old place in the stack.
    public mutating func restore(_ id: ShapeID, _ shape: Shape) {
        guard storage[id] == nil, id.kind == shape.kind else { return }
        revision = Self.newRevision()
        noteTaken(id)
        storage[id] = shape
        order.insertSorted(id)
        index.insert(id, shape)
    }

    @discardableResult
    public mutating func remove(_ id: ShapeID) -> Shape? {
        guard let shape = storage.removeValue(forKey: id), let position = order.sortedPosition(of: id) else {
            return nil
        }
        revision = Self.newRevision()
        order.remove(at: position)
        index.remove(id, shape)
        return shape
    }

    /// Replaces the geometry of a shape (with one of the same kind), keeping its place in the stack.
    public mutating func replace(_ id: ShapeID, with shape: Shape) {
        guard let old = storage[id], old.kind == shape.kind else { return }
        revision = Self.newRevision()
        index.remove(id, old)
        storage[id] = shape
        index.insert(id, shape)
    }

    /// An empty collection that goes on handing out IDs where this one stopped, so shapes drawn after a clear
    /// never take the ID of a cleared shape that undo may bring back.
    public func emptied() -> ShapeCollection {
        var empty = ShapeCollection()
        empty.nextLine = nextLine
        empty.nextCircle = nextCircle
        return empty
    }

    /// This collection, handing out IDs after both its own and `other`'s (undo of a clear puts a kept collection
    /// back in place of the empty one that took its place).
    public func continuingIDs(of other: ShapeCollection) -> ShapeCollection {
        var result = self
        result.revision = Self.newRevision()
        result.nextLine = Swift.max(nextLine, other.nextLine)
        result.nextCircle = Swift.max(nextCircle, other.nextCircle)
        return result
    }

    /// This collection with every shape of `other` put back at its place in the stack.
    public func merging(_ other: ShapeCollection) -> ShapeCollection {
        var result = self
        result.merge(other)
        return result
    }

    /// Puts every shape of `other` at its place in the stack (linear in `other`'s size, not this one's, when this
    /// collection's storage is not shared).
    public mutating func merge(_ other: ShapeCollection) {
        for id in other.order { restore(id, other.storage[id]!) }
        nextLine = Swift.max(nextLine, other.nextLine)
        nextCircle = Swift.max(nextCircle, other.nextCircle)
    }

    /// Where the shapes lie, to within a cell of the spatial index (32 units) on each side: what "fit the whole
    /// drawing" shows. Found from the index's cells, not from every shape. Null when there are none.
    public var approximateBounds: Rect {
        let (cells, unfiled) = index.occupiedCells()
        var bounds = cells ?? .null
        for id in unfiled {
            if let shape = storage[id] { bounds = bounds.union(shape.strokeBounds(defaultWidth: 0)) }
        }
        return bounds
    }

    /// The topmost shape whose stroke's centre line is within `radius` of `point` (exact distance).
    public func topmostShape(near point: Point, radius: Double) -> ShapeID? {
        index.topmostShape(near: point, radius: radius) { storage[$0] }
    }

    /// The shapes that may reach `rect`, bottom to top, each once.
    ///
    /// The index hands back a shape once for each cell it is filed in. Over a large rectangle (a zoomed-out tile:
    /// 160 x 160 cells, a million lines' worth of entries across a window) they are marked in a bit per line
    /// number, the numbers lines are handed out densely from 1, and read back in order: no hashing, no sort, no
    /// list of every entry (a set of them cost most of painting such a tile). The bits take a word per 64 lines of
    /// the drawing, so this is done only where the rectangle has at least an eighth as many cells; elsewhere, and
    /// for IDs above the lines' numbers (circles, lines drawn while a document loaded), the IDs are sorted.
    public func shapes(reaching rect: Rect) -> [IdentifiedShape] {
        let words = Int(Swift.min(nextLine, UInt64(Int.max / 2)) / 64) + 1
        let cells = (rect.width / index.cellSize + 1) * (rect.height / index.cellSize + 1)
        guard cells.isFinite, Double(words) <= 8 * cells else {
            var found: [ShapeID] = []
            index.shapes(in: rect) { found.append($0) }
            return Self.sortedOnce(found).compactMap(identified)
        }
        var marks = [UInt64](repeating: 0, count: words)
        var others: [ShapeID] = []
        let lineBound = nextLine
        index.shapes(in: rect) { id in
            if id.rawValue < lineBound {
                marks[Int(id.rawValue >> 6)] |= 1 << (id.rawValue & 63)
            } else {
                others.append(id)
            }
        }
        var result: [IdentifiedShape] = []
        for (word, bits) in marks.enumerated() where bits != 0 {
            var rest = bits
            while rest != 0 {
                if let item = identified(ShapeID(UInt64(word) << 6 | UInt64(rest.trailingZeroBitCount))) {
                    result.append(item)
                }
                rest &= rest - 1
            }
        }
        // Every other ID is above every line number marked: they go on top.
        return result + Self.sortedOnce(others).compactMap(identified)
    }

    /// `ids` sorted, each once.
    private static func sortedOnce(_ ids: [ShapeID]) -> [ShapeID] {
        var sorted = ids.sorted()
        var kept = 0
        for id in sorted where kept == 0 || sorted[kept - 1] != id {
            sorted[kept] = id
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    private func identified(_ id: ShapeID) -> IdentifiedShape? {
        storage[id].map { IdentifiedShape(id: id, shape: $0) }
    }

    /// The shapes whose stroke's centre line comes within `radius` of the segment from `start` to `end` (an
    /// eraser's path between two samples), bottom to top. A line's distance to the segment is exact; for a circle
    /// the part of the segment near its box is walked in steps of at most half `radius`, so an outline it crosses is
    /// always within `radius` of a step, and a long jump costs no more than the circles it passes.
    public func shapes(alongSegmentFrom start: Point, to end: Point, radius: Double) -> [ShapeID] {
        guard start.isFinite, end.isFinite, radius > 0 else { return [] }
        let path = Line(begin: start, end: end)
        let area = Rect(
            x: Swift.min(start.x, end.x) - radius, y: Swift.min(start.y, end.y) - radius,
            width: abs(end.x - start.x) + 2 * radius, height: abs(end.y - start.y) + 2 * radius)
        return shapes(reaching: area).compactMap { item in
            switch item.shape {
            case .line(let line):
                return line.distance(to: path) <= radius ? item.id : nil
            case .circle(let circle):
                let near = circle.frame.insetBy(dx: -radius, dy: -radius)
                guard let part = path.clipped(to: near) else { return nil }
                let (a, b) = (part.begin, part.end)
                let steps = Swift.max(1, Int((a.distance(to: b) / (radius / 2)).rounded(.up)))
                let reaches = (0...steps).contains { step in
                    let t = Double(step) / Double(steps)
                    return circle.distance(to: Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)) <= radius
                }
                return reaches ? item.id : nil
            }
        }
    }
}
