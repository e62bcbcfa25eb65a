internal import CWayland

/// One of the compositor's outputs (a screen), for its scale: device pixels per surface pixel on it. Owns the proxy.
final class WaylandOutput {
    let proxy: OpaquePointer
    /// Held so the connection is closed only after this object's proxy is destroyed.
    private let connection: WaylandConnection
    private let listener: WaylandListener<wl_output_listener>
    /// The scale once the compositor said (`done`); 1 until then.
    private(set) var scale: Int32 = 1
    private var pendingScale: Int32 = 1
    /// The output's name, for `--verbose` (its model, as the compositor describes it).
    private(set) var name = "output"

    init(connection: WaylandConnection, proxy: OpaquePointer) {
        self.connection = connection
        self.proxy = proxy
        listener = WaylandListener(
            wl_output_listener(
                geometry: { data, _, _, _, _, _, _, _, model, _ in
                    if let model { listenerOwner(data, as: WaylandOutput.self).name = String(cString: model) }
                },
                mode: { _, _, _, _, _, _ in },
                done: { data, _ in
                    let output = listenerOwner(data, as: WaylandOutput.self)
                    output.scale = max(1, output.pendingScale)
                },
                scale: { data, _, factor in listenerOwner(data, as: WaylandOutput.self).pendingScale = factor },
                name: { _, _, _ in }, description: { _, _, _ in }))
        wl_output_add_listener(proxy, listener.pointer, listenerData(self))
    }

    deinit {
        wl_output_destroy(proxy)
    }
}
