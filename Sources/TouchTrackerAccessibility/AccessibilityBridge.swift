import BackgroundWork
internal import CGio
import Glibc
import SessionBus
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
///
/// Its parts, by what each answers: this file starts it and runs its worker; `AccessibilityBridge+Tree` answers
/// clients' questions about the tree; `AccessibilityBridge+Events` tells them what changed and speaks to a screen
/// reader; `RegistryKeys` passes the window's keys to the registry.
public final class AccessibilityBridge: Sendable {
    /// The scene clients are answered from, and what was last announced about it.
    let scene: Mutex<AccessibleScene>
    let state = Mutex(BridgeState())
    let onRequest: @Sendable (AccessibilityRequest) -> Void
    let log: @Sendable (String) -> Void
    let lineWidth: Double
    private let worker: Worker

    struct BridgeState: @unchecked Sendable {
        // Unchecked: the connection and the main context are GLib objects made for use from any thread
        // (GDBusConnection's calls and g_main_context_wakeup are thread-safe); only their pointers are kept here.
        var connection: OpaquePointer?
        var context: OpaquePointer?
        var busName = ""
        var desktop: (busName: String, path: String) = ("", AtspiProtocol.nullPath)
        var applicationID: Int32 = 0
        /// How many keystroke listeners (screen readers) the registry has, as it last said.
        var keyListeners = 0
        /// Whether a screen reader listens to announcements (`ListenedEvents`); nil until the registry says.
        var announcementsHeard: Bool?
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
        guard let sessionBus = SessionBus.address(environment) else { return nil }
        return AccessibilityBridge(
            scene: scene, lineWidth: lineWidth, sessionBus: sessionBus, log: log, onRequest: onRequest)
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
        let keyListenerWatch = watchKeyListeners(connection, box: box.toOpaque())
        defer { g_dbus_connection_signal_unsubscribe(connection, keyListenerWatch) }
        let eventListenerWatch = watchListenedEvents(connection, box: box.toOpaque())
        defer { g_dbus_connection_signal_unsubscribe(connection, eventListenerWatch) }
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

    static func message(of error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "unknown error" }
        defer { g_error_free(error) }
        return String(cString: error.pointee.message)
    }
}
