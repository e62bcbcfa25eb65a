import TouchKit

/// The complete lines in stacking order, each with a stable ID, kept filed in a spatial index.
public struct LineCollection: Sendable {
    /// IDs from bottom to top. Always sorted, because IDs are handed out in drawing order.
    public private(set) var order: [LineID] = []
    private var storage = LineStorage()
    public private(set) var index = LineIndex()
    private var nextID: UInt64 = 1

    public init(_ lines: [Line] = []) {
        order.reserveCapacity(lines.count)
        // `append` for fresh IDs 1, 2, 3, …: none can be taken yet and each goes on top, so the lookup before
        // storing and the search for the place in `order` are left out (a document opens with all its lines).
        for line in lines {
            let id = LineID(nextID)
            nextID += 1
            storage[id] = line
            order.append(id)
            index.insert(id, line)
        }
    }

    public var count: Int { order.count }
    public var isEmpty: Bool { order.isEmpty }

    public subscript(id: LineID) -> Line? { storage[id] }

    /// The lines bottom to top, as the document stores them.
    public var lines: [Line] { order.map { storage[$0]! } }

    /// The position of `id` from the bottom (the document's index of the line).
    public func position(of id: LineID) -> Int? { order.sortedPosition(of: id) }

    /// Adds a new line on top and returns its ID.
    @discardableResult
    public mutating func append(_ line: Line) -> LineID {
        let id = LineID(nextID)
        nextID += 1
        restore(id, line)
        return id
    }

    /// Puts back a line that was removed, at its old place in the stack.
    public mutating func restore(_ id: LineID, _ line: Line) {
        guard storage[id] == nil else { return }
        nextID = Swift.max(nextID, id.rawValue + 1)
        storage[id] = line
        order.insertSorted(id)
        index.insert(id, line)
    }

    @discardableResult
    public mutating func remove(_ id: LineID) -> Line? {
        guard let line = storage.removeValue(forKey: id), let position = position(of: id) else { return nil }
        order.remove(at: position)
        index.remove(id, line)
        return line
    }

    /// Replaces the geometry of a line, keeping its place in the stack.
    public mutating func replace(_ id: LineID, with line: Line) {
        guard let old = storage[id] else { return }
        index.remove(id, old)
        storage[id] = line
        index.insert(id, line)
    }

    /// An empty collection that goes on handing out IDs where this one stopped, so lines drawn after a clear never
    /// take the ID of a cleared line that undo may bring back.
    public func emptied() -> LineCollection {
        var empty = LineCollection()
        empty.nextID = nextID
        return empty
    }

    /// This collection, handing out IDs after both its own and `other`'s (undo of a clear puts a kept collection
    /// back in place of the empty one that took its place).
    public func continuingIDs(of other: LineCollection) -> LineCollection {
        var result = self
        result.nextID = Swift.max(nextID, other.nextID)
        return result
    }

    /// This collection with every line of `other` put back at its place in the stack.
    public func merging(_ other: LineCollection) -> LineCollection {
        var result = self
        result.merge(other)
        return result
    }

    /// Puts every line of `other` at its place in the stack (linear in `other`'s size, not this one's, when this
    /// collection's storage is not shared).
    public mutating func merge(_ other: LineCollection) {
        for id in other.order { restore(id, other.storage[id]!) }
        nextID = Swift.max(nextID, other.nextID)
    }

    /// An empty collection whose lines get IDs from `firstID` on (above every line of a document still being read,
    /// which then goes beneath them: `merging`).
    public init(firstID: UInt64) {
        nextID = firstID
    }

    /// Removes every line and returns them bottom to top with their IDs.
    @discardableResult
    public mutating func removeAll() -> [(id: LineID, line: Line)] {
        let removed = order.map { (id: $0, line: storage[$0]!) }
        order.removeAll()
        storage.removeAll()
        index.removeAll()
        return removed
    }

    /// The topmost line within `radius` of `point` (exact segment distance).
    public func topmostLine(near point: Point, radius: Double) -> LineID? {
        index.topmostLine(near: point, radius: radius) { storage[$0] }
    }

    /// The lines that may cross `rect`, bottom to top, each once.
    public func lines(crossing rect: Rect) -> [(id: LineID, line: Line)] {
        var ids = Set<LineID>()
        index.lines(in: rect) { ids.insert($0) }
        return ids.sorted().compactMap { id in storage[id].map { (id, $0) } }
    }
}
