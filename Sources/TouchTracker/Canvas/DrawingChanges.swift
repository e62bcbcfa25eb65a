import TouchKit

/// What changed in the drawing's look since the renderer last took it (`DrawingView.takeChanges`), in the
/// drawing's own terms: where the window looks different, where the complete shapes changed, which shapes became
/// complete, and the lines in progress that moved. The model hands it out and forgets it; how a renderer keeps its
/// pictures of the complete shapes up to date (tiles, a cache) is the renderer's own business.
public struct DrawingChanges: Sendable {
    /// The part of the window whose look changed.
    public var region = DamageRegion()
    /// Where complete shapes were added, removed or changed (an edit touched the shapes there).
    public private(set) var completeShapesChanged = DamageRegion()
    /// Every complete shape may have changed (the document replaced, a clear undone, a new scale).
    public private(set) var everythingChanged = false
    /// Shapes that became complete (drawn, restored, dropped after a move, deselected), so a renderer whose
    /// pictures of complete shapes lag behind can draw them on top meanwhile. Nil once more than `completedLimit`
    /// became complete since the last frame: then the renderer catches up on its own.
    public private(set) var shapesCompleted: [ShapeID]? = []
    public static let completedLimit = 64
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
        region.isEmpty && completeShapesChanged.isEmpty && !everythingChanged && movedLinesInProgress.isEmpty
    }

    public mutating func add(_ rect: Rect) {
        region.add(rect)
    }

    public mutating func add(_ other: DamageRegion) {
        region.add(other)
    }

    /// Notes that complete shapes changed in `rect` (and so did the window there). The same place noted twice
    /// (selecting then deleting a line, say) counts once.
    public mutating func noteCompleteShapesChanged(in rect: Rect) {
        noteCompleteShapesChanged(in: DamageRegion(rect))
    }

    public mutating func noteCompleteShapesChanged(in changed: DamageRegion) {
        region.add(changed)
        completeShapesChanged.add(changed)
    }

    /// Notes that `shape`, whose stroke covers `stroke`, became complete there.
    public mutating func noteShapeCompleted(_ shape: ShapeID, covering stroke: DamageRegion) {
        noteCompleteShapesChanged(in: stroke)
        if var completed = shapesCompleted, completed.count < Self.completedLimit {
            shapesCompleted = nil  // changed in place, not copied
            completed.append(shape)
            shapesCompleted = completed
        } else {
            shapesCompleted = nil
        }
    }

    /// Notes that every complete shape may have changed.
    public mutating func noteEverythingChanged() {
        everythingChanged = true
    }
}
