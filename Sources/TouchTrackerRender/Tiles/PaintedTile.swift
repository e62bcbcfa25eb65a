import CCairo
import TouchKit
import TouchTracker

/// A tile a painter finished: which tile, from which scene, and its pixels (nil: plain background), or that it
/// could not be painted (out of memory for its pixels).
///
/// `@unchecked Sendable` because it carries a `CairoSurface` (a C pointer) between threads, which Swift cannot
/// check: the painter creates the surface, draws it and lets go of it in the same step that hands it over under
/// the pool's lock, and from then on nobody writes to its pixels or calls Cairo on it. The event loop reads them
/// (composing the window), and a painter may read them too, as the base of the tile's next partial repaint
/// (`TileRepaint`), copying them (Cairo's getters only read the surface's fields); both only read.
final class PaintedTile: @unchecked Sendable {
    let key: TileKey
    let version: Int
    let surface: CairoSurface?
    /// The painter could not get the tile's pixels: `surface` means nothing, and the tile stays as it was.
    let failed: Bool

    init(key: TileKey, version: Int, surface: consuming CairoSurface?) {
        self.key = key
        self.version = version
        self.surface = surface
        failed = false
    }

    init(failedKey key: TileKey, version: Int) {
        self.key = key
        self.version = version
        surface = nil
        failed = true
    }
}
