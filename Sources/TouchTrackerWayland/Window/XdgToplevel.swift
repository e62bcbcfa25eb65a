internal import CWayland

/// The window's toplevel role through xdg-shell directly, with the compositor's decorations through xdg-decoration
/// where it offers them. Owns the xdg proxies.
final class XdgToplevel: ToplevelRole {
    private let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private var decoration: OpaquePointer?
    private let surfaceListener: WaylandListener<xdg_surface_listener>
    private let toplevelListener: WaylandListener<xdg_toplevel_listener>
    private let decorationListener: WaylandListener<zxdg_toplevel_decoration_v1_listener>
    private let report: (WaylandWindow.Change) -> Void
    /// The last `configure`'s proposal, applied when its `xdg_surface.configure` arrives.
    private var proposed: (width: Int, height: Int, maximized: Bool) = (0, 0, false)
    /// Whether the compositor draws the decorations (nil until it says).
    private var serverDecorated: Bool?

    init(
        globals: WaylandGlobals, surface: OpaquePointer, title: String, appID: String,
        report: @escaping (WaylandWindow.Change) -> Void
    ) {
        self.surface = surface
        self.report = report
        xdgSurface = xdg_wm_base_get_xdg_surface(globals.wmBase, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        surfaceListener = WaylandListener(
            xdg_surface_listener(configure: { data, xdgSurface, serial in
                xdg_surface_ack_configure(xdgSurface, serial)
                let role = listenerOwner(data, as: XdgToplevel.self)
                let proposed = role.proposed
                role.report(.configured(width: proposed.width, height: proposed.height, maximized: proposed.maximized))
            }))
        toplevelListener = WaylandListener(
            xdg_toplevel_listener(
                configure: { data, _, width, height, states in
                    listenerOwner(data, as: XdgToplevel.self).proposed = (
                        Int(width), Int(height), XdgToplevel.contains(states, XDG_TOPLEVEL_STATE_MAXIMIZED)
                    )
                },
                close: { data, _ in listenerOwner(data, as: XdgToplevel.self).report(.closeRequested) },
                configure_bounds: { _, _, _, _ in },
                wm_capabilities: { _, _, _ in }))
        decorationListener = WaylandListener(
            zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
                let role = listenerOwner(data, as: XdgToplevel.self)
                let server = mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
                guard role.serverDecorated != server else { return }
                role.serverDecorated = server
                // The answer comes after the window is described (with its first configure): said when it comes.
                role.report(.decorationsDecided(role.decorationDescription))
            }))
        xdg_surface_add_listener(xdgSurface, surfaceListener.pointer, listenerData(self))
        xdg_toplevel_add_listener(toplevel, toplevelListener.pointer, listenerData(self))
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, appID)
        xdg_toplevel_set_min_size(toplevel, 1, 1)
        if let manager = globals.decorationManager {
            let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)!
            zxdg_toplevel_decoration_v1_add_listener(decoration, decorationListener.pointer, listenerData(self))
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
            self.decoration = decoration
        }
    }

    deinit {
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
    }

    func setTitle(_ title: String) { xdg_toplevel_set_title(toplevel, title) }

    var decorationDescription: String {
        switch (decoration, serverDecorated) {
        case (nil, _): "wayland: no decorations (the compositor offers no xdg-decoration and libdecor cannot start)"
        case (_, true?): "wayland: decorations drawn by the compositor (xdg-decoration)"
        case (_, false?): "wayland: the compositor asked the window to draw its own decorations; it draws none"
        case (_, nil): "wayland: decorations asked of the compositor (xdg-decoration)"
        }
    }

    func setMaximized() {
        xdg_toplevel_set_maximized(toplevel)
    }

    func map() {
        wl_surface_commit(surface)
    }

    /// Whether a configure's `states` array holds `state`.
    private static func contains(_ states: UnsafeMutablePointer<wl_array>?, _ state: xdg_toplevel_state) -> Bool {
        guard let states, let data = states.pointee.data else { return false }
        let count = states.pointee.size / MemoryLayout<UInt32>.size
        let values = data.bindMemory(to: UInt32.self, capacity: count)
        return (0..<count).contains { values[$0] == state.rawValue }
    }
}
