import CCairo
import TouchKit
import TouchTracker

/// The PNG Ctrl+C offers (`image/png`): the copied shapes as the window draws them — white page, black
/// round-capped strokes in their own colours and widths — cropped to their strokes plus a margin, so a paste into
/// a chat or a document shows the drawing and not an empty window around it.
public enum ClipboardImage {
    /// White space kept around the strokes, in pixels.
    public static let margin = 16.0
    /// The longest side the image may have; a larger drawing is scaled down to fit (a copy of shapes thousands of
    /// pixels apart should not make a gigabyte image).
    public static let maximumSide = 4096

    /// Where the image's top left pixel lies on the canvas, and how many canvas pixels one image pixel spans.
    public struct Placement: Equatable, Sendable {
        public var origin: Point
        public var scale: Double
        public var width: Int
        public var height: Int
    }

    /// How `drawing`'s shapes are cropped and scaled; nil when it has no shapes.
    public static func placement(of drawing: Drawing, lineWidth: Double) -> Placement? {
        guard let bounds = ClipboardShapes.strokeBounds(of: drawing.shapes, defaultWidth: lineWidth) else {
            return nil
        }
        let minX = (bounds.minX - margin).rounded(.down)
        let minY = (bounds.minY - margin).rounded(.down)
        let width = (bounds.maxX + margin).rounded(.up) - minX
        let height = (bounds.maxY + margin).rounded(.up) - minY
        let scale = max(1, max(width, height) / Double(maximumSide))
        return Placement(
            origin: Point(x: minX, y: minY), scale: scale, width: max(1, Int((width / scale).rounded(.up))),
            height: max(1, Int((height / scale).rounded(.up))))
    }

    /// The PNG file's bytes. Strokes every shape: linear in the drawing, seconds at 100,000 lines, so call it off
    /// the event loop.
    public static func png(of drawing: Drawing, lineWidth: Double) throws(CairoError) -> [UInt8] {
        let placement =
            placement(of: drawing, lineWidth: lineWidth)
            ?? Placement(origin: .zero, scale: 1, width: 1, height: 1)
        let surface = try CairoSurface(width: placement.width, height: placement.height)
        let context = try CairoContext(surface: surface)
        context.setColor(.white)
        context.fill(Rect(x: 0, y: 0, width: Double(placement.width), height: Double(placement.height)))
        cairo_scale(context.pointer, 1 / placement.scale, 1 / placement.scale)
        context.translate(x: -placement.origin.x, y: -placement.origin.y)
        for shape in drawing.shapes where shape.isStorable {
            context.strokeStyled(shape, defaultColor: .black, defaultWidth: lineWidth)
        }
        try context.checkStatus("drawing the clipboard's image")
        return try surface.pngBytes()
    }
}
