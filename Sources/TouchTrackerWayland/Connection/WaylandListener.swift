/// A C listener table (`struct xdg_surface_listener` and its kind) in memory of its own, owned by the Swift object
/// that listens: libwayland keeps the table's address for the proxy's life, so it must not move, and it is freed
/// with its owner, after the owner has destroyed the proxy.
final class WaylandListener<Table> {
    let pointer: UnsafeMutablePointer<Table>

    init(_ table: Table) {
        pointer = UnsafeMutablePointer<Table>.allocate(capacity: 1)
        pointer.initialize(to: table)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}

/// The object behind a listener's `data` pointer. Listeners are registered with an unretained pointer to their
/// owner, which destroys the proxy before it goes, so the pointer is always alive when libwayland calls back.
func listenerOwner<Owner: AnyObject>(_ data: UnsafeMutableRawPointer?, as _: Owner.Type) -> Owner {
    Unmanaged<Owner>.fromOpaque(data!).takeUnretainedValue()
}

/// The pointer to hand libwayland as a listener's `data`.
func listenerData(_ owner: AnyObject) -> UnsafeMutableRawPointer {
    Unmanaged.passUnretained(owner).toOpaque()
}
