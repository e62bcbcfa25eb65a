import CCairo
import TouchTracker

/// The whole pixels of a damage region as boxes that do not overlap: Cairo's region (pixman's y-x bands, each band's
/// boxes left to right, neighbours merged). A damage region's rectangles may overlap, which is harmless for
/// copying pixels but not for blending a line over them, and a long line's band of narrow slabs becomes, row by
/// row, one wider span (fewer and longer copies when tiles are restored under it).
struct PixelRegion {
    let boxes: [PixelBox]

    /// `region`'s rectangles rounded out to whole pixels and cut to `surface`.
    init(_ region: DamageRegion, within surface: CairoSurface) {
        var rects: [cairo_rectangle_int_t] = []
        rects.reserveCapacity(region.rects.count)
        let (width, height) = (surface.width, surface.height)
        for rect in region.rects {
            let box = PixelBox(rect, width: width, height: height)
            guard !box.isEmpty else { continue }
            rects.append(
                cairo_rectangle_int_t(
                    x: Int32(box.x0), y: Int32(box.y0), width: Int32(box.x1 - box.x0), height: Int32(box.y1 - box.y0)))
        }
        // The C region lives only in here: made, read and destroyed.
        guard !rects.isEmpty, let union = cairo_region_create_rectangles(rects, Int32(rects.count)) else {
            boxes = []
            return
        }
        defer { cairo_region_destroy(union) }
        guard cairo_region_status(union) == CAIRO_STATUS_SUCCESS else {
            // Out of memory: the rectangles as they are (overlaps only cost blending an edge twice).
            boxes = rects.map {
                PixelBox(x0: Int($0.x), y0: Int($0.y), x1: Int($0.x + $0.width), y1: Int($0.y + $0.height))
            }
            return
        }
        var boxes: [PixelBox] = []
        let count = Int(cairo_region_num_rectangles(union))
        boxes.reserveCapacity(count)
        for index in 0..<count {
            var rect = cairo_rectangle_int_t()
            cairo_region_get_rectangle(union, Int32(index), &rect)
            boxes.append(
                PixelBox(x0: Int(rect.x), y0: Int(rect.y), x1: Int(rect.x + rect.width), y1: Int(rect.y + rect.height)))
        }
        self.boxes = boxes
    }

    /// The smallest box holding every box.
    var bounds: PixelBox {
        guard let first = boxes.first else { return PixelBox(x0: 0, y0: 0, x1: 0, y1: 0) }
        return boxes.dropFirst().reduce(first) {
            PixelBox(x0: min($0.x0, $1.x0), y0: min($0.y0, $1.y0), x1: max($0.x1, $1.x1), y1: max($0.y1, $1.y1))
        }
    }
}
