import TouchKit

/// The TouchTracker canvas (the seed's TouchDrawView): every finger draws its own straight line, keyed by touch;
/// complete lines can be selected, deleted, cleared, moved, and every such edit undone.
///
/// It owns the lines while the app runs, reports each completed edit through `onEdit` so the platform can save,
/// and records what needs redrawing in `damage`, which the renderer reads and clears.
public final class DrawingView: View {
    /// Stroke width of every line, in pixels.
    public var lineWidth = 10.0
    /// How far a finger must move before its line appears (UIKit's tap slop), so taps leave no dots.
    public var tapSlop = 10.0
    /// How close a tap must be to a line to select it.
    public var hitRadius = 20.0

    public private(set) var lines: LineCollection
    /// Lines being drawn, by `Touch.identifier` (unique per contact, never a reused platform id).
    public private(set) var linesInProgress: [UInt64: LineInProgress] = [:]
    /// The selected line, drawn green on top of the others.
    public private(set) var selectedLineID: LineID?
    public private(set) var undoStack = UndoStack()
    /// What changed since the renderer last looked.
    public var damage = Damage()
    /// Called after every completed edit (and undo or redo) with the new document.
    public var onEdit: ((Drawing) -> Void)?

    /// The selected line's geometry when its move began, for the undoable move edit.
    private var moveOrigin: Line?

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        self.lines = LineCollection(drawing.lines)
        super.init(frame: frame)
        isMultipleTouchEnabled = true
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
    }

    /// The document as it stands.
    public var drawing: Drawing { Drawing(lines: lines.lines) }

    /// The selected line's index in the document, for the state snapshot.
    public var selectedLineIndex: Int? { selectedLineID.flatMap { lines.position(of: $0) } }

    public var selectedLine: Line? { selectedLineID.flatMap { lines[$0] } }

    /// The in-progress lines that are visible, oldest touch first.
    public var visibleLinesInProgress: [Line] {
        linesInProgress.sorted { $0.key < $1.key }.compactMap { $0.value.isVisible ? $0.value.line : nil }
    }

    /// Replaces the whole document (loading a file). Not undoable; clears the history.
    public func replaceDrawing(_ newDrawing: Drawing) {
        lines = LineCollection(newDrawing.lines)
        selectedLineID = nil
        undoStack = UndoStack()
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
    }

    // MARK: Queries

    /// The topmost line within the hit radius of `point`.
    public func lineID(at point: Point) -> LineID? {
        lines.topmostLine(near: point, radius: hitRadius)
    }

    private func strokeBounds(_ line: Line) -> Rect { line.bounds(width: lineWidth) }

    // MARK: Selection

    /// Selects `id` (or nothing). The selected line is lifted out of the line cache and drawn green on top.
    public func select(_ id: LineID?) {
        let id = id.flatMap { lines[$0] == nil ? nil : $0 }
        guard id != selectedLineID else { return }
        if let old = selectedLine { damage.invalidateCache(strokeBounds(old)) }
        selectedLineID = id
        if let new = selectedLine { damage.invalidateCache(strokeBounds(new)) }
    }

    // MARK: Edits

    /// Removes the selected line. Returns whether there was one.
    @discardableResult
    public func deleteSelectedLine() -> Bool {
        guard let id = selectedLineID, let line = lines[id] else { return false }
        finishMove()
        select(nil)
        lines.remove(id)
        damage.invalidateCache(strokeBounds(line))
        commit(.delete(IdentifiedLine(id: id, line: line)))
        return true
    }

    /// Removes every line, complete and in progress. Undoable (the complete ones come back).
    public func clearAll() {
        finishMove()
        select(nil)
        for line in linesInProgress.values where line.isVisible { damage.add(strokeBounds(line.line)) }
        linesInProgress.removeAll()
        guard !lines.isEmpty else { return }
        let removed = lines.removeAll().map { IdentifiedLine(id: $0.id, line: $0.line) }
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
        commit(.clear(removed))
    }

    /// Moves the selected line by `offset` (a pan step). The move becomes one undoable edit when it ends.
    public func moveSelectedLine(by offset: Point) {
        guard let id = selectedLineID, let line = lines[id], offset.isFinite, offset != .zero else { return }
        if moveOrigin == nil { moveOrigin = line }
        let moved = line.translated(by: offset)
        guard moved.begin.isFinite, moved.end.isFinite else { return }
        damage.add(strokeBounds(line))
        lines.replace(id, with: moved)
        damage.add(strokeBounds(moved))
    }

    /// Ends a move in progress, recording it for undo and saving.
    public func finishMove() {
        guard let origin = moveOrigin else { return }
        moveOrigin = nil
        guard let id = selectedLineID, let line = lines[id], line != origin else { return }
        commit(.move(id: id, from: origin, to: line))
    }

    public func undo() {
        finishMove()
        guard let edit = undoStack.popUndo() else { return }
        apply(edit, reversed: true)
    }

    public func redo() {
        finishMove()
        guard let edit = undoStack.popRedo() else { return }
        apply(edit, reversed: false)
    }

    private func apply(_ edit: Edit, reversed: Bool) {
        select(nil)
        switch (edit, reversed) {
        case (.add(let added), true):
            for item in added { remove(item) }
        case (.add(let added), false):
            for item in added { restore(item) }
        case (.delete(let item), true):
            restore(item)
        case (.delete(let item), false):
            remove(item)
        case (.clear(let removed), true):
            for item in removed { lines.restore(item.id, item.line) }
            damage.cacheNeedsRebuild = true
            damage.add(bounds)
        case (.clear, false):
            lines.removeAll()
            damage.cacheNeedsRebuild = true
            damage.add(bounds)
        case (.move(let id, let from, let to), _):
            let target = reversed ? from : to
            if let current = lines[id] { damage.invalidateCache(strokeBounds(current)) }
            lines.replace(id, with: target)
            damage.invalidateCache(strokeBounds(target))
        }
        onEdit?(drawing)
    }

    private func remove(_ item: IdentifiedLine) {
        lines.remove(item.id)
        damage.invalidateCache(strokeBounds(item.line))
    }

    private func restore(_ item: IdentifiedLine) {
        lines.restore(item.id, item.line)
        damage.invalidateCache(strokeBounds(item.line))
    }

    private func commit(_ edit: Edit) {
        undoStack.record(edit)
        onEdit?(drawing)
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            let point = touch.location(in: self)
            linesInProgress[touch.identifier] = LineInProgress(begin: point, end: point, isVisible: false)
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches { update(touch) }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        complete(touches)
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        // A gesture that claimed the touch owns it: its stroke was never meant as a line. A touch the system took
        // away (device unplugged, grab) keeps its work: the line completes where the finger was last seen.
        let kept = touches.filter { $0.cancellationReason == .system }
        for touch in touches.subtracting(kept) { discardLine(of: touch) }
        complete(kept, updatingLocation: false)
    }

    /// Drops the line a touch is drawing, if any (a gesture claimed the touch).
    public func discardLine(of touch: Touch) {
        if let line = linesInProgress.removeValue(forKey: touch.identifier), line.isVisible {
            damage.add(strokeBounds(line.line))
        }
    }

    private func update(_ touch: Touch) {
        guard var line = linesInProgress[touch.identifier] else { return }
        let point = touch.location(in: self)
        guard point.isFinite else { return }
        if line.isVisible { damage.add(strokeBounds(line.line)) }
        line.end = point
        if !line.isVisible, line.begin.distance(to: point) > tapSlop { line.isVisible = true }
        if line.isVisible { damage.add(strokeBounds(line.line)) }
        linesInProgress[touch.identifier] = line
    }

    private func complete(_ touches: Set<Touch>, updatingLocation: Bool = true) {
        var added: [IdentifiedLine] = []
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            if updatingLocation { update(touch) }
            guard let line = linesInProgress.removeValue(forKey: touch.identifier), line.isVisible else { continue }
            let id = lines.append(line.line)
            added.append(IdentifiedLine(id: id, line: line.line))
            damage.invalidateCache(strokeBounds(line.line))
        }
        guard !added.isEmpty else { return }
        commit(.add(added))
    }
}
