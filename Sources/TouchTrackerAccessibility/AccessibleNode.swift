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

    /// The node's name under `AtspiProtocol.basePath`.
    var pathName: String {
        switch self {
        case .application: "root"
        case .window: "window"
        case .drawing: "drawing"
        case .shape(let id): "s\(id.rawValue)"
        }
    }

    init?(pathName: String) {
        switch pathName {
        case "root": self = .application
        case "window": self = .window
        case "drawing": self = .drawing
        default:
            guard pathName.hasPrefix("s"), let raw = UInt64(pathName.dropFirst()) else { return nil }
            self = .shape(ShapeID(raw))
        }
    }

    var path: String { AtspiProtocol.basePath + "/" + pathName }

    var parent: AccessibleNode? {
        switch self {
        case .application: nil
        case .window: .application
        case .drawing: .window
        case .shape: .drawing
        }
    }

    var role: AtspiProtocol.Role {
        switch self {
        case .application: .application
        case .window: .frame
        case .drawing: .canvas
        case .shape: .image
        }
    }

    var roleName: String {
        switch self {
        case .application: "application"
        case .window: "frame"
        case .drawing: "canvas"
        case .shape: "image"
        }
    }

    /// The D-Bus interfaces the node answers.
    var interfaces: [String] {
        switch self {
        case .application: [AtspiProtocol.accessible, AtspiProtocol.application]
        case .window: [AtspiProtocol.accessible, AtspiProtocol.component]
        case .drawing: [AtspiProtocol.accessible, AtspiProtocol.component, AtspiProtocol.selection]
        case .shape: [AtspiProtocol.accessible, AtspiProtocol.component, AtspiProtocol.action]
        }
    }

    /// What the node's actions are called (a shape's: select, delete).
    static let shapeActions = ["select", "delete"]

    /// Whether the node still exists in `scene` (a shape deleted since a client learned of it does not).
    func exists(in scene: AccessibleScene) -> Bool {
        if case .shape(let id) = self { return scene.shapes[id] != nil }
        return true
    }

    func name(in scene: AccessibleScene) -> String {
        switch self {
        case .application: "TouchTracker"
        case .window: scene.windowTitle
        case .drawing: scene.drawingName
        case .shape(let id): scene.shapes[id].map(scene.name(of:)) ?? ""
        }
    }

    func childCount(in scene: AccessibleScene) -> Int {
        switch self {
        case .application, .window: 1
        case .drawing: scene.shapes.count
        case .shape: 0
        }
    }

    func child(at index: Int, in scene: AccessibleScene) -> AccessibleNode? {
        switch self {
        case .application: index == 0 ? .window : nil
        case .window: index == 0 ? .drawing : nil
        case .drawing: scene.shape(at: index).map { .shape($0.id) }
        case .shape: nil
        }
    }

    func indexInParent(in scene: AccessibleScene) -> Int {
        switch self {
        case .application: -1
        case .window, .drawing: 0
        case .shape(let id): scene.shapes.position(of: id) ?? -1
        }
    }

    /// The states a client is told (AT-SPI sends them as two 32-bit words).
    func states(in scene: AccessibleScene) -> [AtspiProtocol.State] {
        var states: [AtspiProtocol.State] = [.enabled, .sensitive, .showing, .visible]
        switch self {
        case .application: break
        case .window: states.append(.active)
        case .drawing: states += [.focusable, .focused]
        case .shape(let id):
            states.append(.selectable)
            if scene.selection == id { states += [.selected, .focused] }
        }
        return states
    }

    /// The node's extents in screen pixels.
    func screenExtents(in scene: AccessibleScene, lineWidth: Double) -> Rect {
        switch self {
        case .application, .window, .drawing:
            Rect(origin: scene.windowOrigin, size: scene.windowSize)
        case .shape(let id):
            scene.shapes[id].map { scene.screenExtents(of: $0, lineWidth: lineWidth) } ?? .null
        }
    }
}
