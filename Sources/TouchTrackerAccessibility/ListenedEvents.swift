internal import CGio

/// Which events screen readers listen to, as the registry says (`GetRegisteredEvents`, asked at start and again
/// whenever a listener comes or goes): a current Orca listens to `object:announcement`, Orca 43 (Debian 12) does
/// not. What the app says goes to a screen reader the way it hears it, once: an announcement where one is heard,
/// else the notice node shown anew (what Orca 43 speaks). Until the registry has answered, both.
extension AccessibilityBridge {
    static let registryPath = "/org/a11y/atspi/registry"
    static let registryInterface = "org.a11y.atspi.Registry"

    /// Whether a listener hears announcements: one for `object:announcement`, for every object event, or for every
    /// event (the registry writes them capitalized: `Object:Announcement:`, `Object::`, `::`).
    static func hearsAnnouncements(_ events: [String]) -> Bool {
        events.contains { event in
            let event = event.lowercased()
            return event.hasPrefix("object:announcement") || event == "object::" || event == "object:"
                || event == "::" || event.isEmpty
        }
    }

    /// On the worker, once connected: follows the registry's event listeners. Returns the subscription.
    func watchListenedEvents(_ connection: OpaquePointer, box: UnsafeMutableRawPointer) -> UInt32 {
        let subscription = g_dbus_connection_signal_subscribe(
            connection, nil, Self.registryInterface, nil, Self.registryPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { connection, _, _, _, _, _, data in
                let box = Unmanaged<BridgeBox>.fromOpaque(data!).takeUnretainedValue()
                if let connection { box.bridge.askListenedEvents(connection, box: data!) }
            }, box, nil)
        askListenedEvents(connection, box: box)
        return subscription
    }

    private func askListenedEvents(_ connection: OpaquePointer, box: UnsafeMutableRawPointer) {
        let replyType = g_variant_type_new("(a(ss))")
        defer { g_variant_type_free(replyType) }
        // The call holds the box until it is answered.
        let retained = Unmanaged<BridgeBox>.fromOpaque(box).retain().toOpaque()
        g_dbus_connection_call(
            connection, Self.registryName, Self.registryPath, Self.registryInterface, "GetRegisteredEvents", nil,
            replyType, G_DBUS_CALL_FLAGS_NONE, 5000, nil,
            { source, result, data in
                let box = Unmanaged<BridgeBox>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) else {
                    g_clear_error(&error)
                    return
                }
                defer { g_variant_unref(reply) }
                var events: [String] = []
                if let listeners = g_variant_get_child_value(reply, 0) {
                    defer { g_variant_unref(listeners) }
                    for index in 0..<g_variant_n_children(listeners) {
                        guard let listener = g_variant_get_child_value(listeners, index) else { continue }
                        defer { g_variant_unref(listener) }
                        if let event = GVariantValues.text(listener, at: 1) { events.append(event) }
                    }
                }
                let hears = AccessibilityBridge.hearsAnnouncements(events)
                box.bridge.state.withLock { $0.announcementsHeard = hears }
            }, retained)
    }
}
