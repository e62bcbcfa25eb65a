internal import CWayland
import Glibc

/// The compositor's globals the host uses, bound at start-up from the registry. The core ones (`wl_compositor`,
/// `wl_shm`, `xdg_wm_base`) are required; the rest are used where the compositor offers them.
final class WaylandGlobals {
    private(set) var compositor: OpaquePointer?
    private(set) var shm: OpaquePointer?
    private(set) var wmBase: OpaquePointer?
    /// The seat, listened to from the moment it is bound (its first events come in the same round trip).
    private(set) var seat: WaylandSeat?
    private(set) var dataDeviceManager: OpaquePointer?
    private(set) var decorationManager: OpaquePointer?
    private(set) var activation: OpaquePointer?
    /// xdg-foreign's exporter, where offered: the window's handle for the desktop's file dialog to sit on.
    private(set) var exporter: OpaquePointer?
    /// Presentation feedback (when frames reached the screen), bound only for `--trace-frames`' use; nil when not
    /// offered.
    private(set) var presentation: OpaquePointer?
    /// The clock the compositor's presentation times are on (its `clock_id`, sent as soon as it is bound).
    private(set) var presentationClockID = CLOCK_MONOTONIC
    private let presentationListener: WaylandListener<wp_presentation_listener>
    /// Fractional scaling: both are needed (the viewport shows a buffer of device pixels at the surface's size).
    private(set) var viewporter: OpaquePointer?
    private(set) var fractionalScaleManager: OpaquePointer?
    /// Touchpad pinch and swipe (pointer-gestures), where offered.
    private(set) var pointerGestures: OpaquePointer?
    /// Tablets and their pens (tablet-unstable-v2), where offered.
    private(set) var tabletManager: OpaquePointer?
    /// The screens, by their global's name.
    private(set) var outputs: [UInt32: WaylandOutput] = [:]
    /// Told of an output's proxy as the output goes (a screen unplugged), before the proxy is destroyed: the window
    /// forgets it was on it (`WaylandWindow.forget`).
    var onOutputRemoved: (OpaquePointer) -> Void = { _ in }
    /// Every global's interface name, for `--verbose`.
    private(set) var offered: [String] = []

    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    private let registry: OpaquePointer
    private let registryListener: WaylandListener<wl_registry_listener>
    private let wmBaseListener: WaylandListener<xdg_wm_base_listener>

    /// The highest version of each interface this host speaks (its listeners handle every event up to it).
    private static let versions: [String: UInt32] = [
        "wl_compositor": 4, "wl_shm": 1, "wl_seat": 8, "wl_data_device_manager": 3, "xdg_wm_base": 2,
        "zxdg_decoration_manager_v1": 1, "xdg_activation_v1": 1, "wl_output": 2, "wp_presentation": 1,
        "zwp_pointer_gestures_v1": 1, "wp_viewporter": 1, "wp_fractional_scale_manager_v1": 1,
        "zwp_tablet_manager_v2": 1, "zxdg_exporter_v2": 1,
    ]

    /// Lists the globals (one round trip) and binds the ones the host uses.
    init(connection: WaylandConnection) throws(WaylandError) {
        self.connection = connection
        registry = wl_display_get_registry(connection.display)
        registryListener = WaylandListener(
            wl_registry_listener(
                global: { data, _, name, interface, version in
                    listenerOwner(data, as: WaylandGlobals.self).announce(
                        name: name, interface: String(cString: interface!), version: version)
                },
                global_remove: { data, _, name in
                    // A screen unplugged. (A lost seat ends its devices' touches through their own events.)
                    let globals = listenerOwner(data, as: WaylandGlobals.self)
                    guard let output = globals.outputs.removeValue(forKey: name) else { return }
                    globals.onOutputRemoved(output.proxy)
                }))
        wmBaseListener = WaylandListener(
            xdg_wm_base_listener(ping: { _, wmBase, serial in xdg_wm_base_pong(wmBase, serial) }))
        presentationListener = WaylandListener(
            wp_presentation_listener(clock_id: { data, _, clock in
                listenerOwner(data, as: WaylandGlobals.self).presentationClockID = clockid_t(clock)
            }))
        wl_registry_add_listener(registry, registryListener.pointer, listenerData(self))
        // A second round trip for what the bound globals say first (each output's scale).
        try connection.roundtrip()
        try connection.roundtrip()
        var missing: [String] = []
        if compositor == nil { missing.append("wl_compositor") }
        if shm == nil { missing.append("wl_shm") }
        if wmBase == nil { missing.append("xdg_wm_base") }
        guard missing.isEmpty else {
            throw WaylandError(
                "the Wayland compositor does not offer \(missing.joined(separator: ", ")), which a window needs; "
                    + "use --backend x11")
        }
    }

    deinit {
        seat = nil
        for proxy in [
            tabletManager, fractionalScaleManager, viewporter, pointerGestures, presentation, activation,
            decorationManager, exporter,
            dataDeviceManager, wmBase, shm, compositor,
        ] {
            if let proxy { wl_proxy_destroy(proxy) }
        }
        wl_registry_destroy(registry)
    }

    private func announce(name: UInt32, interface: String, version: UInt32) {
        offered.append("\(interface) v\(version)")
        guard let handled = Self.versions[interface] else { return }
        let bound = cwayland_bind(registry, name, interface, min(version, handled)).map(OpaquePointer.init)
        switch interface {
        case "wl_compositor": compositor = compositor ?? bound
        case "wl_shm": shm = shm ?? bound
        case "wl_seat" where seat == nil:
            // The seat's devices are taken in its first events, after every global is bound (one round trip
            // later), so the pointer finds the gestures global if there is one.
            seat = bound.map { proxy in
                WaylandSeat(
                    connection: connection, seat: proxy, pointerGestures: { [weak self] in self?.pointerGestures },
                    tabletManager: { [weak self] in self?.tabletManager })
            }
        case "zwp_pointer_gestures_v1": pointerGestures = bound
        case "zwp_tablet_manager_v2": tabletManager = bound
        case "wp_viewporter": viewporter = bound
        case "wp_fractional_scale_manager_v1": fractionalScaleManager = bound
        case "wl_data_device_manager": dataDeviceManager = dataDeviceManager ?? bound
        case "xdg_wm_base":
            wmBase = bound
            if let bound { xdg_wm_base_add_listener(bound, wmBaseListener.pointer, nil) }
        case "zxdg_decoration_manager_v1": decorationManager = bound
        case "xdg_activation_v1": activation = bound
        case "zxdg_exporter_v2": exporter = bound
        case "wp_presentation":
            presentation = bound
            if let bound { wp_presentation_add_listener(bound, presentationListener.pointer, listenerData(self)) }
        case "wl_output": if let bound { outputs[name] = WaylandOutput(connection: connection, proxy: bound) }
        default:
            // A second seat: the host follows one, as most clients do.
            if let bound { wl_proxy_destroy(bound) }
        }
    }
}
