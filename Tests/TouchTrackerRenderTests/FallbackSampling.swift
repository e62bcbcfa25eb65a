import TouchKit

@testable import TouchTrackerRender

/// The tests' reference for `FallbackTiles.paintScaled`: the nearest-pixel rule written as a pixel loop (the window
/// pixel's centre, scaled, picks the tile pixel), which the renderer drew the stand-ins with before Cairo did.
extension FallbackTiles {
    /// The reference for `paintScaled`: draws into `box` of `target` (window pixels; the window's top-left corner is the tile pixel `origin` of the
    /// zoom `pixelsPerUnit` shown now) these tiles scaled to that zoom, and `background` where they have none.
    func sample(
        into target: ImagePixels, box: PixelBox, origin: (x: Int, y: Int), pixelsPerUnit: Double,
        background: Color
    ) {
        let ratio = self.pixelsPerUnit / pixelsPerUnit
        let x0 = max(box.x0, 0)
        let x1 = min(box.x1, target.width)
        let y0 = max(box.y0, 0)
        let y1 = min(box.y1, target.height)
        guard x1 > x0, y1 > y0, ratio.isFinite, ratio > 0 else { return }
        let size = grid.size
        let word = background.opaqueWord
        // For each window column, the column inside the tile it samples; and the runs of window columns that sample
        // one tile column, each with that column.
        var inside = [Int](repeating: 0, count: x1 - x0)
        var runs: [(column: Int, start: Int, end: Int)] = []
        for x in x0..<x1 {
            let pixel = Self.sample(x + origin.x, ratio: ratio)
            let column = grid.index(of: pixel)
            inside[x - x0] = pixel - column * size
            if let last = runs.last, last.column == column {
                runs[runs.count - 1].end = x - x0 + 1
            } else {
                runs.append((column, x - x0, x - x0 + 1))
            }
        }
        // Each run's tile in the tile row sampled now, looked up once per tile row (not per window row: a lookup
        // hashes a key and asks Cairo for the surface's memory four times).
        var tileRow = Int.min
        var runPixels = [ImagePixels?](repeating: nil, count: runs.count)
        var lastRow: Int?
        inside.withUnsafeBufferPointer { inside in
            for y in y0..<y1 {
                let pixelRow = Self.sample(y + origin.y, ratio: ratio)
                let out = (target.data + y * target.stride + x0 * 4).assumingMemoryBound(to: UInt32.self)
                if pixelRow == lastRow {
                    out.update(from: out - target.stride / 4, count: x1 - x0)
                    continue
                }
                lastRow = pixelRow
                let row = grid.index(of: pixelRow)
                if row != tileRow {
                    tileRow = row
                    for (index, run) in runs.enumerated() {
                        runPixels[index] = tiles[TileKey(column: run.column, row: row)]?.surface.flatMap(
                            ImagePixels.init)
                    }
                }
                let insideRow = pixelRow - row * size
                for (index, run) in runs.enumerated() {
                    guard let pixels = runPixels[index] else {
                        (out + run.start).update(repeating: word, count: run.end - run.start)
                        continue
                    }
                    let source = UnsafePointer(
                        (pixels.data + insideRow * pixels.stride).assumingMemoryBound(to: UInt32.self))
                    for x in run.start..<run.end { out[x] = source[inside[x]] | 0xFF00_0000 }
                }
            }
        }
    }

    /// The pixel of these tiles nearest to the centre of the pixel `pixel` shown now.
    private static func sample(_ pixel: Int, ratio: Double) -> Int {
        Int(((Double(pixel) + 0.5) * ratio).rounded(.down))
    }
}
