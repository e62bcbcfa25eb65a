import TouchKit

/// The popup menu's model: where it is, its items, and which one is highlighted. Its geometry is fixed here (not
/// measured from fonts) so the window and replay agree on where every item is.
public struct PopupMenu: Hashable, Sendable {
    /// The point the menu was opened at (the tap point), as the state snapshot reports it.
    public var anchor: Point
    public var items: [MenuItem]
    public var highlightedIndex: Int?
    /// Items shown with a check mark (options that are on, the colour in use).
    public var checkedItems: [MenuItem] = []
    /// Which opening of a menu this is (the controller counts them; kept when the same menu is laid out again): a
    /// screen reader's objects for its items are new at each opening, so nothing it cached of another menu's items
    /// (a name, a tick) is taken for these.
    public var opening = 0
    /// The menu's rectangle, kept inside the window.
    public private(set) var frame: Rect

    /// Metrics in drawing units (DESIGN.md §2a: a unit is a pixel at 100 %; the renderer scales them to the screen).
    public static let itemHeight = 36.0
    public static let minimumWidth = 120.0
    public static let widthPerCharacter = 10.0
    public static let padding = 4.0

    public var itemHeight: Double { Self.itemHeight }
    public var padding: Double { Self.padding }

    /// A menu of `items` at `anchor`, kept inside `bounds`. Its width fits the longest title as `translate` puts it
    /// (the user's language; English by default).
    public init(
        anchor: Point, items: [MenuItem], checkedItems: [MenuItem] = [], within bounds: Rect,
        translate: Translate = untranslated
    ) {
        self.anchor = anchor
        self.items = items
        self.checkedItems = checkedItems.filter { items.contains($0) }
        let longest = items.map { Self.columns(translate($0.title)) }.max() ?? 0
        let width = Swift.max(Self.minimumWidth, Double(longest) * Self.widthPerCharacter + 40)
        let height = Double(items.count) * Self.itemHeight + 2 * Self.padding
        // Open below-right of the point, flipping or clamping so the whole menu stays visible.
        var x = anchor.x
        var y = anchor.y
        if x + width > bounds.maxX { x = anchor.x - width }
        if y + height > bounds.maxY { y = anchor.y - height }
        x = Swift.max(bounds.minX, Swift.min(x, bounds.maxX - width))
        y = Swift.max(bounds.minY, Swift.min(y, bounds.maxY - height))
        frame = Rect(x: x, y: y, width: width, height: height)
    }

    /// How many character cells `text` takes, as a terminal counts them: two for the wide characters of East Asian
    /// scripts (a 16 px Han or kana glyph is as wide as two Latin letters), one for the rest.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { count, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
                0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                count + 2
            default: count + 1
            }
        }
    }

    /// The rectangle of item `index`.
    public func itemFrame(_ index: Int) -> Rect {
        Rect(
            x: frame.minX, y: frame.minY + padding + Double(index) * itemHeight, width: frame.width,
            height: itemHeight)
    }

    /// The item under `point`, if any.
    public func item(at point: Point) -> Int? {
        guard frame.contains(point) else { return nil }
        return items.indices.first { itemFrame($0).contains(point) }
    }

    /// The area to repaint when the menu appears, changes or goes (its shadow included).
    public var damageFrame: Rect { frame.insetBy(dx: -8, dy: -8) }

    /// Moves the highlight by `step` items, wrapping around; from no highlight, down starts at the top.
    public mutating func moveHighlight(by step: Int) {
        guard !items.isEmpty else { return }
        if let current = highlightedIndex {
            highlightedIndex = ((current + step) % items.count + items.count) % items.count
        } else {
            highlightedIndex = step >= 0 ? 0 : items.count - 1
        }
    }
}
