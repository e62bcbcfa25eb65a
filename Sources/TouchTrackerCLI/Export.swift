import ArgumentParser
import Foundation
import TouchKit
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
                                           [--size <WxH> | --view <X,Y,W,H>]
                                           [--scale <factor>]
            """,
        discussion: """
            Exactly one of --png, --svg and --pdf names the output. The picture is the whole drawing, with a \
            margin of 24 around it (an empty drawing: 800x600 from the origin), unless --size (from the origin) or \
            --view (any part, negative coordinates too) asks for another. Sizes are in drawing units (a unit is a \
            pixel on a 100 % screen); --scale gives a PNG's pixels per unit. The file appears complete or not at \
            all. A document that cannot be read is reported in one line and nothing is written (status 1).
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
            "Draw WxH drawing units from the origin (SVG: pixels; PDF: points).",
            discussion: "Default: the whole drawing and a margin.", valueName: "WxH"))
    var size: String?
    @Option(
        help: ArgumentHelp(
            "Draw this part of the drawing: its top-left corner X,Y and its size W,H, in drawing units.",
            valueName: "X,Y,W,H"))
    var view: String?

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
        if size != nil, view != nil { throw ValidationError("give --size or --view, not both") }
        if let view, Self.area(parsing: view) == nil {
            throw ValidationError(
                "--view \(view) is not X,Y,W,H: four numbers, W and H whole and from 1 to 16384, X and Y within "
                    + "±1000000 (for example -100,-50,800,600)")
        }
        if let scale {
            guard output.format == .png else {
                throw ValidationError(
                    "--scale is for --png; an SVG or PDF is drawn in units and scales without loss (leave --scale out)")
            }
            try CanvasSize.validate(
                scale: scale, of: size ?? view.flatMap(Self.area).map { "\(Int($0.width))x\(Int($0.height))" })
        }
    }

    func run() throws {
        InterruptCleanup.install()
        let (format, path) = output!
        let drawing = try DocumentLoading.loadOrExit(document)
        let area =
            size.flatMap(CanvasSize.init(parsing:)).map {
                Rect(x: 0, y: 0, width: Double($0.width), height: Double($0.height))
            } ?? view.flatMap(Self.area) ?? DrawingExporter.wholeDrawing(drawing)
        let canvas = (Int(area.width), Int(area.height))
        do {
            let scale = self.scale ?? 1
            guard DrawingExporter.pixels(max(canvas.0, canvas.1), at: scale) <= CanvasSize.largestSide else {
                Diagnostics.error(
                    "the drawing is \(canvas.0)x\(canvas.1) units, more than \(CanvasSize.largestSide) pixels a side at "
                        + "--scale \(scale); give a smaller --scale or a --size")
                throw ExitCode(1)
            }
            let bytes = try DrawingExporter.render(drawing, format: format, area: area, scale: scale)
            try AtomicFile.write(bytes, to: path, missingFolder: .refuse)
            let cut = DrawingExporter.shapesCutOff(in: drawing, area: area)
            if cut > 0 {
                let corner = "\(Self.number(area.minX)), \(Self.number(area.minY))"
                Diagnostics.note(
                    "\(cut) \(cut == 1 ? "shape reaches" : "shapes reach") outside the picture (\(corner), "
                        + "\(canvas.0)x\(canvas.1) in drawing units) and \(cut == 1 ? "is" : "are") cut off there"
                        + (size != nil || view != nil ? "; leave --size and --view out to draw the whole drawing" : ""))
            }
        } catch let error as DocumentFileError {
            Diagnostics.error("cannot write \(error)")
            throw ExitCode(1)
        } catch {
            Diagnostics.error("cannot write \(Diagnostics.shown(path)): \(error)")
            throw ExitCode(1)
        }
    }

    /// `X,Y,W,H` as the part of the drawing it names, or nil when it is not four numbers within bounds.
    static func area(parsing text: String) -> Rect? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count == 4, let x = parts[0], let y = parts[1], let width = parts[2], let height = parts[3],
            abs(x) <= 1_000_000, abs(y) <= 1_000_000, (1...16384).contains(width), (1...16384).contains(height),
            width == width.rounded(), height == height.rounded()
        else { return nil }
        return Rect(x: x, y: y, width: width, height: height)
    }

    /// A coordinate as the notes write it: whole numbers without a decimal point.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
    }
}
