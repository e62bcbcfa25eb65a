import CCairo
import TouchKit
import TouchTracker

/// The file formats `touchtracker export` writes, each through Cairo's own surface for it.
public enum ExportFormat: String, CaseIterable, Sendable {
    case png
    case svg
    case pdf
}

/// Draws a document into a PNG, SVG or PDF file's bytes as the window shows it (white page, black round-capped
/// lines). The bytes are made in memory, through Cairo's stream surfaces, so the caller writes them the one way
/// the app writes files (`AtomicFile`): complete or not at all, through links, never over a planted file.
public enum DrawingExporter {
    /// The smallest canvas from the origin that holds every shape's stroke, and at least `minimum`.
    public static func canvasSize(
        for drawing: Drawing, lineWidth: Double = 10, minimum: (width: Int, height: Int) = (800, 600)
    ) -> (width: Int, height: Int) {
        var width = minimum.width
        var height = minimum.height
        for bounds in drawing.shapes.map({ $0.strokeBounds(defaultWidth: lineWidth) }) {
            guard bounds.maxX.isFinite, bounds.maxY.isFinite else { continue }
            width = max(width, Int(min(bounds.maxX.rounded(.up), 16384)))
            height = max(height, Int(min(bounds.maxY.rounded(.up), 16384)))
        }
        return (width, height)
    }

    /// White space `export` keeps around the whole drawing, in drawing units.
    public static let margin = 24.0

    /// The part of the drawing `export` draws by default: every shape's stroke with `margin` around it, in whole
    /// units, its sides at most 16384 (a larger drawing keeps its top-left part); an empty drawing's is the 800x600
    /// page from the origin.
    public static func wholeDrawing(_ drawing: Drawing, lineWidth: Double = 10) -> Rect {
        guard let bounds = ClipboardShapes.strokeBounds(of: drawing.shapes, defaultWidth: lineWidth) else {
            return Rect(x: 0, y: 0, width: 800, height: 600)
        }
        let minX = (bounds.minX - margin).rounded(.down)
        let minY = (bounds.minY - margin).rounded(.down)
        return Rect(
            x: minX, y: minY, width: min(16384, (bounds.maxX + margin).rounded(.up) - minX),
            height: min(16384, (bounds.maxY + margin).rounded(.up) - minY))
    }

    /// How many of `drawing`'s shapes have their path (a line's segment, a circle's box) reaching outside `area`.
    public static func shapesCutOff(in drawing: Drawing, area: Rect) -> Int {
        drawing.shapes.count { shape in
            let path: Rect
            switch shape {
            case .line(let line): path = Rect.bounding(line.begin, line.end)
            case .circle(let circle): path = circle.frame
            }
            return path.minX < area.minX || path.minY < area.minY || path.maxX > area.maxX || path.maxY > area.maxY
        }
    }

    /// `drawing` as a `format` file's bytes, on a `width` x `height` page in drawing units (SVG pixels and PDF
    /// points are the same number). A PNG has `scale` pixels per unit (2: a picture twice as sharp, of the same
    /// drawing); SVG and PDF are drawn in units, which scale without loss.
    public static func render(
        _ drawing: Drawing, format: ExportFormat, width: Int, height: Int, scale: Double = 1, lineWidth: Double = 10
    ) throws(CairoError) -> [UInt8] {
        try render(
            drawing, format: format, area: Rect(x: 0, y: 0, width: Double(width), height: Double(height)), scale: scale,
            lineWidth: lineWidth)
    }

    /// `drawing`'s `area` (drawing units, its corner the page's top-left) as a `format` file's bytes: a page of the
    /// area's size in units, a PNG `scale` pixels per unit.
    public static func render(
        _ drawing: Drawing, format: ExportFormat, area: Rect, scale: Double = 1, lineWidth: Double = 10
    ) throws(CairoError) -> [UInt8] {
        let width = max(1, Int(area.width.rounded()))
        let height = max(1, Int(area.height.rounded()))
        let sink = ByteSink()
        return try withExtendedLifetime(sink) { () throws(CairoError) -> [UInt8] in
            let surface: CairoSurface
            switch format {
            case .png:
                surface = try CairoSurface(
                    width: pixels(width, at: scale), height: pixels(height, at: scale))
            case .svg:
                surface = try CairoSurface(
                    taking: cairo_svg_surface_create_for_stream(
                        ByteSink.write, sink.context, Double(width), Double(height)),
                    operation: "cairo_svg_surface_create_for_stream")
                // Pixels, so the SVG's size reads as the window's.
                cairo_svg_surface_set_document_unit(surface.pointer, CAIRO_SVG_UNIT_PX)
            case .pdf:
                surface = try CairoSurface(
                    taking: cairo_pdf_surface_create_for_stream(
                        ByteSink.write, sink.context, Double(width), Double(height)),
                    operation: "cairo_pdf_surface_create_for_stream")
            }
            let context = try CairoContext(surface: surface)
            if format == .png { context.scale(by: scale) }
            context.translate(x: -area.minX, y: -area.minY)
            paint(drawing, in: context, area: area, lineWidth: lineWidth)
            try context.checkStatus("drawing the export")
            if format == .png { return try surface.pngBytes() }
            try surface.finish()
            return sink.bytes
        }
    }

    /// How many pixels `units` drawing units take at `scale` pixels per unit (at least one).
    public static func pixels(_ units: Int, at scale: Double) -> Int {
        max(1, Int((Double(units) * scale).rounded()))
    }

    /// Paints the white page, then every shape bottom to top (the lines oldest first, then the circles) in its
    /// colour (black by default).
    static func paint(_ drawing: Drawing, in context: CairoContext, area: Rect, lineWidth: Double) {
        context.save()
        context.setColor(.white)
        context.fill(area)
        for shape in drawing.shapes where shape.isStorable {
            context.strokeStyled(shape, defaultColor: .black, defaultWidth: lineWidth)
        }
        context.restore()
    }
}

/// Collects what a Cairo stream surface writes; Cairo finds it through the context pointer of its C callback.
private final class ByteSink {
    var bytes: [UInt8] = []

    /// The pointer Cairo hands back to `write` (the caller keeps the sink alive while the surface lives).
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    static let write: cairo_write_func_t = { context, data, length in
        guard let context, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(context).takeUnretainedValue()
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}
