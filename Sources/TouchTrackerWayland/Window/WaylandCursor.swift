internal import CWayland
import Glibc

/// The arrow shown while the pointer is over the window: on Wayland the client sets the pointer's image at every
/// `enter` (a client that does not leaves whatever image the pointer had). The desktop's cursor theme and size
/// (`XCURSOR_THEME`, `XCURSOR_SIZE`, as GTK and Qt read them) through libwayland-cursor, which falls back to its
/// own arrow when no theme is installed. Owns the theme and the cursor's surface.
final class WaylandCursor {
    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    private let theme: OpaquePointer
    private let surface: OpaquePointer
    private let hotspot: (x: Int32, y: Int32)

    init?(connection: WaylandConnection, compositor: OpaquePointer, shm: OpaquePointer, environment: [String: String]) {
        let size = environment["XCURSOR_SIZE"].flatMap(Int32.init).flatMap { (8...256).contains($0) ? $0 : nil } ?? 24
        guard let theme = wl_cursor_theme_load(environment["XCURSOR_THEME"], size, shm) else { return nil }
        guard
            let cursor = wl_cursor_theme_get_cursor(theme, "default") ?? wl_cursor_theme_get_cursor(theme, "left_ptr"),
            cursor.pointee.image_count > 0, let image = cursor.pointee.images[0],
            let buffer = wl_cursor_image_get_buffer(image), let surface = wl_compositor_create_surface(compositor)
        else {
            wl_cursor_theme_destroy(theme)
            return nil
        }
        self.connection = connection
        self.theme = theme
        self.surface = surface
        hotspot = (Int32(image.pointee.hotspot_x), Int32(image.pointee.hotspot_y))
        wl_surface_attach(surface, buffer, 0, 0)
        wl_surface_damage_buffer(surface, 0, 0, Int32(image.pointee.width), Int32(image.pointee.height))
        wl_surface_commit(surface)
    }

    deinit {
        wl_surface_destroy(surface)
        // The theme owns the cursor's buffer.
        wl_cursor_theme_destroy(theme)
    }

    /// Shows the arrow for `pointer`, answering its `enter` with `serial`.
    func show(on pointer: OpaquePointer, serial: UInt32) {
        wl_pointer_set_cursor(pointer, serial, surface, hotspot.x, hotspot.y)
    }
}
