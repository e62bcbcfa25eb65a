import TouchKit

/// What the gesture inspector (F1) shows: every live touch and every recognizer's state, so anyone can see why a
/// gesture was or was not recognized.
public struct InspectorSnapshot: Hashable, Sendable {
    /// One finger (or the mouse button) on the screen.
    public struct TouchMark: Hashable, Sendable {
        /// `Touch.identifier`: unique per contact.
        public var id: UInt64
        /// Window coordinates.
        public var location: Point
        public var phase: String
        /// What made it: "finger", "pointer", "pen" or "eraser".
        public var type: String = "finger"
        /// A finger taken for the palm while a stylus is near (`PalmRejection`): no gesture or view sees it, and
        /// `id` is the platform's.
        public var isRejected = false
    }

    /// One gesture recognizer.
    public struct RecognizerRow: Hashable, Sendable {
        public var name: String
        /// The state now (possible, began, changed, ended, cancelled, failed).
        public var state: String
        /// The last outcome seen since the inspector opened, if any: recognizers return to possible as soon as
        /// their touches lift, so this keeps what they decided.
        public var lastOutcome: String?
    }

    public var touches: [TouchMark]
    public var recognizers: [RecognizerRow]
    /// The keyboard cursor, once shown: where it is and whether it draws a line.
    public var keyboard: KeyboardMark?

    /// The keyboard cursor in the inspector, marked like a touch.
    public struct KeyboardMark: Hashable, Sendable {
        public var location: Point
        public var isDrawing: Bool
    }

    /// One line of text per recognizer, as the inspector panel shows it.
    public var recognizerLines: [String] {
        recognizers.map { row in
            "\(row.name): \(row.state)" + (row.lastOutcome.map { " (last: \($0))" } ?? "")
        }
    }
}

/// Everything drawn above the drawing and the popup menu: the gesture inspector, a short notice, and the hint an
/// empty window shows a newcomer. (Never part of an export: exports draw the shapes alone.)
public struct Overlay: Hashable, Sendable {
    public var inspector: InspectorSnapshot?
    /// A short confirmation such as "Exported drawing.png".
    public var notice: Message?
    /// The gestures in a few lines, in the middle of an empty window until the first stroke.
    public var hint: Message?
    /// Whether the hint is drawn on a panel of its own, readable over the drawing (the key help, H).
    public var hintOnPanel = false
    /// Where the keyboard cursor is, once a key has moved it (a small crosshair).
    public var keyboardCursor: Point?
    /// Where a hovering stylus would land, and what a pressed eraser takes (rings).
    public var stylusRings: [StylusRing]

    public init(
        inspector: InspectorSnapshot? = nil, notice: Message? = nil, hint: Message? = nil,
        keyboardCursor: Point? = nil, stylusRings: [StylusRing] = []
    ) {
        self.inspector = inspector
        self.notice = notice
        self.hint = hint
        self.keyboardCursor = keyboardCursor
        self.stylusRings = stylusRings
    }

    public var isEmpty: Bool {
        inspector == nil && notice == nil && hint == nil && keyboardCursor == nil && stylusRings.isEmpty
    }
}

/// A ring under a stylus (DESIGN.md §2.20): a small one where a hovering pen would land, one as wide as the hit
/// radius where an eraser would erase (hovering) or erases (pressed).
public struct StylusRing: Hashable, Sendable {
    public var center: Point
    /// In window pixels.
    public var radius: Double
    public var tool: TouchType

    public init(center: Point, radius: Double, tool: TouchType) {
        self.center = center
        self.radius = radius
        self.tool = tool
    }

    /// The pixels the ring covers (its stroke included).
    public var frame: Rect {
        let reach = radius + 3
        return Rect(x: center.x - reach, y: center.y - reach, width: 2 * reach, height: 2 * reach)
    }
}
