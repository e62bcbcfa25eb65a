import BackgroundWork
internal import CGio
import Glibc
import SessionBus
import Synchronization

/// The desktop's own file dialog, through `org.freedesktop.portal.FileChooser` on the session bus (xdg-desktop-portal
/// and whichever back end the desktop has: GTK's, GNOME's, KDE's), as Flatpak'd and native GTK 4 and Qt apps ask
/// for it.
///
/// A dialog runs on a worker of its own with its own GLib main context, never on the event loop: the worker calls
/// `OpenFile` or `SaveFile` (with a `handle_token`, so it subscribes to the Request's `Response` before the call and
/// cannot miss it), then iterates its context until `Response` comes, and hands the outcome to `completion` on that
/// thread (the caller posts it to its loop and wakes it). One dialog at a time; `stop` closes one still open (the
/// Request's `Close`) and waits for its worker.
public final class PortalFileChooser: Sendable {
    private let busAddress: String?
    private let state = Mutex(DialogState())
    private let tokens = Atomic<Int>(0)

    struct DialogState: @unchecked Sendable {
        // Unchecked: GMainContext and GCancellable are made for use from any thread (g_main_context_wakeup and
        // g_cancellable_cancel are thread-safe); only their pointers are kept here, each with a reference of its own.
        var context: OpaquePointer?
        var cancellable: UnsafeMutablePointer<GCancellable>?
        var worker: Worker?
        var stopped = false
    }

    /// A chooser on the session bus `environment` names (`DBUS_SESSION_BUS_ADDRESS`, or `XDG_RUNTIME_DIR/bus`).
    public init(environment: [String: String]) {
        busAddress = SessionBus.address(environment)
    }

    /// Shows the dialog `request` describes; `completion` gets the outcome on the dialog's worker. False (and
    /// nothing shown) while another dialog is open.
    @discardableResult
    public func choose(_ request: FileChooserRequest, completion: @escaping @Sendable (FileChooserOutcome) -> Void)
        -> Bool
    {
        let token = "touchtracker_\(getpid())_\(tokens.add(1, ordering: .relaxed).newValue)"
        return state.withLock { dialog in
            guard dialog.worker == nil, !dialog.stopped else { return false }
            dialog.worker = Worker.run("file dialog", priority: .prompt) { [self] in
                let outcome = run(request, token: token)
                state.withLock { $0.worker = nil }
                completion(outcome)
            }
            return true
        }
    }

    /// Closes a dialog still open and waits for its worker; no dialog opens after this.
    public func stop() {
        let worker = state.withLock { state -> Worker? in
            state.stopped = true
            if let cancellable = state.cancellable { g_cancellable_cancel(cancellable) }
            if let context = state.context { g_main_context_wakeup(context) }
            return state.worker
        }
        worker?.stop()
    }

    // MARK: The worker

    /// Asks the portal and waits for its answer, on the dialog's worker.
    private func run(_ request: FileChooserRequest, token: String) -> FileChooserOutcome {
        guard let busAddress else {
            return .failed("no session bus (DBUS_SESSION_BUS_ADDRESS is not set), so no file dialog")
        }
        let context = g_main_context_new()
        g_main_context_push_thread_default(context)
        let cancellable = g_cancellable_new()
        let go = state.withLock { state -> Bool in
            state.context = g_main_context_ref(context)
            state.cancellable = g_object_ref(cancellable).assumingMemoryBound(to: GCancellable.self)
            return !state.stopped
        }
        defer {
            state.withLock { state in
                if let context = state.context { g_main_context_unref(context) }
                if let cancellable = state.cancellable { g_object_unref(cancellable) }
                state.context = nil
                state.cancellable = nil
            }
            g_object_unref(cancellable)
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
        }
        guard go else { return .cancelled }
        var error: UnsafeMutablePointer<GError>?
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(busAddress, flags, nil, cancellable, &error)
        else {
            return .failed("cannot reach the session bus for the file dialog: \(Self.message(of: &error))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        // The Request's path: the unique name without its colon, dots as underscores, then the token.
        let sender = String(
            String(cString: g_dbus_connection_get_unique_name(connection)).dropFirst().map { $0 == "." ? "_" : $0 })
        let box = ResponseBox()
        let unmanaged = Unmanaged.passRetained(box)
        defer { unmanaged.release() }
        var handle = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
        var subscription = subscribe(connection, to: handle, box: unmanaged.toOpaque())
        defer { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        let parameters = request.parameters(handleToken: token).gvariant()
        let replyType = g_variant_type_new("(o)")
        defer { g_variant_type_free(replyType) }
        guard
            let reply = g_dbus_connection_call_sync(
                connection, Self.portal, Self.portalPath, "org.freedesktop.portal.FileChooser", request.method,
                parameters, replyType, G_DBUS_CALL_FLAGS_NONE, 60_000, cancellable, &error)
        else {
            if g_cancellable_is_cancelled(cancellable) != 0 {
                g_clear_error(&error)
                return .cancelled
            }
            return .failed("the desktop's file dialog is not available: \(Self.message(of: &error))")
        }
        let child = g_variant_get_child_value(reply, 0)
        let returned = String(cString: g_variant_get_string(child, nil))
        g_variant_unref(child)
        g_variant_unref(reply)
        if returned != handle {
            // A portal older than handle_token: the answer comes on the object it named.
            g_dbus_connection_signal_unsubscribe(connection, subscription)
            handle = returned
            subscription = subscribe(connection, to: handle, box: unmanaged.toOpaque())
        }
        while box.outcome == nil, g_cancellable_is_cancelled(cancellable) == 0 {
            g_main_context_iteration(context, 1)
        }
        if let outcome = box.outcome { return outcome }
        // Stopped with the dialog still open: it is closed, as the window that asked for it goes.
        _ = g_dbus_connection_call_sync(
            connection, Self.portal, handle, "org.freedesktop.portal.Request", "Close", nil, nil,
            G_DBUS_CALL_FLAGS_NONE, 2000, nil, nil)
        return .cancelled
    }

    private static let portal = "org.freedesktop.portal.Desktop"
    private static let portalPath = "/org/freedesktop/portal/desktop"

    /// Subscribes to the `Response` of the Request at `handle`; the answer lands in the `ResponseBox` at `box`.
    private func subscribe(_ connection: OpaquePointer, to handle: String, box: UnsafeMutableRawPointer) -> guint {
        g_dbus_connection_signal_subscribe(
            connection, Self.portal, "org.freedesktop.portal.Request", "Response", handle, nil,
            G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, box in
                guard let parameters, let box else { return }
                Unmanaged<ResponseBox>.fromOpaque(box).takeUnretainedValue().outcome = PortalFileChooser.outcome(
                    ofResponse: parameters)
            }, box, nil)
    }

    /// The outcome a `Response(u response, a{sv} results)` says.
    static func outcome(ofResponse parameters: OpaquePointer) -> FileChooserOutcome {
        guard g_variant_n_children(parameters) == 2 else { return .cancelled }
        let codeValue = g_variant_get_child_value(parameters, 0)
        let code = g_variant_get_uint32(codeValue)
        g_variant_unref(codeValue)
        let results = g_variant_get_child_value(parameters, 1)
        defer { g_variant_unref(results) }
        let stringArray = g_variant_type_new("as")
        defer { g_variant_type_free(stringArray) }
        var uris: [String] = []
        if let list = g_variant_lookup_value(results, "uris", stringArray) {
            for index in 0..<g_variant_n_children(list) {
                let item = g_variant_get_child_value(list, index)
                uris.append(String(cString: g_variant_get_string(item, nil)))
                g_variant_unref(item)
            }
            g_variant_unref(list)
        }
        return FileChooserOutcome(response: code, uris: uris)
    }

    /// A GError's message, without GDBus's remote-error prefix, freed.
    private static func message(of error: inout UnsafeMutablePointer<GError>?) -> String {
        guard let error = error else { return "unknown error" }
        _ = g_dbus_error_strip_remote_error(error)
        let text = String(cString: error.pointee.message)
        var owned: UnsafeMutablePointer<GError>? = error
        g_clear_error(&owned)
        return text
    }

}

/// Where the `Response` signal's callback leaves the outcome; touched only on the dialog's worker (the callback
/// runs in the worker's own main context).
private final class ResponseBox {
    var outcome: FileChooserOutcome?
}

extension PortalValue {
    /// The value as a floating GVariant (handing it to GDBus consumes it).
    func gvariant() -> OpaquePointer {
        switch self {
        case .string(let text): return g_variant_new_string(text)
        case .bool(let value): return g_variant_new_boolean(value ? 1 : 0)
        case .uint32(let value): return g_variant_new_uint32(value)
        case .bytes(let bytes):
            let terminated = bytes.map { CChar(bitPattern: $0) } + [0]
            return terminated.withUnsafeBufferPointer { g_variant_new_bytestring($0.baseAddress) }
        case .variant(let value): return g_variant_new_variant(value.gvariant())
        case .tuple(let items):
            let children: [OpaquePointer?] = items.map { $0.gvariant() }
            return children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, gsize($0.count)) }
        case .dictEntry(let key, let value): return g_variant_new_dict_entry(key.gvariant(), value.gvariant())
        case .array(let elementType, let items):
            let type = g_variant_type_new(elementType)
            defer { g_variant_type_free(type) }
            let children: [OpaquePointer?] = items.map { $0.gvariant() }
            return children.withUnsafeBufferPointer { g_variant_new_array(type, $0.baseAddress, gsize($0.count)) }
        }
    }

    /// The value in GVariant's text format (`g_variant_print`, with types where they are not implied), as the
    /// tests compare it and `gdbus call` would write it.
    public var gvariantText: String {
        let value = g_variant_ref_sink(gvariant())
        defer { g_variant_unref(value) }
        let text = g_variant_print(value, 1)
        defer { g_free(text) }
        return text.map { String(cString: $0) } ?? ""
    }
}
