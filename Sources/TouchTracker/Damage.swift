import TouchKit

/// What must be redrawn since the last frame: a region of the window, and the parts of the cache of complete lines
/// that no longer match the document.
public struct Damage: Sendable {
    /// Window region to recompose and present.
    public var region: Rect = .null
    /// Regions of the line cache to restroke from the spatial index (an edit touched the lines there).
    public private(set) var staleCacheRegions: [Rect] = []
    /// The whole cache must be redrawn (document replaced, undo of a clear, a new scale).
    public var cacheNeedsRebuild = false
    /// Shapes that went into the cache (drawn, restored, dropped after a move, deselected), so a renderer that
    /// repaints its cache in the background can draw them on top until the cache shows them. Nil once more than
    /// `insertionLimit` went in since the last frame: then the cache catches up on its own.
    public private(set) var cacheInsertions: [ShapeID]? = []
    public static let insertionLimit = 64

    public init() {}

    public var isEmpty: Bool { region.isNull && staleCacheRegions.isEmpty && !cacheNeedsRebuild }

    /// Records that `shape`, whose stroke covers `bounds`, went into the cache there.
    public mutating func insertIntoCache(_ shape: ShapeID, bounds: Rect) {
        invalidateCache(bounds)
        if var insertions = cacheInsertions, insertions.count < Self.insertionLimit {
            cacheInsertions = nil  // changed in place, not copied
            insertions.append(shape)
            cacheInsertions = insertions
        } else {
            cacheInsertions = nil
        }
    }

    public mutating func add(_ rect: Rect) {
        region = region.union(rect)
    }

    /// Marks `rect` of the cache stale (and of the window, since what shows there changes).
    public mutating func invalidateCache(_ rect: Rect) {
        guard !rect.isNull else { return }
        add(rect)
        // Selecting then deleting a line, say, marks the same place twice: restroke it once.
        if staleCacheRegions.contains(where: { $0.contains(rect) }) { return }
        // A few separate rectangles stay separate; beyond that they merge so the list stays short.
        if staleCacheRegions.count >= 8 {
            let merged = staleCacheRegions.reduce(rect) { $0.union($1) }
            staleCacheRegions = [merged]
        } else {
            staleCacheRegions.append(rect)
        }
    }
}
