import Foundation
import Testing
import TouchTrackerRender
import XorgTestSupport

/// `touchtracker export`: formats, the whole drawing or a part, scale, and what it cuts off.
extension CommandLineTests {
    @Test("export writes PNG, SVG and PDF files of the whole drawing, a margin of 24 around its strokes")
    func exportWritesEachFormat() async throws {
        let folder = try makeTemporaryFolder("export")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json").path
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 100, "y": 50}, "end": {"x": 900, "y": 50}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: document))
        for format in ["png", "svg", "pdf"] {
            let out = folder.appendingPathComponent("out.\(format)").path
            let result = try await touchtracker(["export", document, "--\(format)", out])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        }
        let png = try CairoSurface(readingPNG: folder.appendingPathComponent("out.png").path)
        // The stroke reaches from (95, 45) to (905, 55), its bounds a unit more for antialiasing: (70, 20) to (930, 80).
        #expect(png.width == 860 && png.height == 60, "\(png.width)x\(png.height)")
        let black = try #require(png.pixel(x: 850 - 70, y: 50 - 20))
        #expect(max(black.red, black.green, black.blue) < 40)
        let corner = try #require(png.pixel(x: 5, y: 5))
        #expect(min(corner.red, corner.green, corner.blue) > 245)
        let svg = try String(contentsOf: folder.appendingPathComponent("out.svg"), encoding: .utf8)
        #expect(
            svg.contains("width=\"860px\"") && svg.contains("d=\"M 100 50 L 900 50 \"")
                && svg.contains("transform=\"matrix(1,0,0,1,-70,-20)\""), "\(svg)")
        let pdf = try Data(contentsOf: folder.appendingPathComponent("out.pdf"))
        #expect(String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")

        let sized = folder.appendingPathComponent("sized.png").path
        #expect(try await touchtracker(["export", document, "--png", sized, "--size", "300x200"]).status == 0)
        let small = try CairoSurface(readingPNG: sized)
        #expect(small.width == 300 && small.height == 200)
    }

    @Test("export --scale 2 writes a PNG twice as many pixels a side of the same drawing: --size is in drawing units")
    func exportScaleIsPixelDensity() async throws {
        let folder = try makeTemporaryFolder("export-scale")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json").path
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 20, "y": 50}, "end": {"x": 280, "y": 50}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: document))
        let out = folder.appendingPathComponent("out.png").path
        let result = try await touchtracker(["export", document, "--png", out, "--size", "300x100", "--scale", "2"])
        #expect(result.status == 0, "\(result)")
        let png = try CairoSurface(readingPNG: out)
        #expect(png.width == 600 && png.height == 200, "\(png.width)x\(png.height)")
        // The line at y = 50 units is at 100 px, 20 px wide: black 8 px off its centre, white 12 px off.
        let centre = try #require(png.pixel(x: 300, y: 108))
        let beyond = try #require(png.pixel(x: 300, y: 112))
        #expect(max(centre.red, centre.green, centre.blue) < 40 && min(beyond.red, beyond.green, beyond.blue) > 245)
    }

    @Test("export refuses --scale with SVG or PDF, and a --size that --scale makes over 16384 pixels, in one line")
    func exportScaleRefusals() async throws {
        let svg = try await touchtracker(["export", "d.json", "--svg", "out.svg", "--scale", "2"])
        #expect(svg.status == 64 && svg.stderr.contains("--scale is for --png"), "\(svg)")
        let large = try await touchtracker(["export", "d.json", "--png", "o.png", "--size", "9000x10", "--scale", "2"])
        #expect(large.status == 64 && large.stderr.contains("18000 pixels a side, more than 16384"), "\(large)")
    }

    @Test("replay --scale 2 draws the same script twice as sharp: the state keeps drawing units, the PNG doubles")
    func replayScaleIsPixelDensity() async throws {
        let folder = try makeTemporaryFolder("replay-scale")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("s.jsonl").path
        try Data(
            """
            {"t": 0.00, "id": 1, "phase": "began", "x": 50, "y": 60}
            {"t": 0.05, "id": 1, "phase": "moved", "x": 150, "y": 60}
            {"t": 0.10, "id": 1, "phase": "ended", "x": 250, "y": 60}

            """.utf8
        ).write(to: URL(fileURLWithPath: script))
        let state = folder.appendingPathComponent("state.json").path
        let png = folder.appendingPathComponent("out.png").path
        let result = try await touchtracker([
            "replay", script, "--state", state, "--png", png, "--size", "300x100", "--scale", "2",
        ])
        #expect(result.status == 0, "\(result)")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains(#"{"begin": {"x": 50, "y": 60}, "end": {"x": 250, "y": 60}}"#), "\(saved)")
        let picture = try CairoSurface(readingPNG: png)
        #expect(picture.width == 600 && picture.height == 200)
        let onLine = try #require(picture.pixel(x: 300, y: 120))
        #expect(max(onLine.red, onLine.green, onLine.blue) < 40)
    }

    @Test("thumbnail writes a PNG of at most --size pixels a side, cropped to what is drawn, wherever it is drawn")
    func thumbnailIsCroppedAndFitted() async throws {
        let folder = try makeTemporaryFolder("thumbnail")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.touchtracker").path
        // A line far from the origin, 2000 units long: the thumbnail is the line, not an empty page around it.
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 5000, "y": 3000}, "end": {"x": 7000, "y": 3000}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: document))
        let out = folder.appendingPathComponent("t.png").path
        let result = try await touchtracker(["thumbnail", "--size", "128", document, out])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let png = try CairoSurface(readingPNG: out)
        #expect(png.width == 128 && png.height <= 8, "\(png.width)x\(png.height)")
        // The line is 0.6 pixels wide at this size: drawn a pixel and a half wide, so it shows (its darkest pixel down
        // the middle column is near black), not as a faint grey.
        let darkest = (0..<png.height).compactMap { png.pixel(x: 64, y: $0) }.map { Int($0.red) }.min() ?? 255
        #expect(darkest < 80, "\(darkest)")
    }

    @Test("thumbnail of an empty drawing is a blank 4:3 page, and a small drawing is never scaled up")
    func thumbnailOfEmptyAndSmall() async throws {
        let folder = try makeTemporaryFolder("thumbnail-small")
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.json").path
        try Data(#"{"version": 1, "lines": []}"#.utf8).write(to: URL(fileURLWithPath: empty))
        let out = folder.appendingPathComponent("t.png").path
        #expect(try await touchtracker(["thumbnail", "--size", "256", empty, out]).status == 0)
        let blank = try CairoSurface(readingPNG: out)
        #expect(blank.width == 256 && blank.height == 192 && blank.pixel(x: 128, y: 96)! == (255, 255, 255))
        let small = folder.appendingPathComponent("small.json").path
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 10, "y": 10}, "end": {"x": 50, "y": 10}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: small))
        #expect(try await touchtracker(["thumbnail", "--size", "256", small, out]).status == 0)
        let picture = try CairoSurface(readingPNG: out)
        // The stroke's box (the 40-unit line, half its width of 10 and a unit more each side: 52 x 12) and an 8-unit
        // margin around it: 68 x 28 pixels.
        #expect(picture.width == 68 && picture.height == 28, "\(picture.width)x\(picture.height)")
    }

    @Test("thumbnail of a hostile file, a pipe or a --size out of range fails in one line at once, writing nothing")
    func thumbnailRefusesBadInput() async throws {
        let folder = try makeTemporaryFolder("thumbnail-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("t.png")
        let hostile = folder.appendingPathComponent("h.touchtracker")
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 1e999, "y": 0}"#.utf8).write(to: hostile)
        let bad = try await touchtracker(["thumbnail", "--size", "128", hostile.path, out.path])
        #expect(bad.status == 1 && bad.stderr.hasPrefix("touchtracker: cannot read document "), "\(bad)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "\(bad)")
        let pipe = folder.appendingPathComponent("p.touchtracker")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let started = ContinuousClock.now
        let piped = try await touchtracker(["thumbnail", "--size", "128", pipe.path, out.path])
        #expect(piped.status == 1 && piped.stderr.contains("not a regular file"), "\(piped)")
        // A guard against a hang (a pipe with no writer blocks its reader for ever), not a timing: the machine may be
        // busy with other suites.
        #expect(ContinuousClock.now - started < .seconds(60), "a pipe with no writer must not hang the thumbnailer")
        let size = try await touchtracker(["thumbnail", "--size", "0", hostile.path, out.path])
        #expect(size.status == 64 && size.stderr.contains("--size 0 is not between 1 and 4096"), "\(size)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("export says in one line how many shapes reach outside the picture and are cut off, and still writes it")
    func exportSaysWhatItCutsOff() async throws {
        let folder = try makeTemporaryFolder("export-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json").path
        try Data(
            #"""
            {"version": 1, "lines": [{"begin": {"x": 10, "y": 10}, "end": {"x": 20000, "y": 100}},
            {"begin": {"x": -100, "y": -20}, "end": {"x": 10, "y": 10}},
            {"begin": {"x": 100, "y": 100}, "end": {"x": 200, "y": 200}}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: document))
        let out = folder.appendingPathComponent("out.png").path
        let result = try await touchtracker(["export", document, "--png", out])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr
                == "touchtracker: 1 shape reaches outside the picture (-130, -50, 16384x280 in drawing units) and "
                + "is cut off there\n", "\(result)")
        #expect(try CairoSurface(readingPNG: out).width == 16384)
        // A line that starts on the picture's edge loses only a sliver of its round cap: nothing to say.
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 0, "y": 3}, "end": {"x": 300, "y": 300}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: document))
        let edge = try await touchtracker(["export", document, "--png", out, "--size", "300x300"])
        #expect(edge.status == 0 && edge.stderr.isEmpty, "\(edge)")
    }

    @Test("export --view X,Y,W,H draws that part of the drawing, negative coordinates too")
    func exportDrawsAView() async throws {
        let folder = try makeTemporaryFolder("export-view")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json").path
        try Data(#"{"version": 1, "lines": [{"begin": {"x": -300, "y": -100}, "end": {"x": 0, "y": -100}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: document))
        let out = folder.appendingPathComponent("view.png").path
        let result = try await touchtracker(["export", document, "--png", out, "--view=-200,-150,400,100"])
        #expect(result.status == 0, "\(result)")
        let png = try CairoSurface(readingPNG: out)
        #expect(png.width == 400 && png.height == 100)
        // The line runs along y -100 (50 down the picture) from the left edge to x 0 (200 across).
        let on = try #require(png.pixel(x: 100, y: 50))
        let past = try #require(png.pixel(x: 260, y: 50))
        #expect(max(on.red, on.green, on.blue) < 40 && min(past.red, past.green, past.blue) > 245)
        let bad = try await touchtracker(["export", document, "--png", out, "--view", "1,2,3"])
        #expect(bad.status != 0 && bad.stderr.contains("--view 1,2,3 is not X,Y,W,H"), "\(bad)")
    }
}
