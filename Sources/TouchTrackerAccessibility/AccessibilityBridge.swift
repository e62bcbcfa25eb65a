import BackgroundWork
internal import CGio
import Glibc
import Synchronization
import TouchKit
import TouchTracker

/// What an assistive client asked the window to do (its actions and selection), done on the event loop.
public enum AccessibilityRequest: Sendable, Equatable {
    case select(ShapeID)
    case delete(ShapeID)
    case deselect
    /// A click on this item of this menu (as the client saw it): done only while that menu is still the one open,
    /// so a menu that closed or changed meanwhile is not acted on in its place.
    case activateMenuItem(MenuItem, in: PopupMenu)
    /// Highlights this item of this menu (a client's `SelectChild`), on the same terms.
    case highlightMenuItem(MenuItem, in: PopupMenu)
}

/// The window as AT-SPI 2 objects on the accessibility bus (DESIGN.md §3e), spoken directly over D-Bus with GDBus,
/// as GTK 4 does: the application → its window (a frame) → the drawing (a canvas) → one child per shape, in
/// drawing order, each named ("Line from 10, 20 to 300, 40"), placed (Component), selectable and deletable
/// (Action, and the drawing's Selection).
///
/// The bridge runs on a worker of its own with its own GLib main context, and answers from the last
/// `AccessibleScene` the event loop published (a constant-time snapshot), so no request ever waits for the loop
/// and a client flooding the app with requests only keeps this worker busy. Shapes are answered through a D-Bus
/// subtree: a shape's object exists only while something asks for it, so a 100,000-line drawing costs nothing
/// until a client looks. Requests that change the drawing go back to the loop (`onRequest`, then a wake-up).
///
/// Started only when the session bus has an accessibility bus (`org.a11y.Bus`), as GTK does: nothing at all runs
/// without one.
public final class AccessibilityBridge: Sendable {
    /// The scene clients are answered from, and what was last announced about it.
    private let scene: Mutex<AccessibleScene>
    private let state = Mutex(BridgeState())
    private let onRequest: @Sendable (AccessibilityRequest) -> Void
    private let log: @Sendable (String) -> Void
    private let lineWidth: Double
    private let worker: Worker

    struct BridgeState: @unchecked Sendable {
        // Unchecked: the connection and the main context are GLib objects made for use from any thread
        // (GDBusConnection's calls and g_main_context_wakeup are thread-safe); only their pointers are kept here.
        var connection: OpaquePointer?
        var context: OpaquePointer?
        var busName = ""
        var desktop: (busName: String, path: String) = ("", AtspiProtocol.nullPath)
        var applicationID: Int32 = 0
        var stopped = false
    }

    /// Starts the bridge when there is a session bus (`environment`'s `DBUS_SESSION_BUS_ADDRESS`, or the bus in
    /// `XDG_RUNTIME_DIR`), else returns nil; on the bridge's worker it then looks for an accessibility bus there,
    /// and ends quietly when there is none. (No bus is ever launched for it.) `scene` is what clients are told
    /// until the first `publish`.
    public static func start(
        scene: AccessibleScene, lineWidth: Double, environment: [String: String],
        log: @escaping @Sendable (String) -> Void, onRequest: @escaping @Sendable (AccessibilityRequest) -> Void
    ) -> AccessibilityBridge? {
        guard let sessionBus = sessionBusAddress(environment) else { return nil }
        return AccessibilityBridge(
            scene: scene, lineWidth: lineWidth, sessionBus: sessionBus, log: log, onRequest: onRequest)
    }

    /// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, or the socket `XDG_RUNTIME_DIR/bus` where it exists.
    /// Nil otherwise: GLib would then try to launch a bus through X11, which the app must not cause.
    static func sessionBusAddress(_ environment: [String: String]) -> String? {
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return address }
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        var info = stat()
        guard stat(runtime + "/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=" + runtime + "/bus"
    }

    private let sessionBus: String

    private init(
        scene: AccessibleScene, lineWidth: Double, sessionBus: String, log: @escaping @Sendable (String) -> Void,
        onRequest: @escaping @Sendable (AccessibilityRequest) -> Void
    ) {
        self.sessionBus = sessionBus
        self.scene = Mutex(scene)
        self.lineWidth = lineWidth
        self.log = log
        self.onRequest = onRequest
        worker = Worker(name: "accessibility")
        worker.submit { [self] in serve() }
    }

    /// Where `new` is `old` with one ID inserted, that ID and its index; nil for any other change.
    static func singleInsertion(from old: [ShapeID], to new: [ShapeID]) -> (index: Int, id: ShapeID)? {
        guard new.count == old.count + 1 else { return nil }
        let index = old.indices.first { old[$0] != new[$0] } ?? old.count
        guard new[(index + 1)...].elementsEqual(old[index...]) else { return nil }
        return (index, new[index])
    }

    /// Tells clients what the window shows now: children added or removed, a new selection, a new name.
    public func publish(_ newScene: AccessibleScene) {
        let old = scene.withLock { scene in
            defer { scene = newScene }
            return scene
        }
        let (connection, busName) = state.withLock { ($0.connection, $0.busName) }
        guard let connection else { return }
        // The children changed only when the list of shapes did (a move keeps it, and its storage, as it was).
        if old.shapes.revision != newScene.shapes.revision, old.shapes.order != newScene.shapes.order {
            // One shape added anywhere (a line goes in below the circles): "add" at its place, with it. Anything
            // else: "the children changed" at index 0, which tells a client to read them all again.
            if let added = Self.singleInsertion(from: old.shapes.order, to: newScene.shapes.order) {
                emit(
                    connection, node: .drawing, member: "ChildrenChanged", kind: "add", detail: Int32(added.index),
                    data: GVariantValues.reference(busName: busName, path: AccessibleNode.shape(added.id).path))
            } else {
                emit(
                    connection, node: .drawing, member: "ChildrenChanged", kind: "remove", detail: 0,
                    data: GVariantValues.reference(busName: busName, path: AtspiProtocol.nullPath))
            }
        }
        if old.drawingName != newScene.drawingName {
            emit(
                connection, node: .drawing, member: "PropertyChange", kind: "accessible-name", detail: 0,
                data: GVariantValues.string(newScene.drawingName))
        }
        // The same menu open before and after: the same opening, the same items (only its highlight or ticks moved).
        let sameMenu =
            old.menu != nil && old.menu?.opening == newScene.menu?.opening && old.menu?.items == newScene.menu?.items
        if !sameMenu {
            // The menu opened, closed or gave way to another (Colours in the settings): the window's children
            // changed, the old menu gone first.
            if old.menu != nil {
                emit(
                    connection, node: .window, member: "ChildrenChanged", kind: "remove", detail: 1,
                    data: GVariantValues.reference(busName: busName, path: AtspiProtocol.nullPath))
            }
            if newScene.menu != nil {
                emit(
                    connection, node: .window, member: "ChildrenChanged", kind: "add", detail: 1,
                    data: GVariantValues.reference(busName: busName, path: AccessibleNode.menu.path))
                // Every menu is the same object (`…/menu`): a client that read the last one's name keeps it unless
                // told.
                emit(
                    connection, node: .menu, member: "PropertyChange", kind: "accessible-name", detail: 0,
                    data: GVariantValues.string(newScene.menuName))
            }
        }
        if old.selection != newScene.selection {
            if let previous = old.selection { emitState(connection, "selected", false, on: .shape(previous)) }
            if let current = newScene.selection { emitState(connection, "selected", true, on: .shape(current)) }
            emitSelectionChanged(connection, on: .drawing)
        }
        let highlighted = newScene.menu?.highlightedIndex
        if !sameMenu || old.menu?.highlightedIndex != highlighted {
            // The highlight moved (Up, Down, the pointer): the item left, if its menu is still open, and the one
            // highlighted now, which the menu says is its selection.
            if sameMenu, let previous = old.menu?.highlightedIndex.flatMap(newScene.menuItemNode) {
                emitState(connection, "selected", false, on: previous)
            }
            if let item = highlighted.flatMap(newScene.menuItemNode) {
                emitState(connection, "selected", true, on: item)
                emitSelectionChanged(connection, on: .menu)
            }
        }
        if sameMenu, let before = old.menu?.checkedItems, let menu = newScene.menu, before != menu.checkedItems {
            // A switch or a colour changed while its menu is open (a key pressed): its tick, for a reader.
            for (index, item) in menu.items.enumerated() where before.contains(item) != menu.checkedItems.contains(item)
            {
                guard let node = newScene.menuItemNode(index) else { continue }
                emitState(connection, "checked", menu.checkedItems.contains(item), on: node)
            }
        }
        let activated = newScene.isActive && (!old.isActive || old.activation != newScene.activation)
        if activated || (old.isActive && !newScene.isActive) {
            // Alt+Tab to the window or away: a reader announces the window, then where the focus is in it.
            emit(
                connection, node: .window, member: newScene.isActive ? "Activate" : "Deactivate", kind: "", detail: 0,
                data: GVariantValues.int32(0), interface: AtspiProtocol.eventWindow)
            emitState(connection, "active", newScene.isActive, on: .window)
            emitState(
                connection, "focused", newScene.isActive, on: newScene.isActive ? newScene.focusedNode : old.focusedNode
            )
        } else if newScene.isActive, old.focusedNode != newScene.focusedNode {
            // A reader speaks what gains the focus: the highlighted item, the selected shape, or the drawing again
            // as a menu closes or the selection goes. What had it is told it lost it first.
            emitState(connection, "focused", false, on: old.focusedNode)
            emitState(connection, "focused", true, on: newScene.focusedNode)
        }
    }

    /// Tells clients that shapes moved (a drag, the arrows, a move undone or redone): each one's new extents on the
    /// screen and its name, which says where it is (a client keeps names until told). Called once they rest, not at
    /// every step: a reader hearing each step of a held arrow would hear nothing else. `everything`: the children
    /// changed, for a client to read them all again.
    public func tellReshaped(_ reshaped: ReshapedShapes) {
        let current = scene.withLock { $0 }
        let (connection, busName) = state.withLock { ($0.connection, $0.busName) }
        guard let connection, !reshaped.isEmpty else { return }
        if reshaped.everything {
            emit(
                connection, node: .drawing, member: "ChildrenChanged", kind: "remove", detail: 0,
                data: GVariantValues.reference(busName: busName, path: AtspiProtocol.nullPath))
            return
        }
        for id in reshaped.shapes.sorted() {
            guard let shape = current.shapes[id] else { continue }
            let box = current.screenExtents(of: shape, lineWidth: lineWidth)
            emit(
                connection, node: .shape(id), member: "BoundsChanged", kind: "", detail: 0,
                data: GVariantValues.tuple(
                    [box.minX, box.minY, box.width, box.height].map { GVariantValues.int32(Int32($0.rounded())) }))
            emit(
                connection, node: .shape(id), member: "PropertyChange", kind: "accessible-name", detail: 0,
                data: GVariantValues.string(current.name(of: shape)))
            // Moved beyond the window's edge, or back into it.
            emitState(
                connection, "showing",
                AccessibleNode.shape(id).states(in: current, lineWidth: lineWidth).contains(.showing),
                on: .shape(id))
        }
    }

    /// Tells clients the child `node` has selected (the drawing's shape, the menu's highlighted item) changed.
    private func emitSelectionChanged(_ connection: OpaquePointer, on node: AccessibleNode) {
        emit(connection, node: node, member: "SelectionChanged", kind: "", detail: 0, data: GVariantValues.int32(0))
    }

    /// Tells clients `node` gained or lost `state` ("selected", "focused").
    private func emitState(_ connection: OpaquePointer, _ state: String, _ isOn: Bool, on node: AccessibleNode) {
        emit(
            connection, node: node, member: "StateChanged", kind: state, detail: isOn ? 1 : 0,
            data: GVariantValues.int32(0))
    }

    /// Says `text` to a screen reader (a notice the window shows): AT-SPI's announcement, politely.
    public func announce(_ text: String) {
        guard let connection = state.withLock({ $0.connection }) else { return }
        emit(connection, node: .window, member: "Announcement", kind: "", detail: 1, data: GVariantValues.string(text))
    }

    /// Leaves the accessibility bus and ends the worker.
    public func stop() {
        // The flag first, then the wake-up: the worker checks the flag after every iteration, so it cannot miss it.
        // A reference of its own, taken under the lock, so the worker cannot free the context before the wake-up.
        let context = state.withLock { state -> OpaquePointer? in
            state.stopped = true
            return state.context.map { g_main_context_ref($0) }
        }
        if let context {
            g_main_context_wakeup(context)
            g_main_context_unref(context)
        }
        worker.stop()
    }

    // MARK: The worker

    /// Connects to the accessibility bus, registers the tree, embeds it under the desktop and serves requests
    /// until `stop`.
    private func serve() {
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        guard let connection = connectToAccessibilityBus() else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var error: UnsafeMutablePointer<GError>?
        guard let nodeInfo = g_dbus_node_info_new_for_xml(AtspiProtocol.xml, &error) else {
            log("accessibility: \(Self.message(of: error))")
            return
        }
        defer { g_dbus_node_info_unref(nodeInfo) }
        let box = Unmanaged.passRetained(BridgeBox(bridge: self, nodeInfo: nodeInfo))
        defer { box.release() }
        let registration = g_dbus_connection_register_subtree(
            connection, AtspiProtocol.basePath, box.takeUnretainedValue().subtreeVTable,
            GDBusSubtreeFlags(G_DBUS_SUBTREE_FLAGS_DISPATCH_TO_UNENUMERATED_NODES.rawValue), box.toOpaque(), nil,
            &error)
        guard registration != 0 else {
            log("accessibility: cannot register the tree: \(Self.message(of: error))")
            return
        }
        defer { _ = g_dbus_connection_unregister_subtree(connection, registration) }
        let cacheRegistration = g_dbus_connection_register_object(
            connection, AtspiProtocol.cachePath, g_dbus_node_info_lookup_interface(nodeInfo, AtspiProtocol.cache),
            box.takeUnretainedValue().interfaceVTable, box.toOpaque(), nil, &error)
        if cacheRegistration == 0 { g_clear_error(&error) }
        defer { if cacheRegistration != 0 { _ = g_dbus_connection_unregister_object(connection, cacheRegistration) } }

        let busName = String(cString: g_dbus_connection_get_unique_name(connection))
        let go = state.withLock { state -> Bool in
            state.connection = connection
            state.context = context
            state.busName = busName
            return !state.stopped
        }
        guard go else { return }
        embed(connection, busName: busName, box: box)
        while !state.withLock({ $0.stopped }) { g_main_context_iteration(context, 1) }
        state.withLock {
            $0.connection = nil
            $0.context = nil
        }
    }

    /// The accessibility bus, as `org.a11y.Bus` on the session bus names it; nil (said once) when there is none.
    private func connectToAccessibilityBus() -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let busFlags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let session = g_dbus_connection_new_for_address_sync(sessionBus, busFlags, nil, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(session)) }
        let replyType = g_variant_type_new("(s)")
        defer { g_variant_type_free(replyType) }
        guard
            let reply = g_dbus_connection_call_sync(
                session, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil, replyType,
                G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error)
        else {
            g_clear_error(&error)
            return nil
        }
        defer { g_variant_unref(reply) }
        guard let address = GVariantValues.text(reply, at: 0) else { return nil }
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            log("accessibility: cannot connect to the accessibility bus: \(Self.message(of: error))")
            return nil
        }
        return connection
    }

    /// Asks the registry to put the application under the desktop (`Socket.Embed`); its answer names the
    /// desktop, the application's parent. Asynchronous: the registry may ask the tree things before it answers.
    private func embed(_ connection: OpaquePointer, busName: String, box: Unmanaged<BridgeBox>) {
        let argument = GVariantValues.tuple([GVariantValues.reference(busName: busName, path: AtspiProtocol.rootPath)])
        let replyType = g_variant_type_new("((so))")
        defer { g_variant_type_free(replyType) }
        let context = Unmanaged.passRetained(box.takeUnretainedValue()).toOpaque()
        g_dbus_connection_call(
            connection, "org.a11y.atspi.Registry", AtspiProtocol.rootPath, "org.a11y.atspi.Socket", "Embed", argument,
            replyType, G_DBUS_CALL_FLAGS_NONE, 5000, nil,
            { source, result, userData in
                let box = Unmanaged<BridgeBox>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                    box.bridge.log(
                        "accessibility: the registry did not take the application: \(AccessibilityBridge.message(of: error))"
                    )
                    return
                }
                defer { g_variant_unref(reply) }
                if let parent = g_variant_get_child_value(reply, 0) {
                    defer { g_variant_unref(parent) }
                    let desktop = (GVariantValues.text(parent, at: 0) ?? "", GVariantValues.text(parent, at: 1) ?? "")
                    box.bridge.state.withLock { $0.desktop = (desktop.0, desktop.1) }
                }
            }, context)
    }

    private func emit(
        _ connection: OpaquePointer, node: AccessibleNode, member: String, kind: String, detail: Int32,
        data: OpaquePointer, interface: String = AtspiProtocol.eventObject
    ) {
        let body = GVariantValues.tuple([
            GVariantValues.string(kind), GVariantValues.int32(detail), GVariantValues.int32(0),
            GVariantValues.variant(data), GVariantValues.array(of: "{sv}", []),
        ])
        _ = g_dbus_connection_emit_signal(connection, nil, node.path, interface, member, body, nil)
    }

    static func message(of error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }

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
            return scene.shapes.topmostShape(near: point, radius: lineWidth / 2).map(AccessibleNode.shape)
        case .menu:
            return scene.menu.flatMap { menu in
                menu.items.indices.first { menu.itemFrame($0).contains(point) }.flatMap(scene.menuItemNode)
            }
        case .shape, .menuItem: return nil
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
