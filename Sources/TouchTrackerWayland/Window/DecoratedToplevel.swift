internal import CWayland
import Glibc

/// The window's toplevel role through libdecor, for compositors that draw no decorations (GNOME): libdecor makes the
/// xdg-shell objects and draws a title bar with the window's buttons, resize edges and shadow around the surface
/// (its plugin, Debian's libdecor-0-plugin-1-cairo; none when fullscreen), or asks the compositor for its own where
/// it turns out to offer them. Its events come through the same `wl_display` queue the host's loop dispatches.
/// Owns the libdecor context and frame.
final class DecoratedToplevel: ToplevelRole {
    private let surface: OpaquePointer
    private let context: OpaquePointer
    private var frame: OpaquePointer?
    private let contextInterface: WaylandListener<libdecor_interface>
    private let frameInterface: WaylandListener<libdecor_frame_interface>
    private let report: (WaylandWindow.Change) -> Void
    private var isConfigured = false
    private var wantsMaximized = false
    /// The content size last committed (surface pixels), for configures that leave the size to the window.
    private var contentSize: (width: Int32, height: Int32)
    /// The content size while not maximized, to go back to.
    private var floatingContentSize: (width: Int32, height: Int32)

    /// Nil when libdecor cannot start here.
    init?(
        connection: WaylandConnection, surface: OpaquePointer, title: String, appID: String, width: Int, height: Int,
        report: @escaping (WaylandWindow.Change) -> Void
    ) {
        self.surface = surface
        self.report = report
        contentSize = (Int32(max(1, width)), Int32(max(1, height)))
        floatingContentSize = contentSize
        var contextCallbacks = libdecor_interface()
        contextCallbacks.error = { _, _, message in
            // libdecor's errors carry no user data: they go straight to stderr, in the app's voice.
            let text = "touchtracker: wayland: libdecor: \(message.map { String(cString: $0) } ?? "an error")\n"
            _ = Array(text.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
        }
        contextInterface = WaylandListener(contextCallbacks)
        var frameCallbacks = libdecor_frame_interface()
        frameCallbacks.configure = { frame, configuration, data in
            listenerOwner(data, as: DecoratedToplevel.self).configure(frame, configuration)
        }
        frameCallbacks.close = { _, data in listenerOwner(data, as: DecoratedToplevel.self).report(.closeRequested) }
        frameCallbacks.commit = { _, data in wl_surface_commit(listenerOwner(data, as: DecoratedToplevel.self).surface)
        }
        frameCallbacks.dismiss_popup = { _, _, _ in }
        frameInterface = WaylandListener(frameCallbacks)
        guard let context = libdecor_new(connection.display, contextInterface.pointer) else { return nil }
        self.context = context
        guard let frame = libdecor_decorate(context, surface, frameInterface.pointer, listenerData(self)) else {
            libdecor_unref(context)
            return nil
        }
        self.frame = frame
        libdecor_frame_set_title(frame, title)
        libdecor_frame_set_app_id(frame, appID)
        libdecor_frame_set_min_content_size(frame, 1, 1)
    }

    deinit {
        if let frame { libdecor_frame_unref(frame) }
        libdecor_unref(context)
    }

    var decorationDescription: String {
        "wayland: decorations drawn by libdecor (the compositor offers no xdg-decoration)"
    }

    func setMaximized() {
        // libdecor makes the xdg toplevel when the frame is mapped, and a state asked for before its first configure
        // is committed leaves libdecor's frame and the compositor disagreeing on the size (a protocol error under
        // weston): the wish waits for that first configure.
        guard isConfigured else {
            wantsMaximized = true
            return
        }
        if let frame { libdecor_frame_set_maximized(frame) }
    }

    func setTitle(_ title: String) {
        if let frame { libdecor_frame_set_title(frame, title) }
    }

    func map() {
        if let frame { libdecor_frame_map(frame) }
    }

    /// A configure: the content size (or the last one, when the compositor leaves it to the window) is committed to
    /// libdecor, which acknowledges it, and the host is told.
    private func configure(_ frame: OpaquePointer?, _ configuration: OpaquePointer?) {
        guard let frame, let configuration else { return }
        var width: Int32 = 0
        var height: Int32 = 0
        let sized = libdecor_configuration_get_content_size(configuration, frame, &width, &height)
        var state = LIBDECOR_WINDOW_STATE_NONE
        let maximized =
            libdecor_configuration_get_window_state(configuration, &state)
            && state.rawValue & LIBDECOR_WINDOW_STATE_MAXIMIZED.rawValue != 0
        if sized, width > 0, height > 0 {
            contentSize = (width, height)
        } else if !maximized {
            // Left to the window, as a restore from maximized is: the size it had before, not the maximized one.
            contentSize = floatingContentSize
        }
        if !maximized { floatingContentSize = contentSize }
        let committed = libdecor_state_new(contentSize.width, contentSize.height)
        libdecor_frame_commit(frame, committed, configuration)
        libdecor_state_free(committed)
        isConfigured = true
        if wantsMaximized {
            wantsMaximized = false
            libdecor_frame_set_maximized(frame)
        }
        report(.configured(width: Int(contentSize.width), height: Int(contentSize.height), maximized: maximized))
    }
}
