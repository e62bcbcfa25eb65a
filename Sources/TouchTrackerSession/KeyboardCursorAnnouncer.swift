import TouchKit
import TouchTracker

/// What a screen reader is told as the keyboard draws: where the cursor (or the end of the line it draws) rests
/// once the arrows stop, and the line a Space finished. Without it a person who cannot see the window could not
/// draw on purpose. Where a shape is selected or a menu is open the focus events speak instead.
struct KeyboardCursorAnnouncer {
    /// What the window shows of the keyboard now.
    struct Look: Equatable {
        var location: Point
        var isDrawing: Bool
        var isShown: Bool
        /// A shape selected or a menu open: the focus says where the keyboard is.
        var focusElsewhere: Bool
        var lineCount: Int
    }

    enum Saying: Equatable {
        case nothing
        /// Said at once (a line finished).
        case now(Message)
        /// Said once the keyboard has rested (the cursor moved): the look of then.
        case whenStill
    }

    private var last: Look?
    /// The number of lines when the keyboard's line began.
    private var linesWhenLineBegan = 0

    /// What to say for `look`; `newestLine` gives the newest line, asked for only when a Space finished one.
    mutating func saying(for look: Look, newestLine: () -> Line?) -> Saying {
        guard look.isShown, look != last else { return .nothing }
        defer { last = look }
        let wasDrawing = last?.isDrawing ?? false
        if look.isDrawing && !wasDrawing { linesWhenLineBegan = look.lineCount }
        if wasDrawing && !look.isDrawing, look.lineCount > linesWhenLineBegan, let newestLine = newestLine() {
            return .now(.lineName(from: newestLine.begin, to: newestLine.end))
        }
        guard !look.focusElsewhere, look.location != last?.location || look.isDrawing != wasDrawing else {
            return .nothing
        }
        return .whenStill
    }

    /// What to say once the keys rest, for `look`.
    static func message(for look: Look) -> Message? {
        guard look.isShown, !look.focusElsewhere else { return nil }
        return look.isDrawing ? .keyboardLine(to: look.location) : .keyboardCursor(at: look.location)
    }
}
