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

    public init(_ template: String, _ arguments: Argument...) {
        self.template = template
        self.arguments = arguments
    }

    /// The text with `translate` applied to the template and to every argument that is a message, and the
    /// arguments put in place of their placeholders.
    public func localized(_ translate: (String) -> String) -> String {
        var text = translate(template)
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
    public var description: String { localized { $0 } }
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
        case inspectorHeading = "Gesture inspector (F1 hides)"
        case drawingName = "Drawing"
        case oneLine = "1 line"
        case manyLines = "{1} lines"
        case oneCircle = "1 circle"
        case manyCircles = "{1} circles"
        case lineName = "Line from {1}, {2} to {3}, {4}"
        case circleName = "Circle at {1}, {2}, radius {3}"
        case keyboardCursorAt = "Cursor at {1}, {2}"
        case keyboardHint =
            "Keys: the arrows move the cursor · Space starts and ends a line, Shift+Space a circle · Tab selects a shape · F2: settings"
        case keyboardLineTo = "Drawing a line to {1}, {2}"
        case keyboardCircleAt = "Drawing a circle at {1}, {2}, radius {3}"
        case gestureHint =
            "Drag with a finger or the mouse to draw\nTap a line to select it · Double-tap to clear\nHold a line and drag to move it · F1: gesture inspector\nArrows and Space draw from the keyboard · F2: settings"
        case inspectorTouches = "touches: {1}"
        case copiedSelection = "Copied the selected shape"
        case copiedDrawing = "Copied the drawing"
        case nothingToCopy = "Nothing to copy: the drawing is empty"
        case pastedOne = "Pasted 1 shape"
        case pastedMany = "Pasted {1} shapes"
        case nothingToPaste = "Nothing to paste: the clipboard holds no TouchTracker shapes"
        case cannotPaste = "Cannot paste: the clipboard's drawing is not readable"
        case fullOfLines = "The drawing is full: at most {1} lines"
        case fullOfCircles = "The drawing is full: at most {1} circles"
        case pasteTooManyLines = "Not pasted: the drawing would hold more than {1} lines"
        case pasteTooManyCircles = "Not pasted: the drawing would hold more than {1} circles"
    }

    init(_ template: Template, _ arguments: Argument...) {
        self.template = template.rawValue
        self.arguments = arguments
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
    public static func drawing(lines: Int, circles: Int) -> [Message] {
        var parts = [Message(.drawingName)]
        parts.append(lines == 1 ? Message(.oneLine) : Message(.manyLines, .literal("\(lines)")))
        if circles > 0 {
            parts.append(circles == 1 ? Message(.oneCircle) : Message(.manyCircles, .literal("\(circles)")))
        }
        return parts
    }

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
        Message(
            .keyboardCircleAt, .literal(rounded(circle.center.x)), .literal(rounded(circle.center.y)),
            .literal(rounded(meanRadius(of: circle))))
    }

    /// A circle as assistive technology names it (an oval by its mean radius).
    public static func circleName(_ circle: Circle) -> Message {
        Message(
            .circleName, .literal(rounded(circle.center.x)), .literal(rounded(circle.center.y)),
            .literal(rounded(meanRadius(of: circle))))
    }

    private static func meanRadius(of circle: Circle) -> Double { (circle.frame.width + circle.frame.height) / 4 }

    private static func rounded(_ value: Double) -> String { "\(Int(value.rounded()))" }

    /// The hint an empty window shows until the first stroke: the gestures, one line each.
    public static let gestureHint = Message(.gestureHint)
    /// What the keys do, for a screen reader (the drawing's description, after the gestures).
    public static let keyboardHint = Message(.keyboardHint)

    public static func inspectorTouches(_ count: Int) -> Message { Message(.inspectorTouches, .literal("\(count)")) }

    public static let copiedSelection = Message(.copiedSelection)
    public static let copiedDrawing = Message(.copiedDrawing)
    public static let nothingToCopy = Message(.nothingToCopy)
    public static let nothingToPaste = Message(.nothingToPaste)
    public static let cannotPaste = Message(.cannotPaste)

    public static func pasted(count: Int) -> Message {
        count == 1 ? Message(.pastedOne) : Message(.pastedMany, .literal("\(count)"))
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
}
