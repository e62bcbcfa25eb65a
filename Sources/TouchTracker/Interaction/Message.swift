import TouchKit

/// A line of text the window shows, kept as its English template — numbered placeholders `{1}`, `{2}` — and its
/// arguments, and translated only where it is drawn (`localized`). The model, replay scripts and the state
/// snapshot stay English whatever the locale, so scripts and tests are portable.
public struct Message: Hashable, Sendable, CustomStringConvertible {
    public enum Argument: Hashable, Sendable {
        /// Text that is translated too (an option's name, say).
        case message(Message)
        /// Text shown as it is (a file name, a number).
        case literal(String)
    }

    /// The English template: a msgid of the translation catalogs (`Resources/po`).
    public let template: String
    public let arguments: [Argument]
    /// For a text that counts something: the count that chooses its form, and its English plural form (the
    /// catalogs' msgid_plural); `template` is then the singular form.
    public let plural: Plural?

    public struct Plural: Hashable, Sendable {
        public var template: String
        public var count: Int
    }

    public init(_ template: String, _ arguments: Argument...) {
        self.template = template
        self.arguments = arguments
        self.plural = nil
    }

    /// The text with `translate` applied to the template and to every argument that is a message, and the
    /// arguments put in place of their placeholders.
    public func localized(_ translate: Translate) -> String {
        var text = plural.map { translate(one: template, many: $0.template, count: $0.count) } ?? translate(template)
        for (index, argument) in arguments.enumerated() {
            let value: String
            switch argument {
            case .message(let message): value = message.localized(translate)
            case .literal(let literal): value = literal
            }
            text = text.replacingPlaceholder("{\(index + 1)}", with: value)
        }
        return text
    }

    /// The English text.
    public var description: String { localized(untranslated) }
}

extension String {
    /// This text with every `placeholder` replaced by `value` (no Foundation in the model).
    fileprivate func replacingPlaceholder(_ placeholder: String, with value: String) -> String {
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: placeholder) {
            result += rest[..<range.lowerBound]
            result += value
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

/// Every message the window shows, in one place: the catalogs in `Resources/po` translate exactly these templates
/// and the menu titles (a test checks that each catalog has them all).
extension Message {
    /// The English templates, each written once: the messages below are made from them and `templates` lists them.
    enum Template: String, CaseIterable {
        case optionOn = "{1}: on"
        case optionOff = "{1}: off"
        case colourChosen = "Colour: {1}"
        case exported = "Exported {1}"
        case cannotExport = "Cannot export {1}"
        case reloaded = "{1} changed on disk — reloaded"
        case unreadableOnDisk = "{1} changed on disk but cannot be read — kept what is shown"
        case notSaved = "Not saved: {1} — retrying"
        case unsavedCopyKept = "Unsaved copy kept in {1}"
        case untitled = "Untitled"
        case untitledNumbered = "Untitled {1}"
        case openDialogTitle = "Open Drawings"
        case saveAsDialogTitle = "Save Drawing As"
        case drawingsFilter = "Drawings"
        case jsonDrawingsFilter = "JSON drawings"
        case savedAs = "Saved as {1}"
        case saveAsFailed = "Save As failed: {1}"
        case noFileDialog = "No file dialog: {1}"
        case inspectorHeading = "Gesture inspector (F1 hides)"
        case drawingName = "Drawing, {1}"
        case drawingNameWithCircles = "Drawing, {1}, {2}"
        case drawingDescription =
            "Drag with a finger or the mouse to draw a line; tap a line to select it; double-tap to clear; hold a line and drag to move it. Keys: the arrows move the cursor; Space starts and ends a line, Shift+Space a circle; Escape cancels; Tab and Shift+Tab select a shape, the arrows move it, Delete deletes it, the Menu key opens its menu; Ctrl+Z undoes, Ctrl+Y redoes; Ctrl+Shift+Delete clears the drawing; Ctrl+C copies, Ctrl+V pastes; Ctrl+S saves a PNG picture beside the drawing; C: colours; F2: settings."
        case lineName = "Line from {1}, {2} to {3}, {4}"
        case circleName = "Circle at {1}, {2}, radius {3}"
        case ovalName = "Oval at {1}, {2}, {3} by {4}"
        case coloredShapeName = "{1}, {2}"
        case shapeMenuName = "Shape"
        case settingsMenuName = "Settings"
        case selectAction = "Select"
        case clickAction = "Click"
        case selectActionDescription = "Select the shape"
        case deleteActionDescription = "Delete the shape"
        case clickActionDescription = "Choose the item"
        case keyboardCursorAt = "Cursor at {1}, {2}"
        case keyboardLineTo = "Drawing a line to {1}, {2}"
        case keyboardCircleAt = "Drawing a circle at {1}, {2}, radius {3}"
        case keyboardOvalAt = "Drawing an oval at {1}, {2}, {3} by {4}"
        case gestureHint =
            "Drag with a finger or the mouse to draw\nTap a line to select it · Double-tap to clear\nHold a line and drag to move it · F1: gesture inspector\nArrows and Space draw from the keyboard · F2: settings"
        case inspectorTouches = "touches: {1}"
        case copiedSelection = "Copied the selected shape"
        case copiedDrawing = "Copied the drawing"
        case nothingToCopy = "Nothing to copy: the drawing is empty"
        case nothingToPaste = "Nothing to paste: the clipboard holds no TouchTracker shapes"
        case cannotPaste = "Cannot paste: the clipboard's drawing is not readable"
        case fullOfLines = "The drawing is full: at most {1} lines"
        case fullOfCircles = "The drawing is full: at most {1} circles"
        case pasteTooManyLines = "Not pasted: the drawing would hold more than {1} lines"
        case pasteTooManyCircles = "Not pasted: the drawing would hold more than {1} circles"
        case keyHelpPointer = "Draw with the arrows and Space; press H for the keys."
        case keyHelpName = "Keys"
        case lineCancelled = "Line cancelled"
        case circleCancelled = "Circle cancelled"
        case undoneRestored = "Undone: {1} restored"
        case undoneRemoved = "Undone: {1} removed"
        case undoneChanged = "Undone: {1}"
        case undoneMany = "Undone: several shapes changed"
        case redoneRestored = "Redone: {1} restored"
        case redoneRemoved = "Redone: {1} removed"
        case redoneChanged = "Redone: {1}"
        case redoneMany = "Redone: several shapes changed"
        case zoom = "Zoom: {1} %"
    }

    init(_ template: Template, _ arguments: Argument...) {
        self.template = template.rawValue
        self.arguments = arguments
        self.plural = nil
    }

    /// A text that counts: `count` chooses its form in the user's language (its first argument is the count).
    init(_ forms: PluralTemplate, count: Int) {
        self.template = forms.one
        self.arguments = [.literal("\(count)")]
        self.plural = Plural(template: forms.many, count: count)
    }

    /// The texts that count something, by their English forms (msgid and msgid_plural in the catalogs).
    enum PluralTemplate: CaseIterable {
        case lines, circles, pasted

        var one: String {
            switch self {
            case .lines: "{1} line"
            case .circles: "{1} circle"
            case .pasted: "Pasted {1} shape"
            }
        }

        var many: String {
            switch self {
            case .lines: "{1} lines"
            case .circles: "{1} circles"
            case .pasted: "Pasted {1} shapes"
            }
        }
    }

    public static func optionSwitched(_ option: DrawingOption, on: Bool) -> Message {
        Message(on ? .optionOn : .optionOff, .message(Message(option.title)))
    }

    public static func colourChosen(_ item: MenuItem) -> Message {
        Message(.colourChosen, .message(Message(item.title)))
    }

    public static func exported(_ file: String) -> Message { Message(.exported, .literal(file)) }

    public static func cannotExport(_ file: String) -> Message { Message(.cannotExport, .literal(file)) }

    public static func reloaded(_ document: String) -> Message { Message(.reloaded, .literal(document)) }

    public static func unreadableOnDisk(_ document: String) -> Message {
        Message(.unreadableOnDisk, .literal(document))
    }

    public static func notSaved(reason: String) -> Message { Message(.notSaved, .literal(reason)) }

    public static func unsavedCopyKept(in path: String) -> Message { Message(.unsavedCopyKept, .literal(path)) }

    public static let inspectorHeading = Message(.inspectorHeading)

    /// The drawing as assistive technology names it: "Drawing, 12 lines, 1 circle".
    public static func drawing(lines: Int, circles: Int) -> Message {
        let lines = Message(.lines, count: lines)
        guard circles > 0 else { return Message(.drawingName, .message(lines)) }
        return Message(.drawingNameWithCircles, .message(lines), .message(Message(.circles, count: circles)))
    }

    /// What the drawing's gestures and keys do, for a screen reader (the drawing's description).
    public static let drawingDescription = Message(.drawingDescription)

    /// A shape's name with its colour's: "Line from 10, 20 to 300, 40, Green".
    public static func colored(_ name: Message, _ colour: Message) -> Message {
        Message(.coloredShapeName, .message(name), .message(colour))
    }

    /// The popup menus as assistive technology names them: the selected shape's, the settings, the colours.
    public static let shapeMenuName = Message(.shapeMenuName)
    public static let settingsMenuName = Message(.settingsMenuName)

    /// The actions a screen reader offers, by their names and what they do.
    public static let selectAction = Message(.selectAction)
    public static let clickAction = Message(.clickAction)
    public static let selectActionDescription = Message(.selectActionDescription)
    public static let deleteActionDescription = Message(.deleteActionDescription)
    public static let clickActionDescription = Message(.clickActionDescription)

    /// A line as assistive technology names it (window pixels, rounded).
    public static func lineName(from begin: Point, to end: Point) -> Message {
        Message(
            .lineName, .literal(rounded(begin.x)), .literal(rounded(begin.y)), .literal(rounded(end.x)),
            .literal(rounded(end.y)))
    }

    /// Where the keyboard cursor is, for a screen reader: "Cursor at 200, 150".
    public static func keyboardCursor(at point: Point) -> Message {
        Message(.keyboardCursorAt, .literal(rounded(point.x)), .literal(rounded(point.y)))
    }

    /// Where the line the keyboard draws ends now, for a screen reader.
    public static func keyboardLine(to point: Point) -> Message {
        Message(.keyboardLineTo, .literal(rounded(point.x)), .literal(rounded(point.y)))
    }

    /// Where the circle the keyboard draws is now, and how big, for a screen reader.
    public static func keyboardCircle(_ circle: Circle) -> Message {
        named(circle, circle: .keyboardCircleAt, oval: .keyboardOvalAt)
    }

    /// A circle as assistive technology names it: "Circle at 100, 100, radius 50", or, when its box is not square
    /// (to the pixel), "Oval at 100, 100, 120 by 60" (its width and height).
    public static func circleName(_ circle: Circle) -> Message {
        named(circle, circle: .circleName, oval: .ovalName)
    }

    private static func named(_ circle: Circle, circle round: Template, oval: Template) -> Message {
        let (x, y) = (rounded(circle.center.x), rounded(circle.center.y))
        let (width, height) = (rounded(circle.frame.width), rounded(circle.frame.height))
        guard width == height else { return Message(oval, .literal(x), .literal(y), .literal(width), .literal(height)) }
        return Message(round, .literal(x), .literal(y), .literal(rounded(circle.frame.width / 2)))
    }

    private static func rounded(_ value: Double) -> String { "\(Int(value.rounded()))" }

    /// The drawing's accessible description: one short sentence pointing to the key help.
    public static let keyHelpPointer = Message(.keyHelpPointer)
    /// The key help panel's name (its text is `drawingDescription`, the gestures and every key).
    public static let keyHelpName = Message(.keyHelpName)

    /// The keyboard's stroke was cancelled (Escape), for a screen reader.
    public static func strokeCancelled(_ stroke: KeyboardCursor.Stroke) -> Message {
        Message(stroke == .line ? .lineCancelled : .circleCancelled)
    }

    /// What an undo (or a redo) changed, for a screen reader: the shape it brought back or took away, or the one
    /// it moved (named where it is now); several shapes at once are said as such.
    public static func undoOutcome(
        redo: Bool, restored: [Message], removed: [Message], changed: [Message]
    ) -> Message? {
        switch (restored.count, removed.count, changed.count) {
        case (0, 0, 0): return nil
        case (1, 0, 0): return Message(redo ? .redoneRestored : .undoneRestored, .message(restored[0]))
        case (0, 1, 0): return Message(redo ? .redoneRemoved : .undoneRemoved, .message(removed[0]))
        case (0, 0, 1): return Message(redo ? .redoneChanged : .undoneChanged, .message(changed[0]))
        default: return Message(redo ? .redoneMany : .undoneMany)
        }
    }

    /// The hint an empty window shows until the first stroke: the gestures, one line each.
    public static let gestureHint = Message(.gestureHint)

    public static func inspectorTouches(_ count: Int) -> Message { Message(.inspectorTouches, .literal("\(count)")) }

    /// The view's zoom changed: shown for a moment, as a whole percentage.
    public static func zoom(percent: Int) -> Message { Message(.zoom, .literal("\(percent)")) }

    public static let copiedSelection = Message(.copiedSelection)
    public static let copiedDrawing = Message(.copiedDrawing)
    public static let nothingToCopy = Message(.nothingToCopy)
    public static let nothingToPaste = Message(.nothingToPaste)
    public static let cannotPaste = Message(.cannotPaste)

    public static func pasted(count: Int) -> Message {
        Message(.pasted, count: count)
    }

    /// A stroke was dropped: the drawing holds `limit` shapes of `kind`, as many as a document may.
    public static func drawingFull(_ kind: Shape.Kind, limit: Int) -> Message {
        Message(kind == .line ? .fullOfLines : .fullOfCircles, .literal(groupedDigits(limit)))
    }

    /// A paste was refused: with it the drawing would hold more than `limit` shapes of `kind`.
    public static func pasteTooLarge(_ kind: Shape.Kind, limit: Int) -> Message {
        Message(kind == .line ? .pasteTooManyLines : .pasteTooManyCircles, .literal(groupedDigits(limit)))
    }

    /// `number` with its digits in groups of three, as the notices write large numbers: 1,000,000.
    static func groupedDigits(_ number: Int) -> String {
        var digits = Array(String(number.magnitude))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return (number < 0 ? "-" : "") + String(digits)
    }

    /// The templates of the messages above and every menu item's title.
    public static let templates: [String] =
        (MenuItem.selectionMenu + MenuItem.settingsMenu + MenuItem.colorMenu).map(\.title)
        + Template.allCases.map(\.rawValue)

    /// The texts that count something, by their English singular and plural forms (msgid, msgid_plural).
    public static let pluralTemplates: [(one: String, many: String)] = PluralTemplate.allCases.map { ($0.one, $0.many) }
}
