import Foundation
import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerRender

/// The PNG Ctrl+C offers: cropped to the shapes' strokes plus a margin, and scaled down when a drawing is huge.
@Suite struct ClipboardImageTests {
    @Test("the image is the strokes' bounds plus 16 px on every side, its origin at their top left")
    func croppedToTheStrokes() throws {
        let drawing = Drawing(lines: [Line(begin: Point(x: 500, y: 400), end: Point(x: 600, y: 400))])
        let placement = try #require(ClipboardImage.placement(of: drawing, lineWidth: 10))
        // Stroke 10 px wide, a pixel of antialiasing: x 494...606, y 394...406.
        #expect(placement == .init(origin: Point(x: 478, y: 378), scale: 1, width: 144, height: 44))
    }

    @Test("a drawing wider than 4,096 px is scaled down to fit, keeping its proportions")
    func hugeDrawingIsScaledDown() throws {
        let drawing = Drawing(lines: [Line(begin: Point(x: 0, y: 0), end: Point(x: 20_000, y: 0))])
        let placement = try #require(ClipboardImage.placement(of: drawing, lineWidth: 10))
        #expect(placement.width == ClipboardImage.maximumSide)
        #expect(placement.height < 20)
    }

    @Test("an empty drawing has no image placement")
    func emptyDrawing() {
        #expect(ClipboardImage.placement(of: Drawing(), lineWidth: 10) == nil)
    }

    @Test("the PNG bytes decode to a black line on white, where the crop puts it")
    func pngBytesDecode() throws {
        let drawing = Drawing(lines: [Line(begin: Point(x: 500, y: 400), end: Point(x: 600, y: 400))])
        let bytes = try ClipboardImage.png(of: drawing, lineWidth: 10)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("clipboard-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let image = try CairoSurface(readingPNG: file.path)
        #expect(image.width == 144 && image.height == 44)
        let onLine = try #require(image.pixel(x: 72, y: 22))
        #expect(max(onLine.red, onLine.green, onLine.blue) < 30)
        let margin = try #require(image.pixel(x: 5, y: 5))
        #expect(min(margin.red, margin.green, margin.blue) == 255)
    }
}
