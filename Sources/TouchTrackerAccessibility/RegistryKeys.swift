internal import CGio
import TouchTracker

/// The registry's keys: every key the window gets goes to the AT-SPI registry (`DeviceEventController`'s
/// `NotifyListenersSync`, as GTK 3's and Qt's bridges do) before the app acts on it, so a screen reader hears the
/// keys (its key echo, its own commands such as Orca's Where Am I) and can consume them (a consumed key does
/// nothing in the app).
///
/// Nothing here waits: the call is made asynchronously on the bridge's worker and the answer comes back through a
/// callback. Only while a screen reader listens (the registry has keystroke listeners, as it says when asked and
/// whenever one comes or goes) are keys sent at all; otherwise the app acts on them at once.
extension AccessibilityBridge {
    static let registryName = "org.a11y.atspi.Registry"
    static let deviceEventControllerPath = "/org/a11y/atspi/registry/deviceeventcontroller"
    static let deviceEventController = "org.a11y.atspi.DeviceEventController"
    /// The interface of the registry's signals that a keystroke listener came or went.
    static let deviceEventListener = "org.a11y.atspi.DeviceEventListener"
    /// How long a key waits for the registry's answer before the app acts on it anyway (a screen reader that
    /// hangs must not take the keyboard with it).
    static let keyReplyTimeoutMilliseconds: Int32 = 2000

    /// Whether a screen reader listens to the keys (the registry has keystroke listeners): only then are keys
    /// passed to it before the app acts on them.
    public var screenReaderListensToKeys: Bool { state.withLock { $0.keyListeners > 0 } }

    /// Tells the registry of `key` and calls `verdict` (on the bridge's worker) with whether a screen reader
    /// consumed it; false at once when the bridge is not connected. Returns without waiting.
    public func passKeyToRegistry(_ key: KeyEventReport, verdict: @escaping @Sendable (_ consumed: Bool) -> Void) {
        // A reference of its own, taken under the lock, so the worker cannot free the context meanwhile.
        guard let context = state.withLock({ state in state.context.map { g_main_context_ref($0) } }) else {
            verdict(false)
            return
        }
        defer { g_main_context_unref(context) }
        let job = Unmanaged.passRetained(KeyJob(bridge: self, key: key, verdict: verdict)).toOpaque()
        // On the worker, whose main context dispatches the call's answer.
        g_main_context_invoke(
            context,
            { data in
                Unmanaged<KeyJob>.fromOpaque(data!).takeRetainedValue().send()
                return 0
            }, job)
    }

    /// A key on its way to the registry, and what to do with the answer.
    final class KeyJob: Sendable {
        let bridge: AccessibilityBridge
        let key: KeyEventReport
        let verdict: @Sendable (Bool) -> Void

        init(bridge: AccessibilityBridge, key: KeyEventReport, verdict: @escaping @Sendable (Bool) -> Void) {
            self.bridge = bridge
            self.key = key
            self.verdict = verdict
        }

        /// On the worker: the call, answered through `finished`.
        func send() {
            guard let connection = bridge.state.withLock({ $0.connection }) else {
                verdict(false)
                return
            }
            // The event as the registry reads it, `(uiiiisb)`: type (0 pressed, 1 released), keysym, key code,
            // modifiers, time, text, whether it is text.
            let event = GVariantValues.tuple([
                GVariantValues.uint32(key.pressed ? 0 : 1), GVariantValues.int32(Int32(bitPattern: key.keysym)),
                GVariantValues.int32(Int32(bitPattern: key.keycode)),
                GVariantValues.int32(Int32(bitPattern: key.modifiers)),
                GVariantValues.int32(Int32(bitPattern: key.time)), GVariantValues.string(key.text),
                GVariantValues.bool(key.isText),
            ])
            let replyType = g_variant_type_new("(b)")
            defer { g_variant_type_free(replyType) }
            g_dbus_connection_call(
                connection, AccessibilityBridge.registryName, AccessibilityBridge.deviceEventControllerPath,
                AccessibilityBridge.deviceEventController, "NotifyListenersSync", GVariantValues.tuple([event]),
                replyType, G_DBUS_CALL_FLAGS_NONE, AccessibilityBridge.keyReplyTimeoutMilliseconds, nil,
                { source, result, data in
                    let job = Unmanaged<KeyJob>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                        // No answer (the registry went, or took too long): the app has the key.
                        g_clear_error(&error)
                        job.verdict(false)
                        return
                    }
                    defer { g_variant_unref(reply) }
                    let consumed = g_variant_get_child_value(reply, 0).map { value in
                        defer { g_variant_unref(value) }
                        return g_variant_get_boolean(value) != 0
                    }
                    job.verdict(consumed ?? false)
                }, Unmanaged.passRetained(self).toOpaque())
        }
    }

    /// On the worker, once connected: learns how many keystroke listeners the registry has now and whenever one
    /// comes or goes. Returns the subscription, to end with `g_dbus_connection_signal_unsubscribe`.
    func watchKeyListeners(_ connection: OpaquePointer, box: UnsafeMutableRawPointer) -> UInt32 {
        let subscription = g_dbus_connection_signal_subscribe(
            connection, nil, Self.deviceEventListener, nil, Self.deviceEventControllerPath, nil,
            G_DBUS_SIGNAL_FLAGS_NONE,
            { connection, _, _, _, member, _, data in
                let box = Unmanaged<BridgeBox>.fromOpaque(data!).takeUnretainedValue()
                // One more listener is known without asking (Orca registers hundreds, one per modifier mask, at
                // start); one gone may have been the last, so the registry is asked.
                if let member, String(cString: member) == "KeystrokeListenerRegistered" {
                    box.bridge.addKeyListener()
                } else if let connection {
                    box.bridge.countKeyListeners(connection, box: data!)
                }
            }, box, nil)
        countKeyListeners(connection, box: box)
        return subscription
    }

    /// Asks the registry for its keystroke listeners and keeps their number.
    func countKeyListeners(_ connection: OpaquePointer, box: UnsafeMutableRawPointer) {
        let replyType = g_variant_type_new("(a(souua(iisi)u(bbb)))")
        defer { g_variant_type_free(replyType) }
        // The call holds the box until it is answered.
        let retained = Unmanaged<BridgeBox>.fromOpaque(box).retain().toOpaque()
        g_dbus_connection_call(
            connection, Self.registryName, Self.deviceEventControllerPath, Self.deviceEventController,
            "GetKeystrokeListeners", nil, replyType, G_DBUS_CALL_FLAGS_NONE, 5000, nil,
            { source, result, data in
                let box = Unmanaged<BridgeBox>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                    g_clear_error(&error)
                    return
                }
                defer { g_variant_unref(reply) }
                let count = g_variant_get_child_value(reply, 0).map { listeners in
                    defer { g_variant_unref(listeners) }
                    return Int(g_variant_n_children(listeners))
                }
                box.bridge.setKeyListeners(count ?? 0)
            }, retained)
    }

    private func addKeyListener() {
        setKeyListeners(state.withLock { $0.keyListeners } + 1)
    }

    private func setKeyListeners(_ count: Int) {
        let before = state.withLock { state in
            defer { state.keyListeners = count }
            return state.keyListeners
        }
        if (before > 0) != (count > 0) {
            log(
                count > 0
                    ? "accessibility: a screen reader listens to the keys"
                    : "accessibility: no screen reader listens to the keys")
        }
    }
}
