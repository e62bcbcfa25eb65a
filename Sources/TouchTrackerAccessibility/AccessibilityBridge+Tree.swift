internal import CGio
import TouchKit
import TouchTracker

/// The bridge's tree: what it answers when a client asks about a node (its methods and properties, from the last
/// scene published), and the GDBus callbacks that dispatch the questions to it.
extension AccessibilityBridge {
    // MARK: Answers

    /// A reference to `node` (or the null reference).
    private func reference(_ node: AccessibleNode?, busName: String) -> OpaquePointer {
        GVariantValues.reference(busName: busName, path: node?.path ?? AtspiProtocol.nullPath)
    }

    /// The answer to a method call on `node`, as the tuple of its results; nil for a method not answered.
    fileprivate func answer(
        _ node: AccessibleNode, interface: String, method: String, parameters: OpaquePointer?
    ) -> OpaquePointer? {
        let scene = scene.withLock { $0 }
        let busName = state.withLock { $0.busName }
        guard node.exists(in: scene) else { return nil }
        func tuple(_ items: OpaquePointer...) -> OpaquePointer { GVariantValues.tuple(items) }
        func argument(_ index: Int) -> Int { Int(GVariantValues.integer(parameters, at: index) ?? -1) }
        switch (interface, method) {
        case (AtspiProtocol.accessible, "GetChildAtIndex"):
            return tuple(reference(node.child(at: argument(0), in: scene), busName: busName))
        case (AtspiProtocol.accessible, "GetChildren"):
            let children = (0..<node.childCount(in: scene)).compactMap { node.child(at: $0, in: scene) }
            return tuple(GVariantValues.array(of: "(so)", children.map { reference($0, busName: busName) }))
        case (AtspiProtocol.accessible, "GetIndexInParent"):
            return tuple(GVariantValues.int32(Int32(node.indexInParent(in: scene))))
        case (AtspiProtocol.accessible, "GetRelationSet"):
            return tuple(GVariantValues.array(of: "(ua(so))", []))
        case (AtspiProtocol.accessible, "GetRole"):
            return tuple(GVariantValues.uint32(node.role.rawValue))
        case (AtspiProtocol.accessible, "GetRoleName"), (AtspiProtocol.accessible, "GetLocalizedRoleName"):
            return tuple(GVariantValues.string(node.roleName))
        case (AtspiProtocol.accessible, "GetState"):
            var words: [UInt32] = [0, 0]
            for state in node.states(in: scene, lineWidth: lineWidth) {
                words[Int(state.rawValue / 32)] |= 1 << (state.rawValue % 32)
            }
            return tuple(GVariantValues.array(of: "u", words.map(GVariantValues.uint32)))
        case (AtspiProtocol.accessible, "GetAttributes"):
            return tuple(GVariantValues.array(of: "{ss}", []))
        case (AtspiProtocol.accessible, "GetApplication"):
            return tuple(reference(.application, busName: busName))
        case (AtspiProtocol.accessible, "GetInterfaces"):
            return tuple(GVariantValues.array(of: "s", node.interfaces.map(GVariantValues.string)))
        case (AtspiProtocol.component, "GetExtents"):
            let box = extents(of: node, in: scene, coordinates: UInt32(max(0, argument(0))))
            return tuple(
                GVariantValues.tuple([
                    GVariantValues.int32(box.x), GVariantValues.int32(box.y), GVariantValues.int32(box.width),
                    GVariantValues.int32(box.height),
                ]))
        case (AtspiProtocol.component, "GetPosition"):
            let box = extents(of: node, in: scene, coordinates: UInt32(max(0, argument(0))))
            return tuple(GVariantValues.int32(box.x), GVariantValues.int32(box.y))
        case (AtspiProtocol.component, "GetSize"):
            let box = extents(of: node, in: scene, coordinates: AtspiProtocol.screenCoordinates)
            return tuple(GVariantValues.int32(box.width), GVariantValues.int32(box.height))
        case (AtspiProtocol.component, "Contains"):
            let box = extents(of: node, in: scene, coordinates: UInt32(max(0, argument(2))))
            let (x, y) = (Int32(argument(0)), Int32(argument(1)))
            return tuple(
                GVariantValues.bool(x >= box.x && y >= box.y && x < box.x + box.width && y < box.y + box.height))
        case (AtspiProtocol.component, "GetAccessibleAtPoint"):
            let coordinates = UInt32(max(0, argument(2)))
            return tuple(
                reference(
                    accessible(at: argument(0), argument(1), coordinates: coordinates, of: node, in: scene),
                    busName: busName))
        case (AtspiProtocol.component, "GetLayer"):
            // ATSPI_LAYER_WIDGET (3) for the window's contents, ATSPI_LAYER_WINDOW (7) for the window.
            return tuple(GVariantValues.uint32(node == .window ? 7 : 3))
        case (AtspiProtocol.component, "GetMDIZOrder"):
            return tuple(GVariantValues.int16(0))
        case (AtspiProtocol.component, "GrabFocus"):
            if case .shape(let id) = node { onRequest(.select(id)) }
            return tuple(GVariantValues.bool(node != .window))
        case (AtspiProtocol.component, "GetAlpha"):
            return tuple(GVariantValues.double(1))
        case (AtspiProtocol.action, "GetName"):
            let index = argument(0)
            let names = node.actions
            return tuple(GVariantValues.string(names.indices.contains(index) ? names[index] : ""))
        case (AtspiProtocol.action, "GetLocalizedName"):
            return tuple(GVariantValues.string(node.actionWords(argument(0))?.title.localized(scene.translate) ?? ""))
        case (AtspiProtocol.action, "GetDescription"):
            return tuple(
                GVariantValues.string(node.actionWords(argument(0))?.description.localized(scene.translate) ?? ""))
        case (AtspiProtocol.action, "GetKeyBinding"):
            return tuple(GVariantValues.string(keyBinding(of: node, action: argument(0))))
        case (AtspiProtocol.action, "GetActions"):
            let actions = node.actions.indices.map { index in
                let words = node.actionWords(index)
                return GVariantValues.tuple([
                    GVariantValues.string(words?.title.localized(scene.translate) ?? ""),
                    GVariantValues.string(words?.description.localized(scene.translate) ?? ""),
                    GVariantValues.string(keyBinding(of: node, action: index)),
                ])
            }
            return tuple(GVariantValues.array(of: "(sss)", actions))
        case (AtspiProtocol.action, "DoAction"):
            guard node.actions.indices.contains(argument(0)) else { return tuple(GVariantValues.bool(false)) }
            switch node {
            case .shape(let id): onRequest(argument(0) == 0 ? .select(id) : .delete(id))
            case .menuItem(let index, _):
                guard let menu = scene.menu, menu.items.indices.contains(index) else {
                    return tuple(GVariantValues.bool(false))
                }
                onRequest(.activateMenuItem(menu.items[index], in: menu))
            default: return tuple(GVariantValues.bool(false))
            }
            return tuple(GVariantValues.bool(true))
        case (AtspiProtocol.selection, "GetSelectedChild"):
            let selected = argument(0) == 0 ? node.selectedChild(in: scene) : nil
            return tuple(reference(selected, busName: busName))
        case (AtspiProtocol.selection, "SelectChild"):
            switch node.child(at: argument(0), in: scene) {
            case .shape(let id)?:
                onRequest(.select(id))
            case .menuItem(let index, _)?:
                // A menu's selection is its highlight, as the keys and the pointer move it.
                guard let menu = scene.menu else { return tuple(GVariantValues.bool(false)) }
                onRequest(.highlightMenuItem(menu.items[index], in: menu))
            default:
                return tuple(GVariantValues.bool(false))
            }
            return tuple(GVariantValues.bool(true))
        case (AtspiProtocol.selection, "IsChildSelected"):
            let child = node.child(at: argument(0), in: scene)
            return tuple(GVariantValues.bool(child != nil && child == node.selectedChild(in: scene)))
        case (AtspiProtocol.selection, "DeselectSelectedChild"), (AtspiProtocol.selection, "ClearSelection"),
            (AtspiProtocol.selection, "DeselectChild"):
            // A menu's highlight follows the keys and the pointer; only the drawing's selection can be cleared.
            guard node == .drawing else { return tuple(GVariantValues.bool(false)) }
            onRequest(.deselect)
            return tuple(GVariantValues.bool(scene.selection != nil))
        case (AtspiProtocol.selection, "SelectAll"):
            // One shape at a time is selected in TouchTracker.
            return tuple(GVariantValues.bool(false))
        default:
            return nil
        }
    }

    /// A property of `node`; nil for one not answered.
    fileprivate func property(_ node: AccessibleNode, interface: String, name: String) -> OpaquePointer? {
        let scene = scene.withLock { $0 }
        let (busName, desktop, applicationID) = state.withLock { ($0.busName, $0.desktop, $0.applicationID) }
        switch (interface, name) {
        case (AtspiProtocol.accessible, "Name"): return GVariantValues.string(node.name(in: scene))
        case (AtspiProtocol.accessible, "Description") where node == .drawing:
            return GVariantValues.string(scene.drawingDescription)
        case (AtspiProtocol.accessible, "Description") where node == .keyHelp:
            return GVariantValues.string(scene.keyHelp ?? "")
        case (AtspiProtocol.accessible, "Description"), (AtspiProtocol.accessible, "HelpText"):
            return GVariantValues.string("")
        case (AtspiProtocol.accessible, "Parent"):
            if let parent = node.parent { return reference(parent, busName: busName) }
            return GVariantValues.reference(busName: desktop.busName, path: desktop.path)
        case (AtspiProtocol.accessible, "ChildCount"): return GVariantValues.int32(Int32(node.childCount(in: scene)))
        case (AtspiProtocol.accessible, "Locale"): return GVariantValues.string("")
        case (AtspiProtocol.accessible, "AccessibleId"): return GVariantValues.string(node.pathName)
        case (AtspiProtocol.application, "ToolkitName"): return GVariantValues.string("TouchKit")
        case (AtspiProtocol.application, "Version"): return GVariantValues.string("0.1.0")
        case (AtspiProtocol.application, "AtspiVersion"): return GVariantValues.string("2.1")
        case (AtspiProtocol.application, "Id"): return GVariantValues.int32(applicationID)
        case (AtspiProtocol.action, "NActions"):
            return GVariantValues.int32(Int32(node.actions.count))
        case (AtspiProtocol.selection, "NSelectedChildren"):
            return GVariantValues.int32(node.selectedChild(in: scene) == nil ? 0 : 1)
        default: return nil
        }
    }

    /// The key that does an action from the keyboard: Delete deletes the selected shape, Return activates a menu
    /// item. (No one key selects this shape: Tab walks to the next one.)
    private func keyBinding(of node: AccessibleNode, action: Int) -> String {
        switch node {
        case .shape: action == 1 ? "Delete" : ""
        case .menuItem: "Return"
        default: ""
        }
    }

    fileprivate func setApplicationID(_ id: Int32) {
        state.withLock { $0.applicationID = id }
    }

    /// `node`'s extents as whole pixels, on the screen or (any other coordinate type) in the window.
    private func extents(of node: AccessibleNode, in scene: AccessibleScene, coordinates: UInt32) -> (
        x: Int32, y: Int32, width: Int32, height: Int32
    ) {
        var rect = node.screenExtents(in: scene, lineWidth: lineWidth)
        if rect.isNull { return (0, 0, 0, 0) }
        if coordinates != AtspiProtocol.screenCoordinates {
            rect = Rect(
                x: rect.minX - scene.windowOrigin.x, y: rect.minY - scene.windowOrigin.y, width: rect.width,
                height: rect.height)
        }
        func clamped(_ value: Double) -> Int32 { Int32(max(-1e9, min(1e9, value.rounded()))) }
        return (clamped(rect.minX), clamped(rect.minY), clamped(rect.width), clamped(rect.height))
    }

    /// The topmost child of `node` at screen point (x, y), if any.
    /// The child of `node` at `(x, y)`: on the screen (`coordinates` 0) or in the window (1) or the parent (2;
    /// every parent here fills the window, so the same).
    private func accessible(
        at x: Int, _ y: Int, coordinates: UInt32, of node: AccessibleNode, in scene: AccessibleScene
    ) -> AccessibleNode? {
        let origin = coordinates == 0 ? scene.windowOrigin : Point(x: 0, y: 0)
        let point = scene.windowPoint(x: x, y: y, from: origin)
        switch node {
        case .application: return .window
        case .window:
            // The open menu lies over the drawing.
            if let menu = scene.menu, menu.items.indices.contains(where: { menu.itemFrame($0).contains(point) }) {
                return .menu
            }
            return .drawing
        case .drawing:
            let inDrawing = scene.viewport.drawingPoint(at: point)
            return scene.shapes.topmostShape(near: inDrawing, radius: lineWidth / 2).map(AccessibleNode.shape)
        case .menu:
            return scene.menu.flatMap { menu in
                menu.items.indices.first { menu.itemFrame($0).contains(point) }.flatMap(scene.menuItemNode)
            }
        case .shape, .menuItem, .notice, .keyHelp: return nil
        }
    }

    // MARK: GDBus's callbacks

    /// What the callbacks find through their user-data pointer: the bridge and the interfaces' descriptions; and the
    /// callback tables GDBus keeps a pointer to while the objects are registered, in memory of their own so that
    /// pointer stays valid (the box outlives the registrations) and freed with the box.
    final class BridgeBox {
        let bridge: AccessibilityBridge
        let nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>
        let interfaceVTable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)
        let subtreeVTable = UnsafeMutablePointer<GDBusSubtreeVTable>.allocate(capacity: 1)

        init(bridge: AccessibilityBridge, nodeInfo: UnsafeMutablePointer<GDBusNodeInfo>) {
            self.bridge = bridge
            self.nodeInfo = nodeInfo
            interfaceVTable.initialize(to: AccessibilityBridge.makeInterfaceVTable())
            subtreeVTable.initialize(to: AccessibilityBridge.makeSubtreeVTable())
        }

        deinit {
            interfaceVTable.deinitialize(count: 1)
            interfaceVTable.deallocate()
            subtreeVTable.deinitialize(count: 1)
            subtreeVTable.deallocate()
        }
    }

    private static func makeInterfaceVTable() -> GDBusInterfaceVTable {
        var table = GDBusInterfaceVTable()
        table.method_call = { _, _, path, interface, method, parameters, invocation, userData in
            let box = Unmanaged<BridgeBox>.fromOpaque(userData!).takeUnretainedValue()
            if String(cString: interface!) == AtspiProtocol.cache {
                g_dbus_method_invocation_return_value(
                    invocation, GVariantValues.tuple([GVariantValues.array(of: "((so)(so)(so)iiassusau)", [])]))
                return
            }
            let name = String(cString: path!).split(separator: "/").last.map(String.init) ?? ""
            guard let node = AccessibleNode(pathName: name),
                let reply = box.bridge.answer(
                    node, interface: String(cString: interface!), method: String(cString: method!),
                    parameters: parameters)
            else {
                g_dbus_method_invocation_return_dbus_error(
                    invocation, "org.freedesktop.DBus.Error.UnknownObject", "no such object or method")
                return
            }
            g_dbus_method_invocation_return_value(invocation, reply)
        }
        table.get_property = { _, _, path, interface, property, error, userData in
            let box = Unmanaged<BridgeBox>.fromOpaque(userData!).takeUnretainedValue()
            let name = String(cString: path!).split(separator: "/").last.map(String.init) ?? ""
            guard let node = AccessibleNode(pathName: name),
                let value = box.bridge.property(
                    node, interface: String(cString: interface!), name: String(cString: property!))
            else {
                g_set_error_literal(
                    error, g_dbus_error_quark(), Int32(G_DBUS_ERROR_UNKNOWN_PROPERTY.rawValue), "no such property")
                return nil
            }
            return value
        }
        table.set_property = { _, _, _, interface, property, value, _, userData in
            let box = Unmanaged<BridgeBox>.fromOpaque(userData!).takeUnretainedValue()
            guard String(cString: interface!) == AtspiProtocol.application, String(cString: property!) == "Id",
                let value
            else { return 0 }
            box.bridge.setApplicationID(g_variant_get_int32(value))
            return 1
        }
        return table
    }

    private static func makeSubtreeVTable() -> GDBusSubtreeVTable {
        var table = GDBusSubtreeVTable()
        table.enumerate = { _, _, _, _ in
            // The fixed objects; shapes are dispatched to without being listed.
            let names = ["root", "window", "drawing"]
            let array = UnsafeMutablePointer<UnsafeMutablePointer<gchar>?>.allocate(capacity: names.count + 1)
            for (index, name) in names.enumerated() { array[index] = g_strdup(name) }
            array[names.count] = nil
            let copy = g_memdup2(array, gsize(MemoryLayout<UnsafeMutablePointer<gchar>?>.stride * (names.count + 1)))
            array.deallocate()
            return copy?.assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self)
        }
        table.introspect = { _, _, _, node, userData in
            let box = Unmanaged<BridgeBox>.fromOpaque(userData!).takeUnretainedValue()
            guard let node, let accessible = AccessibleNode(pathName: String(cString: node)) else { return nil }
            let names = accessible.interfaces
            let size = MemoryLayout<UnsafeMutablePointer<GDBusInterfaceInfo>?>.stride * (names.count + 1)
            guard let raw = g_malloc0(gsize(size)) else { return nil }
            let infos = raw.assumingMemoryBound(to: UnsafeMutablePointer<GDBusInterfaceInfo>?.self)
            for (index, name) in names.enumerated() {
                if let info = g_dbus_node_info_lookup_interface(box.nodeInfo, name) {
                    infos[index] = g_dbus_interface_info_ref(info)
                }
            }
            return infos
        }
        table.dispatch = { _, _, _, interface, node, outUserData, userData in
            guard let node, AccessibleNode(pathName: String(cString: node)) != nil, let interface else { return nil }
            let name = String(cString: interface)
            guard
                [
                    AtspiProtocol.accessible, AtspiProtocol.component, AtspiProtocol.action, AtspiProtocol.selection,
                    AtspiProtocol.application,
                ].contains(name)
            else { return nil }
            outUserData?.pointee = userData
            return UnsafePointer(Unmanaged<BridgeBox>.fromOpaque(userData!).takeUnretainedValue().interfaceVTable)
        }
        return table
    }
}
