internal import CWayland

/// The window exported through xdg-foreign (`zxdg_exporter_v2.export_toplevel`), where the compositor offers it: the
/// handle it sends is what the desktop's file dialog is given as its parent (`wayland:HANDLE`), so the compositor
/// keeps the dialog above this window. Owns the `zxdg_exported_v2` and destroys it (which unexports the window).
final class ExportedToplevel {
    /// Held so the connection is closed only after the proxy is destroyed.
    private let connection: WaylandConnection
    private let exported: OpaquePointer
    private let listener: WaylandListener<zxdg_exported_v2_listener>
    private let onHandle: (String) -> Void

    /// Nil where the compositor offers no exporter; `onHandle` gets the handle when the compositor sends it.
    init?(
        connection: WaylandConnection, globals: WaylandGlobals, surface: OpaquePointer,
        onHandle: @escaping (String) -> Void
    ) {
        guard let exporter = globals.exporter, let exported = zxdg_exporter_v2_export_toplevel(exporter, surface)
        else { return nil }
        self.connection = connection
        self.exported = exported
        self.onHandle = onHandle
        listener = WaylandListener(
            zxdg_exported_v2_listener(handle: { data, _, handle in
                guard let handle else { return }
                listenerOwner(data, as: ExportedToplevel.self).onHandle(String(cString: handle))
            }))
        zxdg_exported_v2_add_listener(exported, listener.pointer, listenerData(self))
    }

    deinit {
        zxdg_exported_v2_destroy(exported)
    }
}
