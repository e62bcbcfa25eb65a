import CCairo
import Foundation
import TouchKit
import TouchTracker

/// The file formats `touchtracker export` writes, each through Cairo's own surface for it.
public enum ExportFormat: String, CaseIterable, Sendable {
    case png
    case svg
    case pdf
}

/// Draws a document into a PNG, SVG or PDF file as the window shows it (white page, black round-capped lines).
///
/// The file appears complete or not at all: Cairo writes a temporary file in the same folder, which is renamed over
/// the target only once Cairo reports success.
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

    /// Writes `drawing` as `format` to `path` on a `width` x `height` page (pixels; PDF points are the same number).
    public static func export(
        _ drawing: Drawing, format: ExportFormat, to path: String, width: Int, height: Int, lineWidth: Double = 10
    ) throws(CairoError) {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid())"
        do {
            let surface: CairoSurface
            switch format {
            case .png:
                surface = try CairoSurface(width: width, height: height)
            case .svg:
                surface = try CairoSurface(
                    taking: cairo_svg_surface_create(temporary, Double(width), Double(height)),
                    operation: "cairo_svg_surface_create(\(path))")
                // Pixels, so the SVG's size reads as the window's.
                cairo_svg_surface_set_document_unit(surface.pointer, CAIRO_SVG_UNIT_PX)
            case .pdf:
                surface = try CairoSurface(
                    taking: cairo_pdf_surface_create(temporary, Double(width), Double(height)),
                    operation: "cairo_pdf_surface_create(\(path))")
            }
            let context = try CairoContext(surface: surface)
            paint(drawing, in: context, width: width, height: height, lineWidth: lineWidth)
            try context.checkStatus("drawing the export")
            if format == .png {
                try surface.writePNG(to: temporary)
            } else {
                try surface.finish()
            }
        } catch {
            unlink(temporary)
            throw error
        }
        if rename(temporary, path) != 0 {
            let problem = String(cString: strerror(errno))
            unlink(temporary)
            throw CairoError("renaming the export to \(path)", problem: problem)
        }
    }

    /// Paints the white page, then every shape bottom to top (the lines oldest first, then the circles) in its
    /// colour (black by default).
    static func paint(_ drawing: Drawing, in context: CairoContext, width: Int, height: Int, lineWidth: Double) {
        context.save()
        context.setColor(.white)
        context.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        for shape in drawing.shapes where shape.isStorable {
            context.strokeStyled(shape, defaultColor: .black, defaultWidth: lineWidth)
        }
        context.restore()
    }
}
