import CWayland
import Glibc

/// The window: a `wl_surface` given the xdg-shell toplevel role, with the title, the `app_id` the desktop file is
/// named after (so the compositor shows the app's icon), a minimum size, and server-side decorations where the
/// compositor offers xdg-decoration. Owns the proxies and destroys them in one place.
///
/// The compositor decides the size: each `configure` proposes one (0 x 0: the client chooses) and is acknowledged
/// before the next commit, as xdg-shell requires. What it said reaches the host as `WindowChange`s.
final class WaylandWindow {
    enum Change {
        /// The compositor configured the window at `width` x `height` surface pixels (0: the client's choice).
        case configured(width: Int, height: Int, maximized: Bool)
        /// The person asked to close the window (its close button, a keyboard shortcut of the desktop).
        case closeRequested
        /// The window moved onto or off an output (the outputs it is on may have another scale).
        case outputsChanged
        /// The compositor prefers the window at this fractional scale (`wp_fractional_scale_v1`).
        case preferredScale(Double)
    }

    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    let surface: OpaquePointer
    private let xdgSurface: OpaquePointer
    private let toplevel: OpaquePointer
    private var decoration: OpaquePointer?
    /// Where fractional scaling is offered: the viewport that shows the buffer at the surface's size, and the object
    /// that says the preferred scale.
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    private let fractionalScaleListener: WaylandListener<wp_fractional_scale_v1_listener>
    private let wlSurfaceListener: WaylandListener<wl_surface_listener>
    private let surfaceListener: WaylandListener<xdg_surface_listener>
    private let toplevelListener: WaylandListener<xdg_toplevel_listener>
    private let decorationListener: WaylandListener<zxdg_toplevel_decoration_v1_listener>
    /// The last `configure`'s proposal, applied when its `xdg_surface.configure` arrives.
    private var proposed: (width: Int, height: Int, maximized: Bool) = (0, 0, false)
    /// What the compositor said since the host last looked.
    private(set) var changes: [Change] = []
    /// Whether the window has server-side decorations (nil until the compositor says; false without xdg-decoration).
    private(set) var serverDecorated: Bool?

    /// The outputs the window is on (`wl_output` proxies).
    private(set) var outputs: Set<OpaquePointer> = []

    /// The app's id: the desktop file's name without `.desktop`.
    static let appID = "touchtracker"

    init(connection: WaylandConnection, globals: WaylandGlobals, title: String) {
        self.connection = connection
        surface = wl_compositor_create_surface(globals.compositor)
        xdgSurface = xdg_wm_base_get_xdg_surface(globals.wmBase, surface)
        toplevel = xdg_surface_get_toplevel(xdgSurface)
        wlSurfaceListener = WaylandListener(
            wl_surface_listener(
                enter: { data, _, output in
                    guard let output else { return }
                    let window = listenerOwner(data, as: WaylandWindow.self)
                    window.outputs.insert(output)
                    window.changes.append(.outputsChanged)
                },
                leave: { data, _, output in
                    guard let output else { return }
                    let window = listenerOwner(data, as: WaylandWindow.self)
                    window.outputs.remove(output)
                    window.changes.append(.outputsChanged)
                }))
        surfaceListener = WaylandListener(
            xdg_surface_listener(configure: { data, xdgSurface, serial in
                xdg_surface_ack_configure(xdgSurface, serial)
                let window = listenerOwner(data, as: WaylandWindow.self)
                let proposed = window.proposed
                window.changes.append(
                    .configured(width: proposed.width, height: proposed.height, maximized: proposed.maximized))
            }))
        toplevelListener = WaylandListener(
            xdg_toplevel_listener(
                configure: { data, _, width, height, states in
                    listenerOwner(data, as: WaylandWindow.self).proposed = (
                        Int(width), Int(height), WaylandWindow.contains(states, XDG_TOPLEVEL_STATE_MAXIMIZED)
                    )
                },
                close: { data, _ in listenerOwner(data, as: WaylandWindow.self).changes.append(.closeRequested) },
                configure_bounds: { _, _, _, _ in },
                wm_capabilities: { _, _, _ in }))
        decorationListener = WaylandListener(
            zxdg_toplevel_decoration_v1_listener(configure: { data, _, mode in
                listenerOwner(data, as: WaylandWindow.self).serverDecorated =
                    mode == ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue
            }))
        fractionalScaleListener = WaylandListener(
            wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
                listenerOwner(data, as: WaylandWindow.self).changes.append(.preferredScale(Double(scale) / 120))
            }))
        wl_surface_add_listener(surface, wlSurfaceListener.pointer, listenerData(self))
        xdg_surface_add_listener(xdgSurface, surfaceListener.pointer, listenerData(self))
        if let viewporter = globals.viewporter, let manager = globals.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractionalScale, fractionalScaleListener.pointer, listenerData(self))
        }
        xdg_toplevel_add_listener(toplevel, toplevelListener.pointer, listenerData(self))
        xdg_toplevel_set_title(toplevel, title)
        xdg_toplevel_set_app_id(toplevel, Self.appID)
        xdg_toplevel_set_min_size(toplevel, 1, 1)
        if let manager = globals.decorationManager {
            let decoration = zxdg_decoration_manager_v1_get_toplevel_decoration(manager, toplevel)!
            zxdg_toplevel_decoration_v1_add_listener(decoration, decorationListener.pointer, listenerData(self))
            zxdg_toplevel_decoration_v1_set_mode(decoration, ZXDG_TOPLEVEL_DECORATION_V1_MODE_SERVER_SIDE.rawValue)
            self.decoration = decoration
        } else {
            serverDecorated = false
        }
    }

    deinit {
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        if let decoration { zxdg_toplevel_decoration_v1_destroy(decoration) }
        xdg_toplevel_destroy(toplevel)
        xdg_surface_destroy(xdgSurface)
        wl_surface_destroy(surface)
    }

    /// Asks for the window maximized (the person left it so last time); the compositor answers with a configure.
    func setMaximized() {
        xdg_toplevel_set_maximized(toplevel)
    }

    /// Whether the compositor can be given a fractional scale (it offers both protocols).
    var canUseViewport: Bool { viewport != nil }

    /// Buffers from the next commit on are at `scale` for a surface of `width` x `height` surface pixels.
    func apply(_ scale: SurfaceScale, width: Int, height: Int) {
        wl_surface_set_buffer_scale(surface, scale.bufferScale)
        guard let viewport else { return }
        if scale.usesViewport {
            wp_viewport_set_destination(viewport, Int32(width), Int32(height))
        } else {
            // -1, -1 unsets the destination: the buffer scale alone decides.
            wp_viewport_set_destination(viewport, -1, -1)
        }
    }

    /// The first commit, with no buffer: the compositor answers it with the first configure.
    func commitInitialState() {
        wl_surface_commit(surface)
    }

    var hasChanges: Bool { !changes.isEmpty }

    /// Hands over what the compositor said since the last call.
    func takeChanges() -> [Change] {
        defer { changes.removeAll() }
        return changes
    }

    /// Whether a configure's `states` array holds `state`.
    private static func contains(_ states: UnsafeMutablePointer<wl_array>?, _ state: xdg_toplevel_state) -> Bool {
        guard let states, let data = states.pointee.data else { return false }
        let count = states.pointee.size / MemoryLayout<UInt32>.size
        let values = data.bindMemory(to: UInt32.self, capacity: count)
        return (0..<count).contains { values[$0] == state.rawValue }
    }
}
