import TouchKit
import TouchTracker

/// What assistive technology is told about the window at one moment: the window and the drawing's shapes, taken
/// in constant time on the event loop (the shapes are a snapshot sharing the live storage) and read on the bridge's
/// own thread. Names are made from it only when something asks.
public struct AccessibleScene: Sendable {
    /// The window's title (the frame's name).
    public var windowTitle: String
    /// The window's top-left corner on the screen, and its size, in pixels.
    public var windowOrigin: Point
    public var windowSize: Size
    /// Screen pixels per drawing unit: the shapes and the menu are in drawing units (DESIGN.md §2a), and reach the
    /// screen multiplied by it.
    public var scale: Double
    /// Which part of the drawing the window shows, at what zoom: the shapes reach the window through it.
    public var viewport: Viewport
    /// Every shape, bottom to top (`ShapeCollection.order` is drawing order: the lines oldest first, then the
    /// circles).
    public var shapes: ShapeCollection
    public var selection: ShapeID?
    /// The popup or settings menu while one is open.
    public var menu: PopupMenu?
    /// Whether the window has the keyboard focus: only then is it active, and a node in it focused.
    public var isActive: Bool
    /// How many times the window became active (a new number: it was activated, and a reader is told).
    public var activation: Int
    /// How an English text is shown in the user's language.
    public var translate: Translate
    /// What the app last said to a screen reader (the notice node's name); kept by the bridge across scenes.
    var notice = ""
    /// The key help panel's text while the window shows it (H): the gestures and every key.
    public var keyHelp: String?

    public init(
        windowTitle: String, windowOrigin: Point, windowSize: Size, scale: Double = 1,
        viewport: Viewport = .actualSize, shapes: ShapeCollection,
        selection: ShapeID?, menu: PopupMenu? = nil, isActive: Bool = true, activation: Int = 0, translate: Translate,
        keyHelp: String? = nil
    ) {
        self.keyHelp = keyHelp
        self.scale = scale
        self.viewport = viewport
        self.menu = menu
        self.isActive = isActive
        self.activation = activation
        self.windowTitle = windowTitle
        self.windowOrigin = windowOrigin
        self.windowSize = windowSize
        self.shapes = shapes
        self.selection = selection
        self.translate = translate
    }

    /// The drawing's accessible description: one short sentence pointing to the key help (the full help is a
    /// panel one key away, never spoken unasked), in the user's language.
    public var drawingDescription: String { Message.keyHelpPointer.localized(translate) }

    /// The drawing's accessible name: "Drawing, 12 lines, 1 circle".
    public var drawingName: String {
        Message.drawing(lines: shapes.lineCount, circles: shapes.circleCount).localized(translate)
    }

    /// A shape's accessible name: "Line from 10, 20 to 300, 40", "Circle at 100, 100, radius 50", and its colour
    /// when it is not black.
    public func name(of shape: Shape) -> String {
        Self.name(of: shape).localized(translate)
    }

    /// A shape's accessible name, untranslated.
    public static func name(of shape: Shape) -> Message {
        let name: Message
        switch shape {
        case .line(let line): name = Message.lineName(from: line.begin, to: line.end)
        case .circle(let circle): name = Message.circleName(circle)
        }
        guard let color = shape.color, color != .black else { return name }
        let colour = Message(LineColor.palette.first { $0.color == color }?.name ?? color.hex)
        return Message.colored(name, colour)
    }

    /// The open menu's name: the selected shape's menu, the settings, or the colours.
    var menuName: String {
        guard let menu else { return "" }
        if menu.items.contains(.delete) { return Message.shapeMenuName.localized(translate) }
        if menu.items.contains(.colors) { return Message.settingsMenuName.localized(translate) }
        return translate(MenuItem.colors.title)
    }

    /// Where the keyboard's focus is, as a reader should hear it: the open menu's highlighted item, else the selected
    /// shape, else the drawing itself.
    var focusedNode: AccessibleNode {
        if let index = menu?.highlightedIndex, let item = menuItemNode(index) { return item }
        if keyHelp != nil { return .keyHelp }
        if let selection { return .shape(selection) }
        return .drawing
    }

    /// The open menu's item at `index`, nil when there is none.
    func menuItemNode(_ index: Int) -> AccessibleNode? {
        guard let menu, menu.items.indices.contains(index) else { return nil }
        return .menuItem(index, opening: menu.opening)
    }

    /// The shape at `index` in drawing order, with its ID.
    public func shape(at index: Int) -> (id: ShapeID, shape: Shape)? {
        guard shapes.order.indices.contains(index), let shape = shapes[shapes.order[index]] else { return nil }
        return (shapes.order[index], shape)
    }

    /// A shape's extents in screen pixels (its stroke's bounds, through the view, offset by the window's place).
    public func screenExtents(of shape: Shape, lineWidth: Double) -> Rect {
        onScreen(viewport.windowRect(of: shape.strokeBounds(defaultWidth: lineWidth)))
    }

    /// The part of the drawing the window shows (drawing units).
    public var visibleDrawing: Rect { viewport.drawingRect(of: windowBounds) }

    /// `rect` of the window (window units), on the screen (pixels).
    public func onScreen(_ rect: Rect) -> Rect {
        let pixels = rect.scaled(by: scale)
        return Rect(
            x: pixels.minX + windowOrigin.x, y: pixels.minY + windowOrigin.y, width: pixels.width,
            height: pixels.height)
    }

    /// The window's rectangle in window units.
    public var windowBounds: Rect { Rect(origin: .zero, size: windowSize).scaled(by: 1 / scale) }

    /// The point of the window (window units) at `x`, `y` pixels from `origin` (the screen's, or the window's).
    public func windowPoint(x: Int, y: Int, from origin: Point) -> Point {
        Point(x: (Double(x) - origin.x) / scale, y: (Double(y) - origin.y) / scale)
    }
}
