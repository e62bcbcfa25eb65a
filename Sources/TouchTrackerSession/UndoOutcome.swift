import TouchTracker
import TouchTrackerAccessibility

/// What an undo or a redo changed, for a screen reader: "Undone: Line from 10, 20 to 300, 40 restored". A sighted
/// user sees the shape come back; a blind one hears it.
enum UndoOutcome {
    /// The message for the drawing going from `before` to `after` by an undo (or a redo); nil when nothing changed.
    static func message(redo: Bool, before: ShapeCollection, after: ShapeCollection) -> Message? {
        guard before.revision != after.revision else { return nil }
        let had = Set(before.order)
        let has = Set(after.order)
        let restored = after.order.filter { !had.contains($0) }
        let removed = before.order.filter { !has.contains($0) }
        // Moved or recoloured: the same shape, now elsewhere (named where it is now).
        let changed = after.order.filter { had.contains($0) && before[$0] != after[$0] }
        func names(_ ids: [ShapeID], in shapes: ShapeCollection) -> [Message] {
            // Only one is ever named: more are said as several.
            ids.prefix(2).compactMap { shapes[$0].map(AccessibleScene.name(of:)) }
        }
        return Message.undoOutcome(
            redo: redo, restored: names(restored, in: after), removed: names(removed, in: before),
            changed: names(changed, in: after))
    }
}
