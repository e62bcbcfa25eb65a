import CX11
import Foundation
import SeededRandom
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender
import XorgTestSupport

/// The clipboard on a private Xorg, checked with xclip as another client: Ctrl+C offers the shapes as
/// a PNG, as the document's JSON and as text; Ctrl+V pastes another window's copy at the pointer as one undoable
/// edit; a 100,000-line copy arrives whole through INCR; a copy outlives the window through a clipboard manager.
@Suite("Clipboard")
struct ClipboardTests {
    /// Two lines: a horizontal one and a diagonal one.
    static let twoLines = Drawing(lines: [
        Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
        Line(begin: Point(x: 150, y: 150), end: Point(x: 250, y: 250)),
    ])

    /// Launches the app on `server` with `drawing` as its document and waits until the document is read.
    /// Runs `body` with a private Xorg and a temporary folder named after `name`, both gone afterwards.
    private func withServer(folder name: String, _ body: (XorgServer, URL) async throws -> Void) async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder(name)
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(server, folder)
    }

    private func launch(
        on server: XorgServer, drawing: Drawing, in folder: URL, name: String = "d.json",
        geometry: String = "640x480+100+80", x: Int = 100, y: Int = 80
    ) async throws -> (DesktopRun, URL) {
        let document = folder.appendingPathComponent(name)
        try Data(DocumentCodec.encode(drawing)).write(to: document)
        let run = try await DesktopRun.launch(
            on: server, arguments: ["--document", document.path, "--geometry", geometry], x: x, y: y)
        _ = try await run.app.waitForStderrLine(containing: "document read", timeout: .seconds(60))
        return (run, document)
    }

    /// xclip reading the clipboard as `target` into a file; its exit status and the file's bytes.
    private func xclipOutput(_ server: XorgServer, target: String, in folder: URL) throws -> (Int32, [UInt8]) {
        let file = folder.appendingPathComponent("xclip-\(UUID().uuidString)")
        let result = try runProgram(
            "/bin/sh", ["-c", "exec xclip -o -selection clipboard -t '\(target)' > '\(file.path)'"],
            environment: ["DISPLAY": server.display])
        let bytes = (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? []
        return (result.status, bytes)
    }

    /// xclip owning the clipboard with `drawing`'s document as text (UTF8_STRING), in the foreground until
    /// stopped, given a moment to take it.
    private func xclipOffering(_ drawing: Drawing, on server: XorgServer, in folder: URL) async throws -> ChildProcess {
        let text = folder.appendingPathComponent("drawing.txt")
        try Data(DocumentCodec.encode(drawing)).write(to: text)
        let xclip = try ChildProcess(
            executable: "/usr/bin/xclip", arguments: ["-i", "-quiet", "-selection", "clipboard", text.path],
            environment: ["DISPLAY": server.display, "PATH": "/usr/bin:/bin"])
        do {
            try await Task.sleep(for: .milliseconds(300))
        } catch {
            _ = xclip.stop()
            throw error
        }
        return xclip
    }

    private func copy(_ run: DesktopRun) async throws {
        try run.pressKeys([KeyCode.controlL, KeyCode.c])
        _ = try await run.app.waitForStderrLine(containing: "to the clipboard")
    }

    @Test("after Ctrl+C, TARGETS lists image/png, the TouchTracker JSON and text")
    func targetsListAllThree() async throws {
        try await withServer(folder: "clipboard-targets") { server, folder in
            let (run, _) = try await launch(on: server, drawing: Self.twoLines, in: folder)
            defer { run.stop() }
            try await copy(run)

            let (status, bytes) = try xclipOutput(server, target: "TARGETS", in: folder)
            #expect(status == 0)
            let targets = Set(String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init))
            for expected in ["image/png", "application/x-touchtracker+json", "text/plain", "UTF8_STRING", "TARGETS"] {
                #expect(targets.contains(expected), "TARGETS: \(targets.sorted())")
            }
        }
    }

    @Test("the copied JSON, as the TouchTracker type and as text, is the drawing's document")
    func jsonIsTheDocument() async throws {
        try await withServer(folder: "clipboard-json") { server, folder in
            let (run, _) = try await launch(on: server, drawing: Self.twoLines, in: folder)
            defer { run.stop() }
            try await copy(run)

            for target in ["application/x-touchtracker+json", "text/plain", "UTF8_STRING"] {
                let (status, bytes) = try xclipOutput(server, target: target, in: folder)
                #expect(status == 0)
                #expect(try DocumentCodec.decode(bytes).lines == Self.twoLines.lines, "as \(target)")
            }
        }
    }

    @Test("the copied PNG is the shapes cropped to their strokes plus a margin, pixel for pixel as Cairo draws them")
    func pngDecodesToTheExpectedPixels() async throws {
        try await withServer(folder: "clipboard-png") { server, folder in
            let (run, _) = try await launch(on: server, drawing: Self.twoLines, in: folder)
            defer { run.stop() }
            try await copy(run)

            let (status, bytes) = try xclipOutput(server, target: "image/png", in: folder)
            #expect(status == 0)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG: \(bytes.prefix(8))")
            let copied = folder.appendingPathComponent("copied.png")
            try Data(bytes).write(to: copied)
            let image = try CairoSurface(readingPNG: copied.path)
            // Strokes 10 px wide and a pixel of antialiasing: x 94...306, y 94...256, and 16 px of margin on every side.
            #expect(image.width == 244 && image.height == 194, "\(image.width)x\(image.height)")
            let expectedFile = folder.appendingPathComponent("expected.png")
            try Data(try ClipboardImage.png(of: Self.twoLines, lineWidth: 10)).write(to: expectedFile)
            let expected = try CairoSurface(readingPNG: expectedFile.path)
            var differing = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    guard let a = image.pixel(x: x, y: y), let b = expected.pixel(x: x, y: y) else { continue }
                    if a != b { differing += 1 }
                }
            }
            #expect(differing == 0, "\(differing) pixels differ from Cairo's render of the two lines")
            // The horizontal line runs through the image 22 px from its top (y 100 - 78); the corners are white.
            let onLine = try #require(image.pixel(x: 122, y: 22))
            #expect(max(onLine.red, onLine.green, onLine.blue) < 40)
            let corner = try #require(image.pixel(x: 2, y: 2))
            #expect(min(corner.red, corner.green, corner.blue) > 245)
        }
    }

    @Test("Ctrl+V in a second window pastes the first window's copy at the pointer, as one undoable edit")
    func pasteFromAnotherWindow() async throws {
        try await withServer(folder: "clipboard-paste") { server, folder in
            let (source, _) = try await launch(
                on: server, drawing: Self.twoLines, in: folder, name: "source.json", geometry: "500x400+0+0", x: 0, y: 0
            )
            defer { source.stop() }
            let (target, targetDocument) = try await launch(
                on: server, drawing: Drawing(lines: [Line(begin: Point(x: 20, y: 20), end: Point(x: 60, y: 20))]),
                in: folder, name: "target.json", geometry: "600x500+600+0", x: 600, y: 0)
            defer { target.stop() }
            try await copy(source)

            try target.pressKeys([KeyCode.controlL, KeyCode.v], pointerAt: (300, 250))
            let pasted = try await SavedDocument.wait(for: targetDocument, lineCount: 3)
            #expect(pasted.lines[0] == SavedDocument.Line(begin: .init(x: 20, y: 20), end: .init(x: 60, y: 20)))
            // The copy's strokes span (94, 94)...(306, 256): their middle, (200, 175), lands on the pointer.
            #expect(pasted.lines[1] == SavedDocument.Line(begin: .init(x: 200, y: 175), end: .init(x: 400, y: 175)))
            #expect(pasted.lines[2] == SavedDocument.Line(begin: .init(x: 250, y: 225), end: .init(x: 350, y: 325)))

            try target.pressKeys([KeyCode.controlL, KeyCode.z], pointerAt: (300, 250))
            try await waitUntil("the paste undone in one step", timeout: .seconds(10), poll: .milliseconds(50)) {
                SavedDocument.read(targetDocument)?.lines.count == 1
            }
        }
    }

    @Test("Ctrl+V pastes a TouchTracker document another program put on the clipboard as text")
    func pasteFromText() async throws {
        try await withServer(folder: "clipboard-text") { server, folder in
            let (run, document) = try await launch(on: server, drawing: Drawing(), in: folder)
            defer { run.stop() }
            let xclip = try await xclipOffering(Self.twoLines, on: server, in: folder)
            defer { _ = xclip.stop() }

            try run.pressKeys([KeyCode.controlL, KeyCode.v], pointerAt: (320, 240))
            let pasted = try await SavedDocument.wait(for: document, lineCount: 2)
            #expect(pasted.lines.count == 2)
        }
    }

    @Test("a 100,000-line copy arrives whole, in an INCR transfer")
    func hugeCopyArrivesWhole() async throws {
        try await withServer(folder: "clipboard-huge") { server, folder in
            var generator = SplitMix64(seed: 17)
            let lines = (0..<100_000).map { _ in
                let begin = Point(
                    x: Double.random(in: 0..<640, using: &generator), y: Double.random(in: 0..<480, using: &generator))
                return Line(
                    begin: begin,
                    end: Point(
                        x: begin.x + Double.random(in: -100...100, using: &generator),
                        y: begin.y + Double.random(in: -100...100, using: &generator)))
            }
            let drawing = Drawing(lines: lines)
            let (run, _) = try await launch(on: server, drawing: drawing, in: folder)
            defer { run.stop() }
            try await copy(run)

            let (status, bytes) = try xclipOutput(server, target: "application/x-touchtracker+json", in: folder)
            #expect(status == 0)
            // Far more than one property may carry (256 KiB): only INCR brings it.
            #expect(bytes.count > 4_000_000, "\(bytes.count) bytes")
            #expect(bytes == DocumentCodec.encode(drawing))
        }
    }

    @Test("a copy the window owns at exit is handed to the clipboard manager, and still pastes after the window closed")
    func clipboardManagerKeepsTheCopy() async throws {
        try await withServer(folder: "clipboard-manager") { server, folder in
            let manager = TestClipboardManager(display: server.display)
            try await manager.start()
            defer { manager.stop() }
            let (run, _) = try await launch(on: server, drawing: Self.twoLines, in: folder)
            defer { run.stop() }
            try await copy(run)

            #expect(try await run.app.terminate(timeout: .seconds(20)) == 0)
            #expect(run.app.stderr.contains("the clipboard manager took the clipboard over"), "\(run.app.stderr)")
            let state = manager.state.withLock { $0 }
            #expect(state.problem == nil)
            #expect(state.targetsSeen.contains("SAVE_TARGETS") && state.targetsSeen.contains("image/png"))
            let (status, bytes) = try xclipOutput(server, target: "application/x-touchtracker+json", in: folder)
            #expect(status == 0)
            #expect(try DocumentCodec.decode(bytes).lines == Self.twoLines.lines)
        }
    }

    @Test(
        "a clipboard owner that never answers is given up after 5 s, even with no other input, and a Ctrl+V works again"
    )
    func silentOwnerIsGivenUp() async throws {
        try await withServer(folder: "clipboard-silent") { server, folder in
            let (run, document) = try await launch(on: server, drawing: Drawing(), in: folder)
            defer { run.stop() }
            // A client that takes the clipboard and then reads none of its requests.
            let silent = try #require(TestDisplayConnection.open(server.display))
            defer { XCloseDisplay(silent) }
            let owner = XCreateSimpleWindow(silent, XDefaultRootWindow(silent), 0, 0, 1, 1, 0, 0, 0)
            XSetSelectionOwner(silent, XInternAtom(silent, "CLIPBOARD", 0), owner, Time(CurrentTime))
            XSync(silent, 0)

            try run.pressKeys([KeyCode.controlL, KeyCode.v], pointerAt: (320, 240))
            _ = try await run.app.waitForStderrLine(containing: "did not answer", timeout: .seconds(15))

            // The next paste is not refused as "under way": xclip now owns the clipboard and answers.
            let xclip = try await xclipOffering(Self.twoLines, on: server, in: folder)
            defer { _ = xclip.stop() }
            try run.pressKeys([KeyCode.controlL, KeyCode.v], pointerAt: (320, 240))
            #expect(try await SavedDocument.wait(for: document, lineCount: 2).lines.count == 2)
        }
    }
}
