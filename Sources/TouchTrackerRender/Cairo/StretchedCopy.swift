import CCairo

extension CairoSurface {
    /// A `width` x `height` screen surface holding `source` drawn `factor` times as large from the top-left corner
    /// (each pixel the nearest source pixel), on `background` where it does not reach: the picture a window showed,
    /// held up at a new scale until it is painted again. Pixels only, no shape stroked: it is made on the event loop
    /// at a change of scale, so each pixel is written once, a row repeated by a copy of the row above it.
    static func stretched(
        _ source: CairoSurface, by factor: Double, width: Int, height: Int, over background: Color
    ) throws(CairoError) -> CairoSurface {
        let surface = try CairoSurface(width: width, height: height, format: .screen)
        source.flush()
        surface.flush()
        guard let from = ImagePixels(source), let to = ImagePixels(surface), factor.isFinite, factor > 0 else {
            return surface
        }
        // Where the stretched picture reaches, and for each target column the source column it shows.
        let reach = (
            width: min(width, Int((Double(from.width) * factor).rounded(.down))),
            height: min(height, Int((Double(from.height) * factor).rounded(.down)))
        )
        let columns = (0..<reach.width).map { min(from.width - 1, Int(Double($0) / factor)) }
        var shownRow = -1
        for y in 0..<reach.height {
            let sourceRow = min(from.height - 1, Int(Double(y) / factor))
            let target = (to.data + y * to.stride).assumingMemoryBound(to: UInt32.self)
            if sourceRow == shownRow {
                target.update(from: target - to.stride / 4, count: reach.width)
                continue
            }
            shownRow = sourceRow
            let row = UnsafePointer((from.data + sourceRow * from.stride).assumingMemoryBound(to: UInt32.self))
            for (x, column) in columns.enumerated() { target[x] = row[column] | 0xFF00_0000 }
        }
        // The background where the picture does not reach (a smaller scale, or a larger window).
        to.fill(PixelBox(x0: reach.width, y0: 0, x1: width, y1: reach.height), with: background)
        to.fill(PixelBox(x0: 0, y0: reach.height, x1: width, y1: height), with: background)
        surface.markDirty()
        return surface
    }
}
