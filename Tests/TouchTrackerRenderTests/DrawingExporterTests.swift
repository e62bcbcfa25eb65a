import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

/// `touchtracker export`'s drawing: one known document written through Cairo's PNG, SVG and PDF surfaces.
@Suite struct DrawingExporterTests {
    /// A horizontal line, a vertical one and a diagonal, on a 200x100 page.
    let document = Drawing(lines: [
        Line(begin: Point(x: 20, y: 30), end: Point(x: 180, y: 30)),
        Line(begin: Point(x: 100, y: 45), end: Point(x: 100, y: 90)),
        Line(begin: Point(x: 20, y: 90), end: Point(x: 60, y: 50)),
    ])

    func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "export-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func isBlack(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red < 40 && p.green < 40 && p.blue < 40
    }

    func isWhite(_ p: (red: UInt8, green: UInt8, blue: UInt8)?) -> Bool {
        guard let p else { return false }
        return p.red > 245 && p.green > 245 && p.blue > 245
    }

    /// Pixels on each line (and its round caps) are black; pixels beside them and far away are white.
    func expectDocumentPixels(_ image: CairoSurface) {
        #expect(image.width == 200 && image.height == 100)
        let black = [(20, 30), (100, 30), (180, 30), (16, 30), (100, 34), (100, 60), (100, 88), (40, 70), (58, 52)]
        let white = [(10, 10), (100, 22), (100, 38), (13, 30), (188, 30), (110, 70), (190, 95), (20, 50), (60, 90)]
        for (x, y) in black { #expect(isBlack(image.pixel(x: x, y: y)), "(\(x), \(y)) should be black") }
        for (x, y) in white { #expect(isWhite(image.pixel(x: x, y: y)), "(\(x), \(y)) should be white") }
    }

    @Test("a PNG export has the page size, black 10 px lines with round caps and a white background")
    func pngPixels() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.png"
        try Data(DrawingExporter.render(document, format: .png, width: 200, height: 100)).write(
            to: URL(fileURLWithPath: path))
        expectDocumentPixels(try CairoSurface(readingPNG: path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.png"], "no temporary file left")
    }

    @Test("an SVG export has the page size in pixels and one round-capped black path per line, oldest first")
    func svgElements() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.svg"
        try Data(DrawingExporter.render(document, format: .svg, width: 200, height: 100)).write(
            to: URL(fileURLWithPath: path))
        let svg = try String(contentsOfFile: path, encoding: .utf8)
        #expect(svg.contains("width=\"200px\"") && svg.contains("height=\"100px\""), "\(svg.prefix(300))")
        let paths = elements(named: "path", in: svg).filter { ($0["d"] ?? "").contains("L") }
        #expect(paths.count == 3, "\(paths)")
        let background = elements(named: "rect", in: svg)
        #expect(background.count == 1 && background.first?["width"] == "200" && background.first?["height"] == "100")
        #expect(properties(background.first?["style"] ?? "")["fill"] == "rgb(100%,100%,100%)", "\(background)")
        for (element, line) in zip(paths, document.lines) {
            let style = properties(element["style"] ?? "")
            #expect(style["stroke-width"] == "10", "\(element)")
            #expect(style["stroke-linecap"] == "round", "\(element)")
            #expect(style["stroke"] == "rgb(0%,0%,0%)", "\(element)")
            #expect(style["fill"] == "none", "\(element)")
            let numbers = (element["d"] ?? "").split(separator: " ").compactMap { Double($0) }
            #expect(numbers == [line.begin.x, line.begin.y, line.end.x, line.end.y], "\(element)")
        }
    }

    @Test("a PDF export is one page of the given size whose rendering shows the lines")
    func pdfPage() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.pdf"
        try Data(DrawingExporter.render(document, format: .pdf, width: 200, height: 100)).write(
            to: URL(fileURLWithPath: path))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("%PDF-"))
        #expect(text.contains("/MediaBox [ 0 0 200 100 ]"), "\(text.prefix(600))")
        #expect(text.components(separatedBy: "/Type /Page\n").count - 1 == 1 || text.contains("/Count 1"))
        // Ghostscript (a test dependency) renders the page back at 72 dpi: one pixel per point.
        let png = folder + "/page.png"
        let gs = Process()
        gs.executableURL = URL(fileURLWithPath: "/usr/bin/gs")
        gs.arguments = [
            "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", "-r72", "-sOutputFile=\(png)", path,
        ]
        try gs.run()
        gs.waitUntilExit()
        #expect(gs.terminationStatus == 0)
        expectDocumentPixels(try CairoSurface(readingPNG: png))
    }

    @Test("a PNG larger than Cairo can paint is an error, not a picture")
    func oversizedPNGFails() {
        #expect(throws: CairoError.self) {
            try DrawingExporter.render(document, format: .png, width: 40000, height: 100)
        }
    }

    @Test("the default canvas is 800x600, grown to hold every line's stroke")
    func defaultCanvasSize() {
        #expect(DrawingExporter.canvasSize(for: document) == (800, 600))
        let wide = Drawing(lines: [Line(begin: Point(x: 10, y: 10), end: Point(x: 1000, y: 700))])
        let size = DrawingExporter.canvasSize(for: wide)
        #expect(size.width >= 1005 && size.width <= 1010 && size.height >= 705 && size.height <= 710, "\(size)")
    }

    /// `a:b;c:d` as a dictionary.
    func properties(_ style: String) -> [String: String] {
        var result: [String: String] = [:]
        for declaration in style.split(separator: ";") {
            let pair = declaration.split(separator: ":", maxSplits: 1)
            if pair.count == 2 { result[String(pair[0])] = String(pair[1]) }
        }
        return result
    }

    /// The attributes of every `<name .../>` element (a tiny reader for Cairo's flat SVG).
    func elements(named name: String, in svg: String) -> [[String: String]] {
        svg.components(separatedBy: "<\(name) ").dropFirst().map { chunk in
            let tag = chunk.prefix { $0 != ">" }
            var attributes: [String: String] = [:]
            for part in tag.components(separatedBy: "\" ") {
                let pair = part.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                attributes[pair[0].trimmingCharacters(in: .whitespaces)] = pair[1]
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\"/ "))
            }
            return attributes
        }
    }
}

/// The overlay above the drawing: repainted where it appears and where it was.
@Suite struct OverlayRenderingTests {
    @Test("the inspector draws a blue ring around a live touch and a dark panel, and its going repaints them white")
    func inspectorAppearsAndGoes() throws {
        let controller = DrawingController(size: Size(width: 400, height: 300))
        let renderer = try DrawingRenderer(width: 400, height: 300)
        _ = renderer.frame(for: controller.drawingView, menu: nil, overlay: controller.overlay)
        controller.handleKey(KeyCommand(key: "F1"))
        controller.send(TouchInput(id: 1, phase: .began, location: Point(x: 250, y: 200), timestamp: 0.1))
        let shown = try #require(renderer.frame(for: controller.drawingView, menu: nil, overlay: controller.overlay))
        #expect(shown.contains(Point(x: 278, y: 200)) && shown.contains(Point(x: 12, y: 12)))
        let ring = try #require(renderer.canvas.pixel(x: 278, y: 200))
        #expect(ring.blue > 200 && ring.red < 80, "\(ring)")
        let panel = try #require(renderer.canvas.pixel(x: 12, y: 12))
        #expect(max(panel.red, panel.green, panel.blue) < 70, "\(panel)")
        controller.handleKey(KeyCommand(key: "F1"))
        let hidden = try #require(renderer.frame(for: controller.drawingView, menu: nil, overlay: controller.overlay))
        #expect(hidden.contains(Point(x: 278, y: 200)))
        for (x, y) in [(278, 200), (12, 12)] {
            let pixel = try #require(renderer.canvas.pixel(x: x, y: y))
            #expect(min(pixel.red, pixel.green, pixel.blue) > 245, "(\(x), \(y)) is \(pixel)")
        }
        #expect(renderer.frame(for: controller.drawingView, menu: nil, overlay: controller.overlay) == nil)
    }
}
