import TouchKit
import TouchTracker

/// What a screen reader is told as the keyboard draws: where the cursor (or the stroke it draws) rests once the
/// arrows stop, and the shape a Space finished. Without it a person who cannot see the window could not draw on
/// purpose. Where a shape is selected or a menu is open the focus events speak instead.
struct KeyboardCursorAnnouncer {
    /// What the window shows of the keyboard now.
    struct Look: Equatable {
        var location: Point
        /// The stroke the arrows draw, if any.
        var stroke: KeyboardCursor.Stroke?
        /// The circle the keyboard draws, as it is now (nil unless `stroke` is a circle).
        var circle: Circle?
        var isShown: Bool
        /// A shape selected or a menu open: the focus says where the keyboard is.
        var focusElsewhere: Bool
        var lineCount: Int
        var circleCount: Int

        /// How many shapes of the kind `stroke` draws the drawing holds.
        func count(of stroke: KeyboardCursor.Stroke) -> Int { stroke == .line ? lineCount : circleCount }
    }

    enum Saying: Equatable {
        case nothing
        /// Said at once (a shape finished).
        case now(Message)
        /// Said once the keyboard has rested (the cursor moved): the look of then.
        case whenStill
    }

    private var last: Look?
    /// The number of shapes of its kind when the keyboard's stroke began.
    private var countWhenStrokeBegan = 0

    /// What to say for `look`; `newestShape` names the newest line or circle, asked for only when a Space finished
    /// one.
    mutating func saying(for look: Look, newestShape: (KeyboardCursor.Stroke) -> Message?) -> Saying {
        guard look.isShown, look != last else { return .nothing }
        defer { last = look }
        let wasDrawing = last?.stroke
        // A stroke ended (finished or cancelled) when the look shows none or another kind: Space then Shift+Space
        // can come between two looks.
        var finishedName: Message?
        if let finished = wasDrawing, look.stroke != finished {
            // Finished (the drawing gained a shape of its kind), or cancelled (Escape, or a stroke too short).
            finishedName =
                look.count(of: finished) > countWhenStrokeBegan
                ? newestShape(finished) : .strokeCancelled(finished)
        }
        if let stroke = look.stroke, stroke != wasDrawing { countWhenStrokeBegan = look.count(of: stroke) }
        if let finishedName { return .now(finishedName) }
        guard !look.focusElsewhere, look.location != last?.location || look.stroke != wasDrawing else {
            return .nothing
        }
        return .whenStill
    }

    /// What to say once the keys rest, for `look`.
    static func message(for look: Look) -> Message? {
        guard look.isShown, !look.focusElsewhere else { return nil }
        switch look.stroke {
        case nil: return .keyboardCursor(at: look.location)
        case .line: return .keyboardLine(to: look.location)
        case .circle: return look.circle.map { .keyboardCircle($0) } ?? .keyboardCursor(at: look.location)
        }
    }
}
