import CMalloc

/// glibc's allocator, set for a window that stays open for hours.
///
/// After the first large block is freed, glibc raises its mmap threshold (up to 32 MB), so from then on the tiles'
/// pixels (256 KB each) and other large blocks come from the arenas, and what is freed there stays with the
/// process. With 100,000 lines the Wayland host held 29–31 MB of anonymous memory after a stroke; with the
/// threshold fixed, 24 MB. Two arenas instead of glibc's eight per processor saved no more than that, and the
/// painters then waited on each other's allocations (every tile of 100,000 lines painted 0.71× one painter's time
/// with two, against 0.56×).
enum MemoryPolicy {
    /// For the drawing window: blocks of 128 KB and more (every tile's pixels) are mapped on their own and given
    /// back to the system when freed.
    static func applyForWindow() {
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }
}
