/// One undoable change to the complete lines and circles.
public enum Edit: Sendable {
    /// Lines (and circles) drawn: several fingers can complete them in one event.
    case add([IdentifiedLine], circles: [IdentifiedCircle] = [])
    case delete(IdentifiedLine)
    case deleteCircle(IdentifiedCircle)
    /// Everything cleared, kept whole (with its spatial index), so undo puts it back in constant time however
    /// large the drawing was.
    case clear(LineCollection, circles: CircleCollection)
    /// Every complete line and circle replaced by a document's (another program changed it on disk), both sides
    /// kept whole, so undo and redo are constant time.
    case replace(LineCollection, circles: CircleCollection, with: LineCollection, newCircles: CircleCollection)
    case move(id: LineID, from: Line, to: Line)
    case moveCircle(id: CircleID, from: Circle, to: Circle)

    /// A short verb for traces and the inspector.
    public var name: String {
        switch self {
        case .add: "draw"
        case .delete, .deleteCircle: "delete"
        case .clear: "clear"
        case .replace: "reload"
        case .move, .moveCircle: "move"
        }
    }
}

/// A line with its ID, as edits remember it.
public struct IdentifiedLine: Hashable, Sendable {
    public var id: LineID
    public var line: Line

    public init(id: LineID, line: Line) {
        self.id = id
        self.line = line
    }
}

/// A circle with its ID, as edits remember it.
public struct IdentifiedCircle: Hashable, Sendable {
    public var id: CircleID
    public var circle: Circle

    public init(id: CircleID, circle: Circle) {
        self.id = id
        self.circle = circle
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
