import TouchKit

/// What must be redrawn since the last frame: a region of the window, and the parts of the cache of complete lines
/// that no longer match the document.
public struct Damage: Sendable {
    /// Window region to recompose and present.
    public var region = DamageRegion()
    /// Regions of the cache of complete lines that no longer match the document (an edit touched the lines there).
    public private(set) var staleCacheRegions = DamageRegion()
    /// The whole cache must be redrawn (document replaced, undo of a clear, a new scale).
    public var cacheNeedsRebuild = false
    /// Shapes that went into the cache (drawn, restored, dropped after a move, deselected), so a renderer that
    /// repaints its cache in the background can draw them on top until the cache shows them. Nil once more than
    /// `insertionLimit` went in since the last frame: then the cache catches up on its own.
    public private(set) var cacheInsertions: [ShapeID]? = []
    public static let insertionLimit = 64
    /// Touches whose line in progress had its whole stroke, old place and new, added to `region` (it moved): a
    /// renderer may stroke such a line under a plain rectangular clip, since every pixel it paints is redrawn anyway.
    public var redrawnLinesInProgress: Set<UInt64> = []
    /// Lines in progress that moved since the last frame, by touch: where each was shown at the last frame (nil:
    /// it was not shown) and the widest it has been since. The bands along the old and the new place are added to
    /// `region` once, when the frame takes the damage (`DrawingView.damageForFrame`), not at every move: places a
    /// line passed through between two frames were never on screen.
    public var movedLinesInProgress: [UInt64: MovedLine] = [:]

    public struct MovedLine: Sendable {
        public var shown: Line?
        public var width: Double
    }

    public init() {}

    public var isEmpty: Bool {
        region.isEmpty && staleCacheRegions.isEmpty && !cacheNeedsRebuild && movedLinesInProgress.isEmpty
    }

    public mutating func add(_ rect: Rect) {
        region.add(rect)
    }

    public mutating func add(_ other: DamageRegion) {
        region.add(other)
    }

    /// Marks `rect` of the cache stale (and of the window, since what shows there changes). The same place marked
    /// twice (selecting then deleting a line, say) is repainted once.
    public mutating func invalidateCache(_ rect: Rect) {
        invalidateCache(DamageRegion(rect))
    }

    public mutating func invalidateCache(_ stale: DamageRegion) {
        region.add(stale)
        staleCacheRegions.add(stale)
    }

    /// Records that `shape`, whose stroke covers `stroke`, went into the cache there.
    public mutating func insertIntoCache(_ shape: ShapeID, covering stroke: DamageRegion) {
        invalidateCache(stroke)
        if var insertions = cacheInsertions, insertions.count < Self.insertionLimit {
            cacheInsertions = nil  // changed in place, not copied
            insertions.append(shape)
            cacheInsertions = insertions
        } else {
            cacheInsertions = nil
        }
    }
}
