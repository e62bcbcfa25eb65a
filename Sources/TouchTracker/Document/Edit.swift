/// One undoable change to the complete shapes.
public enum Edit: Sendable {
    /// Shapes drawn: several fingers can complete lines (and a circle) in one event.
    case add([IdentifiedShape])
    case delete(IdentifiedShape)
    /// Everything cleared, kept whole (with its spatial index), so undo puts it back in constant time however
    /// large the drawing was.
    case clear(ShapeCollection)
    /// Every complete shape replaced by a document's (another program changed it on disk), both sides kept whole,
    /// so undo and redo are constant time.
    case replace(ShapeCollection, with: ShapeCollection)
    /// A large paste, prepared on another thread (`PreparedPaste`): the shapes before and after, both kept whole,
    /// so undo and redo are constant time.
    case paste(ShapeCollection, with: ShapeCollection)
    case move(id: ShapeID, from: Shape, to: Shape)
    /// Shapes a stylus's eraser crossed in one stroke, each with its ID, so undo puts them back where they were.
    case erase([IdentifiedShape])

    /// A short verb for traces and the inspector.
    public var name: String {
        switch self {
        case .add: "draw"
        case .delete: "delete"
        case .clear: "clear"
        case .replace: "reload"
        case .paste: "paste"
        case .move: "move"
        case .erase: "erase"
        }
    }
}

/// A shape with its ID, as edits remember it.
public struct IdentifiedShape: Hashable, Sendable {
    public var id: ShapeID
    public var shape: Shape

    public init(id: ShapeID, shape: Shape) {
        self.id = id
        self.shape = shape
    }
}

/// Undo and redo stacks of edits. A new edit clears the redo stack, as everywhere.
public struct UndoStack: Sendable {
    public private(set) var undoEdits: [Edit] = []
    public private(set) var redoEdits: [Edit] = []
    /// How many edits are kept; the oldest are forgotten beyond it.
    public var limit = 1000

    public init() {}

    public var canUndo: Bool { !undoEdits.isEmpty }
    public var canRedo: Bool { !redoEdits.isEmpty }

    public mutating func record(_ edit: Edit) {
        undoEdits.append(edit)
        if undoEdits.count > limit { undoEdits.removeFirst(undoEdits.count - limit) }
        redoEdits.removeAll()
    }

    /// Puts `edit` in the place of the newest one (a run of keyboard moves of one shape stays one undo step).
    mutating func replaceLast(with edit: Edit) {
        guard !undoEdits.isEmpty else { return record(edit) }
        undoEdits[undoEdits.count - 1] = edit
        redoEdits.removeAll()
    }

    mutating func popUndo() -> Edit? {
        guard let edit = undoEdits.popLast() else { return nil }
        redoEdits.append(edit)
        return edit
    }

    mutating func popRedo() -> Edit? {
        guard let edit = redoEdits.popLast() else { return nil }
        undoEdits.append(edit)
        return edit
    }
}
