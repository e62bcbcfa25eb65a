// TouchKit only for its geometry (Point, Rect): the document knows no views, touches or recognizers.
import TouchKit

/// What an edit of the document changed, for whoever shows it. Shapes "at rest" are the complete shapes that are
/// not selected (the selected shape is shown apart, highlighted and perhaps moving).
public enum DocumentChange: Sendable {
    /// A shape is no longer at rest: deleted, undone, or selected.
    case leftRest(Shape)
    /// A shape is now at rest: drawn, restored, moved by undo or redo, or deselected.
    case cameToRest(ShapeID, Shape)
    /// The selected shape moved (a drag step): where it was and where it is.
    case selectionMoved(from: Shape, to: Shape)
    /// Every shape may have changed (a clear, its undo, a reload).
    case everything
}

/// The document being edited: its shapes, its options, the selection and the undo history — TouchTracker's
/// model without any input: fingers become shapes in `StrokeTracker`, and `DrawingView` connects the two.
///
/// Every change returns an `Update`: what changed (for the screen) and whether the document itself changed (so it
/// must be saved).
public struct DrawingDocument: Sendable {
    public private(set) var shapes: ShapeCollection
    /// The challenges' switches and the colour of new shapes, saved with the document.
    public private(set) var options: DrawingOptions
    /// The selected shape, drawn green on top of the others.
    public private(set) var selection: ShapeID?
    public private(set) var undoStack = UndoStack()
    /// The widest stroke any shape of a document read so far sets, so a renderer reaches far enough.
    public private(set) var widestStoredWidth: Double
    /// The selected shape as it was when the drag moving it began, for the undoable move edit.
    private var moveOrigin: Shape?
    /// The shapes each eraser stroke under way has taken out (by the stroke's key), recorded as one edit when it
    /// ends (`finishErasing`).
    private var erasing: [UInt64: [IdentifiedShape]] = [:]

    public struct Update: Sendable {
        public var changes: [DocumentChange] = []
        /// Whether the document changed (an edit, its undo or redo, an option): it must be saved.
        public var edited = false
        /// Shapes changed in place: the same shape, somewhere else (a drag step, an arrow key, a move undone or
        /// redone). Those who name shapes by where they are (a screen reader) must hear of it; the list of shapes
        /// is unchanged.
        public var reshaped: [ShapeID] = []

        mutating func merge(_ other: Update) {
            changes += other.changes
            edited = edited || other.edited
            reshaped += other.reshaped
        }

        /// More changed shapes than this in one update (a large paste, its undo or redo) are reported as
        /// `.everything`: the renderer repaints its tiles in the background instead of marking thousands of stroke
        /// regions one by one on the event loop.
        static let manyChanges = 1024

        mutating func collapseIfMany() {
            if changes.count > Self.manyChanges { changes = [.everything] }
        }
    }

    public init(_ drawing: Drawing = Drawing()) {
        shapes = ShapeCollection(drawing)
        options = drawing.options
        widestStoredWidth = Self.widest(drawing)
    }

    /// An empty document whose shapes take numbers from `firstNumber` on, so a document read meanwhile goes
    /// beneath them (`adopt`).
    public init(numberingFrom firstNumber: UInt64) {
        shapes = ShapeCollection(firstNumber: firstNumber)
        options = DrawingOptions()
        widestStoredWidth = 0
    }

    static func widest(_ drawing: Drawing) -> Double {
        Swift.max(widest(drawing.lines.lazy.map(Shape.line)), widest(drawing.circles.lazy.map(Shape.circle)))
    }

    /// The widest stroke any of `shapes` sets (0 when none sets one).
    static func widest(_ shapes: some Sequence<Shape>) -> Double {
        shapes.reduce(0) { Swift.max($0, $1.width ?? 0) }
    }

    /// The document as it stands, in constant time; it shares storage with this one until either changes.
    public var snapshot: DrawingSnapshot { DrawingSnapshot(shapes: shapes, options: options) }

    /// The document as it stands (linear in its size).
    public var drawing: Drawing { shapes.drawing(options: options) }

    public var selectedShape: Shape? { selection.flatMap { shapes[$0] } }

    /// The selected shape's position in the document's list of its kind (`lines` or `circles`).
    public var selectionPosition: (kind: Shape.Kind, index: Int)? {
        guard let selection, let index = shapes.position(of: selection) else { return nil }
        return (selection.kind, index)
    }

    // MARK: Selection

    /// Selects `id` (nothing when it is nil or not a shape of the document).
    public mutating func select(_ id: ShapeID?) -> Update {
        let id = id.flatMap { shapes[$0] == nil ? nil : $0 }
        guard id != selection else { return Update() }
        var update = Update()
        if let old = selection, let shape = shapes[old] { update.changes.append(.cameToRest(old, shape)) }
        selection = id
        if let shape = selectedShape { update.changes.append(.leftRest(shape)) }
        return update
    }

    // MARK: Edits

    /// Adds `newShapes` on top, as one edit (several fingers can finish together). Returns their IDs too.
    public mutating func add(_ newShapes: [Shape]) -> (Update, [ShapeID]) {
        guard !newShapes.isEmpty else { return (Update(), []) }
        var update = Update()
        var added: [IdentifiedShape] = []
        widestStoredWidth = Swift.max(widestStoredWidth, Self.widest(newShapes))
        for shape in newShapes {
            let id = shapes.append(shape)
            added.append(IdentifiedShape(id: id, shape: shape))
            update.changes.append(.cameToRest(id, shape))
        }
        update.merge(commit(.add(added)))
        update.collapseIfMany()
        return (update, added.map(\.id))
    }

    /// Puts a paste prepared on another thread on top of the drawing: one undoable edit, constant time. Returns
    /// nil, changing nothing, when the drawing changed since the paste was prepared on it (prepare it again).
    public mutating func paste(_ prepared: PreparedPaste) -> Update? {
        guard shapes.revision == prepared.base.revision, moveOrigin == nil, erasing.isEmpty else { return nil }
        let before = shapes
        shapes = prepared.result
        widestStoredWidth = Swift.max(widestStoredWidth, prepared.widestWidth)
        var update = commit(.paste(before, with: shapes))
        update.changes.append(.everything)
        return update
    }

    /// Removes the selected shape. No change when nothing is selected.
    public mutating func deleteSelection() -> Update {
        var update = finishMove()
        guard let id = selection, shapes[id] != nil else { return update }
        update.merge(select(nil))
        let shape = shapes.remove(id)!
        update.changes.append(.leftRest(shape))
        update.merge(commit(.delete(IdentifiedShape(id: id, shape: shape))))
        return update
    }

    /// Removes every shape, undoably. No edit when there is none.
    public mutating func clear() -> Update {
        var update = finishMove()
        update.merge(finishAllErasing())
        update.merge(select(nil))
        guard !shapes.isEmpty else { return update }
        // The collection is kept whole by the edit and replaced by an empty one: constant time at any size.
        let removed = shapes
        shapes = shapes.emptied()
        update.changes.append(.everything)
        update.merge(commit(.clear(removed)))
        return update
    }

    /// Replaces every shape with `loaded`'s (the document changed on disk and was read again): one undoable edit,
    /// so undo brings back what was there before. The options stay as they are (they are the window's settings).
    public mutating func replace(with loaded: consuming LoadedDocument) -> Update {
        var update = finishMove()
        update.merge(finishAllErasing())
        update.merge(select(nil))
        var document = consume loaded
        let previous = shapes
        shapes = document.takeShapes().continuingIDs(of: previous)
        widestStoredWidth = Swift.max(widestStoredWidth, document.widestWidth)
        update.changes.append(.everything)
        update.merge(commit(.replace(previous, with: shapes)))
        return update
    }

    /// Puts a document read in the background under what was drawn meanwhile: the document's shapes keep their
    /// IDs (from 1), the ones drawn while it loaded keep theirs (numbered from where `init(numberingFrom:)` said),
    /// so the undo history, the selection and a move in progress stay valid, and the newer shapes stay on top.
    /// The document's options replace the defaults, except those the person changed while it loaded (a key pressed
    /// at once), which are kept: then the merged options are saved. Constant time in the document's size. Not an
    /// undoable edit.
    public mutating func adopt(_ loaded: consuming LoadedDocument) -> Update {
        var document = consume loaded
        // Taken out of the document (not copied), so merging the few shapes drawn meanwhile copies nothing.
        var documentShapes = document.takeShapes()
        documentShapes.merge(shapes)
        shapes = documentShapes
        var merged = document.options
        for option in DrawingOption.allCases where options[keyPath: option.keyPath] != option.defaultValue {
            merged[keyPath: option.keyPath] = options[keyPath: option.keyPath]
        }
        if options.color != DrawingOptions().color { merged.color = options.color }
        options = merged
        widestStoredWidth = Swift.max(widestStoredWidth, document.widestWidth)
        return Update(changes: [.everything], edited: merged != document.options)
    }

    /// Changes the options (a settings toggle or a colour): saved with the document, not an undoable edit; shapes
    /// already drawn keep their colour and width.
    public mutating func setOptions(_ newOptions: DrawingOptions) -> Update {
        guard newOptions != options else { return Update() }
        options = newOptions
        return Update(edited: true)
    }

    /// Moves the selected shape by `offset` (a drag step). The move becomes one undoable edit when it ends
    /// (`finishMove`). A step that would take the shape beyond the coordinates a document may hold is ignored.
    public mutating func moveSelection(by offset: Point) -> Update {
        guard offset.isFinite, offset != .zero, let id = selection, let shape = shapes[id] else { return Update() }
        let moved = shape.translated(by: offset)
        guard moved.isStorable else { return Update() }
        if moveOrigin == nil { moveOrigin = shape }
        shapes.replace(id, with: moved)
        return Update(changes: [.selectionMoved(from: shape, to: moved)], reshaped: [id])
    }

    /// Moves the selected shape by `offset` at once, as one edit (saved), not a drag (a keyboard's arrow press).
    /// With `joiningLastMove`, when the newest edit is a move of the same shape, it is made to end here instead of
    /// a new edit being recorded: a run of presses is one undo step. Ignored while a drag is under way, or when the
    /// shape would leave the coordinates a document may hold.
    public mutating func nudgeSelection(by offset: Point, joiningLastMove: Bool) -> Update {
        guard moveOrigin == nil, offset.isFinite, offset != .zero, let id = selection, let shape = shapes[id] else {
            return Update()
        }
        let moved = shape.translated(by: offset)
        guard moved.isStorable else { return Update() }
        shapes.replace(id, with: moved)
        if joiningLastMove, case .move(let lastID, let from, _)? = undoStack.undoEdits.last, lastID == id {
            undoStack.replaceLast(with: .move(id: id, from: from, to: moved))
        } else {
            undoStack.record(.move(id: id, from: shape, to: moved))
        }
        return Update(changes: [.selectionMoved(from: shape, to: moved)], edited: true, reshaped: [id])
    }

    /// Ends a move in progress, recording it for undo (and so for saving).
    public mutating func finishMove() -> Update {
        guard let origin = moveOrigin else { return Update() }
        moveOrigin = nil
        guard let id = selection, let shape = shapes[id], shape != origin else { return Update() }
        return commit(.move(id: id, from: origin, to: shape))
    }

    // MARK: Erasing

    /// Takes `ids` out of the drawing for the eraser stroke `stroke` (shown gone at once); the stroke becomes one
    /// undoable edit when it ends (`finishErasing`). A shape being dragged is left alone; a selected one is
    /// deselected first. IDs no longer in the drawing are skipped.
    public mutating func erase(_ ids: [ShapeID], stroke: UInt64) -> Update {
        var update = Update()
        for id in ids {
            if id == selection {
                guard moveOrigin == nil else { continue }
                update.merge(select(nil))
            }
            guard let shape = shapes.remove(id) else { continue }
            erasing[stroke, default: []].append(IdentifiedShape(id: id, shape: shape))
            update.changes.append(.leftRest(shape))
        }
        update.collapseIfMany()
        return update
    }

    /// Ends the eraser stroke `stroke`: what it took out becomes one undoable edit (and is saved). Nothing when it
    /// erased nothing.
    public mutating func finishErasing(stroke: UInt64) -> Update {
        guard let erased = erasing.removeValue(forKey: stroke), !erased.isEmpty else { return Update() }
        return commit(.erase(erased))
    }

    /// Puts back what the eraser stroke `stroke` took out, as if it had never been (the stroke was claimed by a
    /// gesture of the window system's). Saved when anything came back: an edit made meanwhile (a finger's line)
    /// may have saved the drawing without it.
    public mutating func abandonErasing(stroke: UInt64) -> Update {
        guard let erased = erasing.removeValue(forKey: stroke) else { return Update() }
        var update = Update()
        for item in erased where shapes[item.id] == nil { update.changes += restore(item) }
        update.edited = !update.changes.isEmpty
        update.collapseIfMany()
        return update
    }

    /// Records every eraser stroke under way as its edit (an undo, a clear or a reload must not interleave with
    /// one).
    private mutating func finishAllErasing() -> Update {
        var update = Update()
        for stroke in erasing.keys.sorted() { update.merge(finishErasing(stroke: stroke)) }
        return update
    }

    public mutating func undo() -> Update {
        var update = finishMove()
        update.merge(finishAllErasing())
        guard let edit = undoStack.popUndo() else { return update }
        update.merge(apply(edit, reversed: true))
        return update
    }

    public mutating func redo() -> Update {
        var update = finishMove()
        update.merge(finishAllErasing())
        guard let edit = undoStack.popRedo() else { return update }
        update.merge(apply(edit, reversed: false))
        return update
    }

    private mutating func apply(_ edit: Edit, reversed: Bool) -> Update {
        var update = select(nil)
        update.edited = true
        switch (edit, reversed) {
        case (.add(let added), true):
            for item in added { update.changes += remove(item) }
        case (.add(let added), false):
            for item in added { update.changes += restore(item) }
        case (.delete(let item), true):
            update.changes += restore(item)
        case (.delete(let item), false):
            update.changes += remove(item)
        case (.clear(let removed), true):
            // Every later edit has been undone, so the drawing is as the clear left it (empty): what it removed
            // comes back whole. Anything drawn since would be merged in (never expected; kept for safety).
            shapes = shapes.isEmpty ? removed.continuingIDs(of: shapes) : shapes.merging(removed)
            update.changes.append(.everything)
        case (.clear, false):
            shapes = shapes.emptied()
            update.changes.append(.everything)
        case (.replace(let before, let after), _), (.paste(let before, let after), _):
            shapes = (reversed ? before : after).continuingIDs(of: shapes)
            update.changes.append(.everything)
        case (.erase(let erased), true):
            for item in erased { update.changes += restore(item) }
        case (.erase(let erased), false):
            for item in erased { update.changes += remove(item) }
        case (.move(let id, let from, let to), _):
            let target = reversed ? from : to
            if let current = shapes[id] { update.changes.append(.leftRest(current)) }
            shapes.replace(id, with: target)
            update.changes.append(.cameToRest(id, target))
            update.reshaped.append(id)
        }
        update.collapseIfMany()
        return update
    }

    private mutating func remove(_ item: IdentifiedShape) -> [DocumentChange] {
        shapes.remove(item.id)
        return [.leftRest(item.shape)]
    }

    private mutating func restore(_ item: IdentifiedShape) -> [DocumentChange] {
        shapes.restore(item.id, item.shape)
        return [.cameToRest(item.id, item.shape)]
    }

    private mutating func commit(_ edit: Edit) -> Update {
        undoStack.record(edit)
        return Update(edited: true)
    }
}

/// Shapes to paste, put on top of a drawing's shapes away from the event loop: adding 100,000 shapes to the
/// collection and its index takes ~100 ms, which the loop must not wait for. `DrawingDocument.paste` then swaps the
/// result in, if the drawing is still the one it was prepared on.
public struct PreparedPaste: Sendable {
    /// The shapes pasted (already placed).
    public let shapes: [Shape]
    /// The drawing's shapes it was prepared on.
    public let base: ShapeCollection
    let result: ShapeCollection
    let widestWidth: Double

    /// How many of `shapes` are lines. Constant time.
    public var lineCount: Int { result.lineCount - base.lineCount }
    /// How many of `shapes` are circles. Constant time.
    public var circleCount: Int { result.circleCount - base.circleCount }

    /// Linear in `shapes`: call it off the event loop.
    public init(_ shapes: [Shape], onto base: ShapeCollection) {
        self.shapes = shapes
        self.base = base
        var result = base
        for shape in shapes { result.append(shape) }
        self.result = result
        widestWidth = DrawingDocument.widest(shapes)
    }
}
