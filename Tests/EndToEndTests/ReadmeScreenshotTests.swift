import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender
import XorgTestSupport

/// The README's pictures are the real window under Xorg, taken by this suite, so they stay true: `docs/window.png`
/// (a drawing with a line selected and its menu open) and `docs/first-start.png` (an empty window with its hint).
/// A picture is written again only when the window now looks different (more than a few pixels), so the tree
/// stays clean; commit what it writes.
@Suite("README pictures", .serialized)
struct ReadmeScreenshotTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    /// A drawing in a few colours, with a circle.
    static let drawing = Drawing(
        lines: [
            Line(begin: Point(x: 80, y: 420), end: Point(x: 330, y: 140)),
            Line(begin: Point(x: 120, y: 120), end: Point(x: 520, y: 200), color: .blue),
            Line(begin: Point(x: 360, y: 470), end: Point(x: 700, y: 300), color: .red),
            Line(begin: Point(x: 560, y: 90), end: Point(x: 720, y: 250), color: .green),
        ],
        circles: [Circle(frame: Rect(x: 430, y: 250, width: 200, height: 160))])

    @Test("the README's picture of the window is the app under Xorg with a line selected and its menu open")
    func windowPicture() async throws {
        let session = try await AppSession.launch(
            frame: AppSession.Frame(x: 0, y: 0, width: 800, height: 560), drawing: Self.drawing)
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 4 lines")
        // Tap the black line: it turns green and its menu opens.
        let touch = try session.server.touch
        try touch.touchBegin(id: 1, x: session.root(205, 280).x, y: session.root(205, 280).y)
        try touch.touchEnd(id: 1, x: session.root(205, 280).x, y: session.root(205, 280).y)
        try touch.sync()
        let shot = try await waitForValue("the line selected", timeout: .seconds(10), poll: .milliseconds(50)) {
            let shot = try session.screenshot()
            let pixel = shot.at(205, 280)
            return pixel.g > 100 && pixel.r < 100 && pixel.b < 100 ? shot : nil
        }
        try await Task.sleep(for: .milliseconds(300))
        try Self.keep(try session.screenshot(), as: "window.png")
        _ = shot
    }

    @Test("the README's picture of a first start is an empty window showing the gestures")
    func firstStartPicture() async throws {
        let session = try await AppSession.launch(frame: AppSession.Frame(x: 0, y: 0, width: 800, height: 560))
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        let shot = try await waitForValue("the hint drawn", timeout: .seconds(10), poll: .milliseconds(50)) {
            () throws -> Screenshot? in
            let shot = try session.screenshot()
            // The white page drawn, with the hint's grey text across its middle.
            guard shot.at(10, 10).isWhitish, shot.at(790, 550).isWhitish else { return nil }
            let inked = (230..<330).contains { y in (100..<700).contains { x in shot.at(x, y).r < 160 } }
            return inked ? shot : nil
        }
        try Self.keep(shot, as: "first-start.png")
    }

    /// Writes `shot` to `docs/NAME` as a PNG unless the picture there already looks the same.
    static func keep(_ shot: Screenshot, as name: String) throws {
        let url = docs.appendingPathComponent(name)
        let bytes = try png(of: shot)
        if let old = try? CairoSurface(readingPNG: url.path), old.width == shot.width, old.height == shot.height {
            var differing = 0
            for y in 0..<shot.height {
                for x in 0..<shot.width {
                    let pixel = shot.at(x, y)
                    guard let before = old.pixel(x: x, y: y) else { continue }
                    let distance = max(
                        abs(Int(pixel.r) - Int(before.red)), abs(Int(pixel.g) - Int(before.green)),
                        abs(Int(pixel.b) - Int(before.blue)))
                    if distance > 32 { differing += 1 }
                }
            }
            if differing <= 50 { return }
        }
        try Data(bytes).write(to: url)
    }

    /// The capture as PNG bytes, through Cairo.
    static func png(of shot: Screenshot) throws -> [UInt8] {
        final class Pixels {
            var memory: [UInt32]
            init(_ memory: [UInt32]) { self.memory = memory }
        }
        let pixels = Pixels(
            (0..<shot.height).flatMap { y in
                (0..<shot.width).map { x in
                    let pixel = shot.at(x, y)
                    return UInt32(pixel.r) << 16 | UInt32(pixel.g) << 8 | UInt32(pixel.b)
                }
            })
        return try pixels.memory.withUnsafeMutableBytes { memory in
            let surface = try CairoSurface(
                wrapping: memory.baseAddress!, width: shot.width, height: shot.height, stride: shot.width * 4,
                keepingAlive: pixels)
            return try surface.pngBytes()
        }
    }
}
