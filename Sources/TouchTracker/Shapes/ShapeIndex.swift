import TouchKit

/// A uniform grid over the canvas answering "the topmost shape within r px of this point" without looking at
/// every shape.
///
/// Why a grid and not an R-tree: lines are short relative to the canvas and spread over a bounded window, edits
/// are frequent (every stroke, move and undo) and must be O(cells touched), and the query wants the *topmost* line
/// within reach, not the nearest. Each cell keeps its shapes sorted by ID, so a query merges the few cells around
/// the point from the top of the stack down and stops at the first shape that is close enough — on a dense canvas
/// that is after a handful of exact distance checks. A line is filed only in the cells its segment passes through;
/// a circle in the cells of its bounding box, or, when that box spans more than `maximumCircleCells` cells, in a
/// short list every query also reads (circles are few, and a huge one would otherwise fill millions of cells).
public struct ShapeIndex: Sendable {
    /// Cell edge in pixels: a 20 px query radius touches at most 3×3 cells.
    public var cellSize: Double { cells.size }
    private let cells: Cells
    /// Cells over the area where windows live (0..<4096 px both ways) sit in a flat array, found without hashing;
    /// cells elsewhere (lines dragged or loaded far off screen) go to a dictionary.
    private var grid: [[ShapeID]]
    private var outside: [CellKey: [ShapeID]] = [:]
    /// Circles too large to file cell by cell, bottom to top.
    private var unfiled: [ShapeID] = []
    /// The lowest and highest cells any shape was filed in, grown by every insertion; after a removal it may be more
    /// than the cells hold now (`extentMayShrink`), and `occupiedCells` looks at the cells themselves.
    private var extent: (low: CellKey, high: CellKey)?
    private var extentMayShrink = false
    private static let gridCells = 128
    /// A circle whose bounding box covers more cells than this goes to `unfiled` (32 x 32 cells: 1024 px square).
    static let maximumCircleCells = 1024

    private struct CellKey: Hashable, Sendable {
        var x: Int32
        var y: Int32
    }

    public init(cellSize: Double = 32) {
        cells = Cells(size: cellSize)
        grid = Array(repeating: [], count: Self.gridCells * Self.gridCells)
    }

    private static func gridIndex(_ key: CellKey) -> Int? {
        guard key.x >= 0, key.y >= 0, key.x < Self.gridCells, key.y < Self.gridCells else { return nil }
        return Int(key.y) * Self.gridCells + Int(key.x)
    }

    private func list(_ key: CellKey) -> [ShapeID]? {
        if let index = Self.gridIndex(key) { return grid[index] }
        return outside[key]
    }

    /// Files `shape` under `id`.
    public mutating func insert(_ id: ShapeID, _ shape: Shape) {
        // The cells are walked by a copy of the geometry, not a method of `self`, so the closure may change the
        // cell lists meanwhile without Swift copying them; each cell's array is changed in place. No array of keys
        // is built: loading 100,000 lines would allocate one per line.
        let cells = self.cells
        var low = extent?.low ?? CellKey(x: .max, y: .max)
        var high = extent?.high ?? CellKey(x: .min, y: .min)
        let filed = cells.forEachCell(of: shape) { key in
            if let index = Self.gridIndex(key) {
                grid[index].insertSorted(id)
            } else {
                outside[key, default: []].insertSorted(id)
            }
            low = CellKey(x: min(low.x, key.x), y: min(low.y, key.y))
            high = CellKey(x: max(high.x, key.x), y: max(high.y, key.y))
        }
        if low.x <= high.x { extent = (low, high) }
        if !filed { unfiled.insertSorted(id) }
    }

    /// Removes `shape` filed under `id` (the shape must be given as it was inserted).
    public mutating func remove(_ id: ShapeID, _ shape: Shape) {
        let cells = self.cells
        let edge = extent
        var touchesEdge = false
        let filed = cells.forEachCell(of: shape) { key in
            // Only a shape filed on the extent's border can take it in when it goes (a move in the middle cannot).
            if let edge, key.x == edge.low.x || key.y == edge.low.y || key.x == edge.high.x || key.y == edge.high.y {
                touchesEdge = true
            }
            if let index = Self.gridIndex(key) {
                if let position = grid[index].lastIndex(of: id) { grid[index].remove(at: position) }
            } else if let position = outside[key]?.lastIndex(of: id) {
                outside[key]!.remove(at: position)
                if outside[key]!.isEmpty { outside[key] = nil }
            }
        }
        if !filed, let position = unfiled.sortedPosition(of: id) { unfiled.remove(at: position) }
        if touchesEdge { extentMayShrink = true }
    }

    public mutating func removeAll() {
        extent = nil
        extentMayShrink = false
        for index in grid.indices where !grid[index].isEmpty { grid[index] = [] }
        outside.removeAll()
        unfiled.removeAll()
    }

    /// The topmost shape whose stroke's centre line is within `radius` of `point`, by exact distance.
    public func topmostShape(near point: Point, radius: Double, shapes: (ShapeID) -> Shape?) -> ShapeID? {
        guard point.isFinite, radius >= 0 else { return nil }
        let x0 = cells.coordinate(point.x - radius)
        let x1 = cells.coordinate(point.x + radius)
        let y0 = cells.coordinate(point.y - radius)
        let y1 = cells.coordinate(point.y + radius)
        var lists: [ArraySlice<ShapeID>] = unfiled.isEmpty ? [] : [unfiled[...]]
        for cy in y0...y1 {
            for cx in x0...x1 {
                if let list = list(CellKey(x: cx, y: cy)), !list.isEmpty { lists.append(list[...]) }
            }
        }
        // Merge from the top of every list down; the first close-enough shape is the answer.
        var previous: ShapeID?
        while true {
            var best: Int?
            for index in lists.indices {
                guard let candidate = lists[index].last else { continue }
                if best == nil || candidate > lists[best!].last! { best = index }
            }
            guard let chosen = best else { return nil }
            let id = lists[chosen].removeLast()
            if id == previous { continue }  // the same shape filed in several cells
            previous = id
            if let shape = shapes(id), shape.distance(to: point) <= radius { return id }
        }
    }

    /// The IDs of every shape that may reach `rect`, in no particular order and possibly repeated.
    public func shapes(in rect: Rect, _ body: (ShapeID) -> Void) {
        guard !rect.isNull, rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite else {
            return
        }
        unfiled.forEach(body)
        for cy in cells.coordinate(rect.minY)...cells.coordinate(rect.maxY) {
            for cx in cells.coordinate(rect.minX)...cells.coordinate(rect.maxX) {
                list(CellKey(x: cx, y: cy))?.forEach(body)
            }
        }
    }

    /// The cells that hold any shape, as one rectangle, and the shapes too large to file (whose extent the caller
    /// knows): the drawing's extent to a cell, found from the cells, not the shapes (the window's "fit the whole
    /// drawing" asks it on the event loop, whatever the drawing's size). Nil when no cell holds a shape.
    public func occupiedCells() -> (bounds: Rect?, unfiled: [ShapeID]) {
        // Kept as shapes are filed: constant time, unless a removal may have emptied the extent's border cells.
        if !extentMayShrink {
            guard let extent else { return (nil, unfiled) }
            return (rect(from: extent.low, to: extent.high), unfiled)
        }
        var low = (x: Int32.max, y: Int32.max)
        var high = (x: Int32.min, y: Int32.min)
        func note(_ key: CellKey) {
            low = (min(low.x, key.x), min(low.y, key.y))
            high = (max(high.x, key.x), max(high.y, key.y))
        }
        for index in grid.indices where !grid[index].isEmpty {
            note(CellKey(x: Int32(index % Self.gridCells), y: Int32(index / Self.gridCells)))
        }
        for key in outside.keys { note(key) }
        guard low.x <= high.x else { return (nil, unfiled) }
        return (rect(from: CellKey(x: low.x, y: low.y), to: CellKey(x: high.x, y: high.y)), unfiled)
    }

    /// The rectangle the cells from `low` to `high` cover.
    private func rect(from low: CellKey, to high: CellKey) -> Rect {
        let size = cells.size
        return Rect(
            x: Double(low.x) * size, y: Double(low.y) * size, width: Double(high.x - low.x + 1) * size,
            height: Double(high.y - low.y + 1) * size)
    }

    /// Cell geometry: which cells a point or a shape falls in, kept apart from the cells' contents so that
    /// filing a shape can walk its cells while changing them.
    private struct Cells: Sendable {
        let size: Double
        /// Cells beyond ±4,000,000 px (four times the document's coordinate limit) fold into the border cells, so
        /// no line, however long, is filed in more than a bounded number of cells.
        let limit: Double

        init(size: Double) {
            self.size = size
            limit = (4_000_000 / size).rounded(.up)
        }

        /// ⌊value / size⌋ within ±limit. Clamping first (the limits are whole numbers, so it commutes with the
        /// floor) lets the floor be a truncation and a correction, instead of a call to libm's floor for each of
        /// the million or so cells a large document's lines cross.
        func coordinate(_ value: Double) -> Int32 {
            let cell = (value / size).clamped(to: -limit...limit)
            let truncated = Int32(cell)
            return Double(truncated) > cell ? truncated - 1 : truncated
        }

        /// Calls `body` with every cell `shape` is filed in and returns true; returns false (calling nothing) for
        /// a circle too large to file cell by cell. The one place the two kinds are filed differently.
        func forEachCell(of shape: Shape, _ body: (CellKey) -> Void) -> Bool {
            switch shape {
            case .line(let line):
                forEachCell(crossedBy: line, body)
                return true
            case .circle(let circle):
                let frame = circle.frame
                guard frame.minX.isFinite, frame.minY.isFinite, frame.maxX.isFinite, frame.maxY.isFinite else {
                    return true
                }
                let x0 = coordinate(frame.minX)
                let x1 = coordinate(frame.maxX)
                let y0 = coordinate(frame.minY)
                let y1 = coordinate(frame.maxY)
                guard (Int(x1) - Int(x0) + 1) * (Int(y1) - Int(y0) + 1) <= ShapeIndex.maximumCircleCells else {
                    return false
                }
                for cy in y0...y1 {
                    for cx in x0...x1 { body(CellKey(x: cx, y: cy)) }
                }
                return true
            }
        }

        /// The cells the segment passes through, found row by row: in each row of cells the segment covers one run
        /// of columns, from where it enters the row to where it leaves. The cost is the number of cells crossed,
        /// never the area of the segment's bounding box.
        func forEachCell(crossedBy line: Line, _ body: (CellKey) -> Void) {
            guard line.begin.isFinite, line.end.isFinite else { return }
            let minY = Swift.min(line.begin.y, line.end.y)
            let maxY = Swift.max(line.begin.y, line.end.y)
            let y0 = coordinate(minY)
            let y1 = coordinate(maxY)
            let dx = line.end.x - line.begin.x
            let dy = line.end.y - line.begin.y
            for cy in y0...y1 {
                // The part of the segment inside this row (border rows reach to infinity, as their cells do).
                let top = cy == y0 ? minY : Swift.max(minY, Double(cy) * size)
                let bottom = cy == y1 ? maxY : Swift.min(maxY, Double(cy + 1) * size)
                let xTop: Double
                let xBottom: Double
                if dy == 0 {
                    (xTop, xBottom) = (line.begin.x, line.end.x)
                } else {
                    xTop = line.begin.x + (top - line.begin.y) * dx / dy
                    xBottom = line.begin.x + (bottom - line.begin.y) * dx / dy
                }
                let x0 = coordinate(Swift.min(xTop, xBottom))
                let x1 = coordinate(Swift.max(xTop, xBottom))
                for cx in x0...x1 { body(CellKey(x: cx, y: cy)) }
            }
        }
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
