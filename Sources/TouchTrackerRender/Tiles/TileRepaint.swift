import TouchKit
import TouchTracker

/// A partial repaint of a tile: its pixels as shown (nil: plain background) with `region` (window coordinates)
/// redrawn.
struct TileRepaint: Sendable {
    let base: PaintedTile?
    let region: [Rect]
}
