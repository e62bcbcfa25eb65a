import TouchKit

/// Whole pixels of an image surface: the pixels a window rectangle touches, rounded out and cut to the surface.
/// (The platform rounds the rectangles it presents the same way.)
public struct PixelBox: Equatable, Sendable {
    public var x0, y0, x1, y1: Int

    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    init(_ rect: Rect, within surface: CairoSurface) {
        self.init(rect, width: surface.width, height: surface.height)
    }

    /// The pixels `rect` touches in a `width` x `height` image: empty for an empty or not finite rectangle.
    public init(_ rect: Rect, width: Int, height: Int) {
        guard !rect.isEmpty, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            self.init(x0: 0, y0: 0, x1: 0, y1: 0)
            return
        }
        let limitX = Double(width)
        let limitY = Double(height)
        self.init(
            x0: PixelRounding.floor(rect.minX, lower: 0, upper: limitX),
            y0: PixelRounding.floor(rect.minY, lower: 0, upper: limitY),
            x1: PixelRounding.ceil(rect.maxX, lower: 0, upper: limitX),
            y1: PixelRounding.ceil(rect.maxY, lower: 0, upper: limitY))
    }

    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }

    /// Whether `other` lies wholly inside this box.
    func contains(_ other: PixelBox) -> Bool {
        other.x0 >= x0 && other.y0 >= y0 && other.x1 <= x1 && other.y1 <= y1
    }

    func intersection(_ other: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, other.x0), y0: max(y0, other.y0), x1: min(x1, other.x1), y1: min(y1, other.y1))
    }
}
