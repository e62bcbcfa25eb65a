import ArgumentParser
import Foundation
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore

/// `touchtracker export DOCUMENT (--png|--svg|--pdf) OUT [--size WxH]`: draws a document into a picture file with
/// Cairo's own PNG, SVG and PDF surfaces.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Draw a document into a PNG, SVG or PDF file.",
        usage: """
            touchtracker export <document> (--png|--svg|--pdf) <out>
                                           [--size <WxH>] [--scale <factor>]
            """,
        discussion: """
            Exactly one of --png, --svg and --pdf names the output. Sizes are in drawing units (a unit is a pixel \
            on a 100 % screen); --scale gives a PNG's pixels per unit. The file appears complete or not at all. A \
            document that cannot be read is reported in one line and nothing is written (status 1).
            """
    )

    @Argument(help: ArgumentHelp("The document (JSON) to draw.", valueName: "document"))
    var document: String

    @Option(help: ArgumentHelp("Write a PNG picture here.", valueName: "out"))
    var png: String?

    @Option(help: ArgumentHelp("Write an SVG drawing here.", valueName: "out"))
    var svg: String?

    @Option(help: ArgumentHelp("Write a one-page PDF here.", valueName: "out"))
    var pdf: String?

    @Option(
        help: ArgumentHelp(
            "Canvas size in drawing units (SVG: pixels; PDF: points).",
            discussion: "Default: 800x600, grown so every line fits.", valueName: "WxH"))
    var size: String?

    @Option(
        help: ArgumentHelp(
            "A PNG's pixels per drawing unit (0.5 to 8; 2: twice as sharp, the same drawing).", valueName: "factor"))
    var scale: Double?

    /// The one output asked for.
    private var output: (format: ExportFormat, path: String)? {
        let outputs = [(ExportFormat.png, png), (.svg, svg), (.pdf, pdf)].compactMap { format, path in
            path.map { (format, $0) }
        }
        return outputs.count == 1 ? outputs[0] : nil
    }

    func validate() throws {
        guard let output else { throw ValidationError("give exactly one of --png, --svg and --pdf") }
        try PathOption.validate(document, option: "the document")
        try PathOption.validate(output.path, option: "--\(output.format.rawValue)")
        try PathOption.validate(output: output.path, option: "--\(output.format.rawValue)", isNot: document)
        if let size { try CanvasSize.validate(size, option: "--size") }
        if let scale {
            guard output.format == .png else {
                throw ValidationError(
                    "--scale is for --png; an SVG or PDF is drawn in units and scales without loss (leave --scale out)")
            }
            try CanvasSize.validate(scale: scale, of: size)
        }
    }

    func run() throws {
        InterruptCleanup.install()
        let (format, path) = output!
        let drawing = try DocumentLoading.loadOrExit(document)
        let canvas =
            size.flatMap(CanvasSize.init(parsing:)).map { ($0.width, $0.height) }
            ?? DrawingExporter.canvasSize(for: drawing)
        do {
            let scale = self.scale ?? 1
            guard DrawingExporter.pixels(max(canvas.0, canvas.1), at: scale) <= CanvasSize.largestSide else {
                Diagnostics.error(
                    "the drawing is \(canvas.0)x\(canvas.1) units, more than \(CanvasSize.largestSide) pixels a side at "
                        + "--scale \(scale); give a smaller --scale or a --size")
                throw ExitCode(1)
            }
            let bytes = try DrawingExporter.render(
                drawing, format: format, width: canvas.0, height: canvas.1, scale: scale)
            try AtomicFile.write(bytes, to: path, missingFolder: .refuse)
            let (cut, pastFarEdges) = DrawingExporter.shapesCutOff(in: drawing, width: canvas.0, height: canvas.1)
            if cut > 0 {
                // A larger --size shows more only of what lies past the right or bottom, and only up to the largest.
                let larger = size != nil && pastFarEdges && (canvas.0 < 16384 || canvas.1 < 16384)
                Diagnostics.note(
                    "\(cut) \(cut == 1 ? "shape reaches" : "shapes reach") outside the picture (0, 0 to "
                        + "\(canvas.0)x\(canvas.1) in drawing units) and \(cut == 1 ? "is" : "are") cut off there"
                        + (larger ? "; a larger --size shows more" : ""))
            }
        } catch let error as DocumentFileError {
            Diagnostics.error("cannot write \(error)")
            throw ExitCode(1)
        } catch {
            Diagnostics.error("cannot write \(Diagnostics.shown(path)): \(error)")
            throw ExitCode(1)
        }
    }
}
