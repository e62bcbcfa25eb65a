import TouchKit

/// What must be redrawn since the last frame: a region of the window, and the parts of the cache of complete lines
/// that no longer match the document.
public struct Damage: Sendable {
    /// Window region to recompose and present.
    public var region: Rect = .null
    /// Regions of the line cache to restroke from the spatial index (an edit touched the lines there).
    public private(set) var staleCacheRegions: [Rect] = []
    /// The whole cache must be redrawn (document replaced, window resized).
    public var cacheNeedsRebuild = false

    public init() {}

    public var isEmpty: Bool { region.isNull && staleCacheRegions.isEmpty && !cacheNeedsRebuild }

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
