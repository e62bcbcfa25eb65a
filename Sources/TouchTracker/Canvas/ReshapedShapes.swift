/// Which complete shapes changed in place since someone last took the record (`DrawingView.takeReshapedShapes`):
/// the same shape, now somewhere else. Whoever names shapes by where they are (a screen reader's tree) tells its
/// listeners from it; the list of shapes may be unchanged, so comparing lists would not show it.
public struct ReshapedShapes: Sendable, Equatable {
    /// The shapes moved, each once; empty when `everything` is set.
    public private(set) var shapes: Set<ShapeID> = []
    /// Any shape may have changed (the document read again, a clear undone, many shapes at once): read them all.
    public private(set) var everything = false

    /// More moved shapes than this between two takes are reported as `everything`: one "read them all again" costs
    /// a listener less than thousands of separate notes.
    public static let limit = 64

    public init() {}

    public var isEmpty: Bool { shapes.isEmpty && !everything }

    mutating func note(_ moved: [ShapeID]) {
        guard !everything else { return }
        shapes.formUnion(moved)
        if shapes.count > Self.limit { noteEverything() }
    }

    mutating func noteEverything() {
        everything = true
        shapes = []
    }

    /// `other`'s shapes noted after these.
    public mutating func merge(_ other: ReshapedShapes) {
        if other.everything { noteEverything() } else { note(Array(other.shapes)) }
    }
}
