internal import CWayland
import Glibc

/// The window: a `wl_surface` with a toplevel role (`ToplevelRole`: xdg-shell directly with the compositor's
/// decorations through xdg-decoration where it offers them, else through libdecor, which draws them itself), the
/// outputs it is on and, where offered, fractional scaling. Owns the proxies and destroys them in one place.
///
/// The compositor decides the size: each configure proposes one (0 x 0: the client chooses) and is acknowledged
/// before the next commit, as xdg-shell requires. What it said reaches the host as `Change`s.
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
        /// The compositor answered the request for its decorations (xdg-decoration): what the window has now, said
        /// as `decorationDescription` says it.
        case decorationsDecided(String)
    }

    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    let surface: OpaquePointer
    /// The toplevel role; nil only while the window is being torn down.
    private var role: (any ToplevelRole)?
    /// Where fractional scaling is offered: the viewport that shows the buffer at the surface's size, and the object
    /// that says the preferred scale.
    private var viewport: OpaquePointer?
    private var fractionalScale: OpaquePointer?
    private let fractionalScaleListener: WaylandListener<wp_fractional_scale_v1_listener>
    private let wlSurfaceListener: WaylandListener<wl_surface_listener>
    /// What the compositor said since the host last looked.
    private(set) var changes: [Change] = []

    /// The outputs the window is on (`wl_output` proxies).
    private(set) var outputs: Set<OpaquePointer> = []

    /// The app's id: the desktop file's name without `.desktop`.
    static let appID = "touchtracker"

    /// Makes the window, `width` x `height` surface pixels until the compositor says otherwise.
    init(connection: WaylandConnection, globals: WaylandGlobals, title: String, width: Int, height: Int) {
        self.connection = connection
        surface = wl_compositor_create_surface(globals.compositor)
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
        fractionalScaleListener = WaylandListener(
            wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in
                listenerOwner(data, as: WaylandWindow.self).changes.append(.preferredScale(Double(scale) / 120))
            }))
        wl_surface_add_listener(surface, wlSurfaceListener.pointer, listenerData(self))
        if let viewporter = globals.viewporter, let manager = globals.fractionalScaleManager {
            viewport = wp_viewporter_get_viewport(viewporter, surface)
            fractionalScale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface)
            wp_fractional_scale_v1_add_listener(fractionalScale, fractionalScaleListener.pointer, listenerData(self))
        }
        let report: (Change) -> Void = { [unowned self] change in changes.append(change) }
        // The compositor's own decorations where it offers them (KDE, sway); else libdecor draws them (GNOME offers
        // none); a window without decorations only when libdecor cannot start.
        if globals.decorationManager == nil,
            let decorated = DecoratedToplevel(
                connection: connection, surface: surface, title: title, appID: Self.appID, width: width,
                height: height, report: report)
        {
            role = decorated
        } else {
            role = XdgToplevel(globals: globals, surface: surface, title: title, appID: Self.appID, report: report)
        }
    }

    deinit {
        role = nil
        if let fractionalScale { wp_fractional_scale_v1_destroy(fractionalScale) }
        if let viewport { wp_viewport_destroy(viewport) }
        wl_surface_destroy(surface)
    }

    /// How the window is decorated, for `--verbose`.
    var decorationDescription: String { role?.decorationDescription ?? "" }

    /// Retitles the window (`xdg_toplevel.set_title`, or libdecor's title bar).
    func setTitle(_ title: String) { role?.setTitle(title) }

    /// Asks for the window maximized (the person left it so last time); the compositor answers with a configure.
    func setMaximized() {
        role?.setMaximized()
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

    /// Maps the window: the first commit, with no buffer, which the compositor answers with the first configure.
    func commitInitialState() {
        role?.map()
    }

    var hasChanges: Bool { !changes.isEmpty }

    /// Hands over what the compositor said since the last call.
    /// Forgets `output`, which is going away (its proxy is destroyed next): the window is on it no more, and its
    /// scale is chosen again from the outputs left.
    func forget(output: OpaquePointer) {
        guard outputs.remove(output) != nil else { return }
        changes.append(.outputsChanged)
    }

    func takeChanges() -> [Change] {
        defer { changes.removeAll() }
        return changes
    }
}
