import TouchKit
import TouchTracker

/// A drawing as a file manager's thumbnail: the picture Ctrl+C offers (`ClipboardImage`: cropped to the strokes
/// with a margin, the shapes as the window draws them), at most `maximumSide` pixels a side, never scaled up. An
/// empty drawing is a blank page of the window's default shape (4:3). A stroke thinner than a pixel and a half at
/// that size is drawn that wide (so wherever it falls, a pixel of it is mostly covered): the drawing shows rather
/// than fading to grey. Each shape is stroked on its own: a path of many shapes costs Cairo's stroker far more
/// (tens of seconds for 100,000 lines in one), and one by one a 100,000-line drawing takes about 0.3 s of processor
/// time at 256 pixels.
public enum DrawingThumbnail {
    /// White space kept around the strokes, in drawing units.
    public static let margin = 8.0

    /// The PNG file's bytes: at most `maximumSide` pixels a side (1 or more).
    public static func png(of drawing: Drawing, maximumSide: Int, lineWidth: Double = 10) throws(CairoError) -> [UInt8]
    {
        let side = max(1, maximumSide)
        let placement =
            ClipboardImage.placement(of: drawing, lineWidth: lineWidth, margin: margin, maximumSide: side)
            ?? ClipboardImage.Placement(
                origin: .zero, scale: max(1, 800 / Double(side)), width: min(side, 800), height: min(side, 800) * 3 / 4)
        return try ClipboardImage.png(of: drawing, placement: placement, lineWidth: lineWidth, minimumPixels: 1.5)
    }
}
