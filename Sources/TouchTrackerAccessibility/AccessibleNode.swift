import TouchKit
import TouchTracker

/// One object of the accessible tree: the application, its window, the drawing, or one of the drawing's shapes.
/// Shapes are named by their IDs, so a node stays the same shape while others come and go; the tree is answered
/// from an `AccessibleScene`, and a shape's node is made only when something asks for it.
enum AccessibleNode: Hashable {
    case application
    case window
    case drawing
    case shape(ShapeID)
    /// The open popup or settings menu, a child of the window after the drawing.
    case menu
    /// The open menu's item at this index, in the menu's `opening`.
    case menuItem(Int, opening: Int)
    /// What the app last said to a screen reader (a notice, where the keyboard cursor rests, a finished shape): a
    /// notification, the application's second child, whose showing state turns on each time it says something new
    /// (what Orca 43 speaks; it does not listen to `object:announcement`).
    case notice
    /// The key help panel while the window shows it (H): named "Keys", the gestures and every key its description,
    /// a child of the window after the drawing and the menu. It has the focus while shown.
    case keyHelp

    /// The node's name under `AtspiProtocol.basePath`.
    var pathName: String {
        switch self {
        case .application: "root"
        case .window: "window"
        case .drawing: "drawing"
        case .shape(let id): "s\(id.rawValue)"
        case .menu: "menu"
        case .menuItem(let index, let opening): "m\(opening)_\(index)"
        case .notice: "notice"
        case .keyHelp: "keys"
        }
    }

    init?(pathName: String) {
        switch pathName {
        case "root": self = .application
        case "window": self = .window
        case "drawing": self = .drawing
        case "menu": self = .menu
        case "notice": self = .notice
        case "keys": self = .keyHelp
        default:
            if pathName.hasPrefix("m") {
                let numbers = pathName.dropFirst().split(separator: "_", omittingEmptySubsequences: false)
                guard numbers.count == 2, let opening = Int(numbers[0]), let index = Int(numbers[1]) else {
                    return nil
                }
                self = .menuItem(index, opening: opening)
                return
            }
            guard pathName.hasPrefix("s"), let raw = UInt64(pathName.dropFirst()) else { return nil }
            self = .shape(ShapeID(raw))
        }
    }

    var path: String { AtspiProtocol.basePath + "/" + pathName }

    var parent: AccessibleNode? {
        switch self {
        case .application: nil
        case .window, .notice: .application
        case .drawing, .menu, .keyHelp: .window
        case .shape: .drawing
        case .menuItem: .menu
        }
    }

    var role: AtspiProtocol.Role {
        switch self {
        case .application: .application
        case .window: .frame
        case .drawing: .canvas
        case .shape: .image
        case .menu: .menu
        case .menuItem: .menuItem
        case .notice: .notification
        case .keyHelp: .panel
        }
    }

    var roleName: String {
        switch self {
        case .application: "application"
        case .window: "frame"
        case .drawing: "canvas"
        case .shape: "image"
        case .menu: "menu"
        case .menuItem: "menu item"
        case .notice: "notification"
        case .keyHelp: "panel"
        }
    }

    /// The D-Bus interfaces the node answers.
    var interfaces: [String] {
        switch self {
        case .application: [AtspiProtocol.accessible, AtspiProtocol.application]
        case .window, .notice, .keyHelp: [AtspiProtocol.accessible, AtspiProtocol.component]
        case .drawing: [AtspiProtocol.accessible, AtspiProtocol.component, AtspiProtocol.selection]
        case .shape, .menuItem: [AtspiProtocol.accessible, AtspiProtocol.component, AtspiProtocol.action]
        case .menu: [AtspiProtocol.accessible, AtspiProtocol.component, AtspiProtocol.selection]
        }
    }

    /// The child a Selection node has selected: the drawing's selected shape, the menu's highlighted item.
    func selectedChild(in scene: AccessibleScene) -> AccessibleNode? {
        switch self {
        case .drawing: scene.selection.map(AccessibleNode.shape)
        case .menu: scene.menu?.highlightedIndex.flatMap(scene.menuItemNode)
        case .application, .window, .shape, .menuItem, .notice, .keyHelp: nil
        }
    }

    /// What the node's actions are called (a shape's: select, delete).
    static let shapeActions = ["select", "delete"]

    /// What a reader says of the node's action at `index`, in the user's language: its name and what it does (nil:
    /// no such action).
    func actionWords(_ index: Int) -> (title: Message, description: Message)? {
        guard actions.indices.contains(index) else { return nil }
        switch self {
        case .shape:
            return index == 0
                ? (Message.selectAction, Message.selectActionDescription)
                : (Message(MenuItem.delete.title), Message.deleteActionDescription)
        case .menuItem: return (Message.clickAction, Message.clickActionDescription)
        case .application, .window, .drawing, .menu, .notice, .keyHelp: return nil
        }
    }

    /// What a menu item's one action is called.
    static let menuItemActions = ["click"]

    /// The node's actions.
    var actions: [String] {
        switch self {
        case .shape: Self.shapeActions
        case .menuItem: Self.menuItemActions
        default: []
        }
    }

    /// Whether the node still exists in `scene` (a shape deleted, or a menu closed, since a client learned of it
    /// does not).
    func exists(in scene: AccessibleScene) -> Bool {
        switch self {
        case .shape(let id): scene.shapes[id] != nil
        case .menu: scene.menu != nil
        case .menuItem(let index, let opening):
            scene.menu.map { $0.opening == opening && $0.items.indices.contains(index) } ?? false
        case .keyHelp: scene.keyHelp != nil
        default: true
        }
    }

    func name(in scene: AccessibleScene) -> String {
        switch self {
        case .application: "TouchTracker"
        case .window: scene.windowTitle
        case .drawing: scene.drawingName
        case .shape(let id): scene.shapes[id].map(scene.name(of:)) ?? ""
        case .menu: scene.menuName
        case .menuItem(let index, _):
            scene.menu.flatMap { $0.items.indices.contains(index) ? scene.translate($0.items[index].title) : nil }
                ?? ""
        case .notice: scene.notice
        case .keyHelp: Message.keyHelpName.localized(scene.translate)
        }
    }

    func childCount(in scene: AccessibleScene) -> Int {
        switch self {
        case .application: 2
        case .window: 1 + (scene.menu == nil ? 0 : 1) + (scene.keyHelp == nil ? 0 : 1)
        case .drawing: scene.shapes.count
        case .menu: scene.menu?.items.count ?? 0
        case .shape, .menuItem, .notice, .keyHelp: 0
        }
    }

    func child(at index: Int, in scene: AccessibleScene) -> AccessibleNode? {
        switch self {
        case .application: index == 0 ? .window : (index == 1 ? .notice : nil)
        case .window:
            index < 0
                ? nil
                : ([AccessibleNode.drawing] + (scene.menu == nil ? [] : [.menu])
                    + (scene.keyHelp == nil ? [] : [.keyHelp])).dropFirst(index).first
        case .drawing: scene.shape(at: index).map { .shape($0.id) }
        case .menu: scene.menuItemNode(index)
        case .shape, .menuItem, .notice, .keyHelp: nil
        }
    }

    func indexInParent(in scene: AccessibleScene) -> Int {
        switch self {
        case .application: -1
        case .window, .drawing: 0
        case .menu, .notice: 1
        case .keyHelp: scene.menu == nil ? 1 : 2
        case .menuItem(let index, _): index
        case .shape(let id): scene.shapes.orderPosition(of: id) ?? -1
        }
    }

    /// The states a client is told (AT-SPI sends them as two 32-bit words).
    func states(in scene: AccessibleScene, lineWidth: Double) -> [AtspiProtocol.State] {
        var states: [AtspiProtocol.State] = [.enabled, .sensitive, .visible]
        switch self {
        case .application, .window, .drawing, .menu, .menuItem, .notice, .keyHelp: states.append(.showing)
        case .shape(let id):
            // Showing only where the window shows it: a shape moved beyond the window's edge, or left there as the
            // window shrank, is not on the screen.
            let window = scene.visibleDrawing
            if let shape = scene.shapes[id], shape.strokeBounds(defaultWidth: lineWidth).intersects(window) {
                states.append(.showing)
            }
        }
        switch self {
        case .application: break
        case .window: if scene.isActive { states.append(.active) }
        case .drawing: states.append(.focusable)
        case .shape(let id):
            // It takes the focus when selected (Tab, a tap), so it says it can.
            states += [.selectable, .focusable]
            if scene.selection == id { states.append(.selected) }
        case .menu, .notice: break
        case .keyHelp: states.append(.focusable)
        case .menuItem(let index, _):
            states += [.selectable, .focusable]
            if scene.menu?.highlightedIndex == index { states.append(.selected) }
            // A switch or a colour says whether it is on, as its tick shows it.
            if let menu = scene.menu, menu.items.indices.contains(index) {
                let item = menu.items[index]
                switch item {
                case .toggle, .color: states.append(.checkable)
                case .delete, .colors, .keys, .document: break
                }
                if menu.checkedItems.contains(item) { states.append(.checked) }
            }
        }
        // One node has the focus: the highlighted menu item, else the selected shape, else the drawing.
        if scene.isActive, scene.focusedNode == self { states.append(.focused) }
        return states
    }

    /// The node's extents in screen pixels.
    func screenExtents(in scene: AccessibleScene, lineWidth: Double) -> Rect {
        switch self {
        case .application, .window, .drawing, .notice, .keyHelp:
            Rect(origin: scene.windowOrigin, size: scene.windowSize)
        case .shape(let id):
            scene.shapes[id].map { scene.screenExtents(of: $0, lineWidth: lineWidth) } ?? .null
        case .menu:
            scene.menu.map { scene.onScreen($0.frame) } ?? .null
        case .menuItem(let index, _):
            scene.menu.map { scene.onScreen($0.itemFrame(index)) } ?? .null
        }
    }
}
