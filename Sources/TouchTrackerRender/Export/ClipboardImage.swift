import CCairo
import TouchKit
import TouchTracker

/// A picture of shapes cropped to what is drawn: the shapes as the window draws them — white page, round-capped
/// strokes in their own colours and widths — cut to their strokes plus a margin, and scaled down to at most a
/// largest side. The PNG Ctrl+C offers (`image/png`), so a paste into a chat or a document shows the drawing and not
/// an empty window around it; and a file manager's thumbnail (`DrawingThumbnail`).
public enum ClipboardImage {
    /// White space the clipboard's picture keeps around the strokes, in drawing units.
    public static let margin = 16.0
    /// The longest side the clipboard's picture may have; a larger drawing is scaled down to fit (a copy of shapes
    /// thousands of units apart should not make a gigabyte image).
    public static let maximumSide = 4096

    /// Where the image's top left pixel lies in the drawing, and how many drawing units one image pixel spans.
    public struct Placement: Equatable, Sendable {
        public var origin: Point
        public var scale: Double
        public var width: Int
        public var height: Int
    }

    /// How `drawing`'s shapes are cropped (`margin` around their strokes) and scaled (to at most `maximumSide`
    /// pixels a side, never up); nil when it has no shapes.
    public static func placement(
        of drawing: Drawing, lineWidth: Double, margin: Double = margin, maximumSide: Int = maximumSide
    ) -> Placement? {
        guard let bounds = ClipboardShapes.strokeBounds(of: drawing.shapes, defaultWidth: lineWidth) else {
            return nil
        }
        let minX = (bounds.minX - margin).rounded(.down)
        let minY = (bounds.minY - margin).rounded(.down)
        let width = (bounds.maxX + margin).rounded(.up) - minX
        let height = (bounds.maxY + margin).rounded(.up) - minY
        let scale = max(1, max(width, height) / Double(max(1, maximumSide)))
        return Placement(
            origin: Point(x: minX, y: minY), scale: scale,
            width: min(maximumSide, max(1, Int((width / scale).rounded(.up)))),
            height: min(maximumSide, max(1, Int((height / scale).rounded(.up)))))
    }

    /// The clipboard's PNG file's bytes. Strokes every shape: linear in the drawing, seconds at 100,000 lines at
    /// full size, so call it off the event loop.
    public static func png(of drawing: Drawing, lineWidth: Double) throws(CairoError) -> [UInt8] {
        try png(
            of: drawing,
            placement: placement(of: drawing, lineWidth: lineWidth)
                ?? Placement(origin: .zero, scale: 1, width: 1, height: 1), lineWidth: lineWidth)
    }

    /// The PNG of `drawing`'s shapes placed as `placement` says, each stroke at least `minimumPixels` pixels wide.
    static func png(
        of drawing: Drawing, placement: Placement, lineWidth: Double, minimumPixels: Double = 0
    ) throws(CairoError) -> [UInt8] {
        let surface = try CairoSurface(width: placement.width, height: placement.height)
        let context = try CairoContext(surface: surface)
        context.paint(solid: .white)
        cairo_scale(context.pointer, 1 / placement.scale, 1 / placement.scale)
        context.translate(x: -placement.origin.x, y: -placement.origin.y)
        let narrowest = minimumPixels * placement.scale
        for shape in drawing.shapes where shape.isStorable {
            context.setColor(shape.color.map(Color.init) ?? .black)
            context.stroke(shape, width: max(narrowest, shape.width ?? lineWidth))
        }
        try context.checkStatus("drawing a cropped picture")
        return try surface.pngBytes()
    }
}
