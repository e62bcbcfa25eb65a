import CMalloc

/// glibc's allocator, set for a window that stays open for hours with threads that come and go.
///
/// By default every thread that allocates may get an arena of its own (up to eight per processor), and memory freed
/// in an arena stays with the process: the document reader, each save's encoder, the painters and the fonts'
/// loader each left megabytes resident after their work was done (the Wayland host held 29–31 MB of anonymous
/// memory with 100,000 lines, 22 MB with this). And after the first large block is freed glibc raises its mmap
/// threshold up to 32 MB, so the tiles' pixels (256 KB each) and a save's bytes then come from arenas and stay
/// there too.
enum MemoryPolicy {
    /// For the drawing window: two arenas (the loop's and one the workers share), and blocks of 128 KB and more
    /// (every tile's pixels) mapped on their own and given back when freed.
    static func applyForWindow() {
        _ = mallopt(M_ARENA_MAX, 2)
        _ = mallopt(M_MMAP_THRESHOLD, 128 * 1024)
    }
}
