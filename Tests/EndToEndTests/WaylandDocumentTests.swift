import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore
import WestonTestSupport
import XorgTestSupport

/// The Wayland host beyond gestures, under a real headless weston: the clipboard both ways with wl-clipboard's
/// programs, one window per document, a full disk, and the X11 host through Xwayland on the same compositor.
@Suite("Documents and the clipboard on Wayland", .serialized)
struct WaylandDocumentTests {
    private static let documentType = "application/x-touchtracker+json"

    @Test("Ctrl+C offers the drawing to other Wayland programs as the document's type (read with wl-paste)")
    func copyIsReadByWlPaste() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try session.stroke(id: 0, from: (40, 100), to: (400, 100))
        try session.stroke(id: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.key(LinuxKey.c, control: true)
        var bytes: [UInt8] = []
        for _ in 0..<20 where bytes.isEmpty {
            bytes = try await session.runClient("/usr/bin/wl-paste", ["--no-newline", "--type", Self.documentType])
            if bytes.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        let pasted = try ClipboardShapes.shapes(fromDocument: bytes)
        #expect(pasted.count == 2)
    }

    @Test(
        """
        a reader waiting for a picture still being made gets the copy it asked for, even once another program's copy \
        has replaced it on the clipboard
        """)
    func readerWaitingForAnEncodingGetsItsCopy() async throws {
        // Enough lines that the picture takes a second or more to draw, long after wl-paste has asked for it.
        let lines = (0..<100_000).map { index in
            Line(begin: Point(x: Double(index % 600), y: 10), end: Point(x: 10, y: Double(index % 400)))
        }
        let session = try await WaylandSession.launch(drawing: Drawing(lines: lines))
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 100000 lines", timeout: .seconds(30))
        try session.key(LinuxKey.c, control: true)
        try await session.app.waitForStderrLine(containing: "copied the drawing to the clipboard")
        let reader = try ChildProcess(
            executable: "/usr/bin/wl-paste", arguments: ["--no-newline", "--type", "image/png"],
            environment: session.server.clientEnvironment, stdout: .capture, stderr: .discard)
        defer { _ = reader.stop() }
        try await Task.sleep(for: .milliseconds(300))
        try await session.runClient("/usr/bin/wl-copy", ["another program's text"], readsOutput: false)
        #expect(reader.waitForExit(timeout: .seconds(60)) != nil, "wl-paste was never answered")
        try await waitUntil("wl-paste's output to close", timeout: .seconds(5)) { reader.outputClosed }
        #expect(Array(reader.stdout.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test("Ctrl+V pastes the shapes another Wayland program copied (wl-copy) into the saved drawing")
    func pasteReadsWlCopy() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        let drawing = Drawing(lines: [
            Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
            Line(begin: Point(x: 100, y: 200), end: Point(x: 300, y: 200)),
            Line(begin: Point(x: 100, y: 300), end: Point(x: 300, y: 300)),
        ])
        let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        let focusesBefore = session.app.stderrLines.filter { $0.contains("keyboard focus in") }.count
        try await session.runClient("/usr/bin/wl-copy", ["--type", Self.documentType, text], readsOutput: false)
        // wl-copy's own surface takes the keyboard to set the selection: Ctrl+V waits until the window has it back
        // (on a busy machine the keys would otherwise go to wl-copy's surface).
        try? await waitUntil("the window to have the keyboard again", timeout: .seconds(5), poll: .milliseconds(20)) {
            session.app.stderrLines.filter { $0.contains("keyboard focus in") }.count > focusesBefore
        }
        // wl-copy's own surface took the keyboard for a moment; the pointer over the window gives the paste a place.
        try session.input.pointerMotion(x: 499, y: 399)
        try session.input.pointerMotion(x: 500, y: 400)
        try session.input.pointerFrame()
        try session.key(LinuxKey.v, control: true)
        _ = try await session.document(lineCount: 3)
    }

    @Test("a second touchtracker on the same drawing names the window's process and exits 0, with or without a token")
    func secondInstanceDefersToTheFirst() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        var environment: [String: String?] = session.server.environment.mapValues { $0 }
        environment["DISPLAY"] = .some(nil)
        environment["XDG_ACTIVATION_TOKEN"] = .some(nil)
        let withoutToken = try AppProcess(
            arguments: ["--document", session.document.path], environment: environment)
        #expect(try await withoutToken.waitForExit() == 0)
        #expect(withoutToken.stderr.contains("process \(session.app.pid)"), "\(withoutToken.transcript)")
        #expect(withoutToken.stderr.contains("XDG_ACTIVATION_TOKEN"), "\(withoutToken.transcript)")

        environment["XDG_ACTIVATION_TOKEN"] = "touchtracker-test-token"
        let withToken = try AppProcess(arguments: ["--document", session.document.path], environment: environment)
        #expect(try await withToken.waitForExit() == 0)
        #expect(withToken.stderr.contains("process \(session.app.pid)"), "\(withToken.transcript)")
        // Weston 10 offers no xdg-activation: the window says it got the token and could not use it.
        try await session.app.waitForStderrLine(containing: "asked to come forward", timeout: .seconds(5))
    }

    @Test("a window launched with an activation token spends it on itself once it is shown, as launchers expect")
    func launchTokenIsSpentOnTheWindow() async throws {
        let session = try await WaylandSession.launch(environment: ["XDG_ACTIVATION_TOKEN": "touchtracker-launch"])
        defer { session.stop() }
        // Weston 10 offers no xdg-activation: the window says it had the token and could not use it.
        try await session.app.waitForStderrLine(containing: "launched with an activation token", timeout: .seconds(5))
    }

    @Test("on a full disk the window says the drawing is not saved, keeps it in a recovery file, and saves it at exit")
    func fullDiskKeepsTheDrawing() async throws {
        let folder = try makeTemporaryFolder("touchtracker-wayland-full")
        let state = try makeTemporaryFolder("touchtracker-wayland-full-state")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: state)
        }
        try #require(try SmallFileSystem.mount(on: folder), "cannot mount a small tmpfs (root is needed)")
        defer { SmallFileSystem.unmount(folder) }
        let session = try await WaylandSession.launch(folder: folder, environment: ["XDG_STATE_HOME": state.path])
        defer { session.stop() }
        _ = try SmallFileSystem.fill(folder)
        try session.stroke(id: 0, from: (40, 100), to: (400, 100))
        try await session.app.waitForStderrLine(containing: "the disk is full", timeout: .seconds(10))
        #expect(try await session.app.terminate() == 0)
        let kept = try FileManager.default.contentsOfDirectory(
            atPath: state.appendingPathComponent("touchtracker").path)
        #expect(!kept.isEmpty, "no recovery file kept: \(session.app.transcript)")
    }

    @Test("the X11 window through Xwayland draws with the same compositor's touches")
    func xwaylandWindowDraws() async throws {
        let session = try await WaylandSession.launch(backend: "x11", extraArguments: ["--geometry", "1024x768+0+0"])
        defer { session.stop() }
        #expect(session.app.stderr.contains("backend x11"))
        // "ready" says the X window is mapped; the compositor shows it (and sends it touches) once Xwayland has
        // committed its first frame.
        try await Task.sleep(for: .seconds(1))
        // Under the kiosk shell an X11 window need not sit at 0,0 (it has a title bar): only the length is checked.
        try session.stroke(id: 0, from: (300, 300), to: (600, 300))
        let document = try await session.savedDocument(lineCount: 1)
        let line = document.lines[0]
        #expect(abs((line.end.x - line.begin.x) - 300) <= 1 && abs(line.end.y - line.begin.y) <= 1)
    }
}

/// The window's decorations where the compositor draws none (weston's desktop shell, as GNOME): libdecor's.
@Suite("Decorations on Wayland", .serialized)
struct WaylandDecorationTests {
    /// The canvas's top row in `shot` (the first row with a run `width` wide, give or take a few pixels, through the
    /// middle), and its left and right columns. Weston's screenshot takes the unused byte of the app's XRGB buffers
    /// for alpha; the app sets it to 0xff, so the empty canvas reads as the opaque white it is on screen (a zero
    /// byte would read as transparent black). A run much wider is not the window.
    private func canvasTop(in shot: CairoSurface, width: Int) -> (y: Int, left: Int, right: Int)? {
        func isCanvas(_ x: Int, _ y: Int) -> Bool {
            guard let pixel = shot.pixel(x: x, y: y) else { return false }
            return pixel == (255, 255, 255)
        }
        let x = shot.width / 2
        for y in 40..<shot.height where isCanvas(x, y) {
            var left = x
            var right = x
            while isCanvas(left - 1, y) { left -= 1 }
            while isCanvas(right + 1, y) { right += 1 }
            if (width...(width + 8)).contains(right - left + 1) { return (y, left, right) }
        }
        return nil
    }

    /// The canvas's top row as `canvasTop` finds it, once libdecor's title bar shows above it (a dark band): the
    /// canvas can show before the bar is drawn and takes clicks, and a click on a bar not there yet goes nowhere.
    private func decoratedCanvasTop(in shot: CairoSurface, width: Int) -> (y: Int, left: Int, right: Int)? {
        guard let canvas = canvasTop(in: shot, width: width),
            let bar = shot.pixel(x: canvas.left + 40, y: canvas.y - 8), max(bar.red, bar.green, bar.blue) < 40
        else { return nil }
        return canvas
    }

    @Test("a compositor that draws no decorations gets libdecor's title bar, and its close button closes the window")
    func libdecorTitleBarClosesTheWindow() async throws {
        let session = try await WaylandSession.launch(shell: .desktop, extraArguments: ["--geometry", "600x400"])
        defer { session.stop() }
        #expect(session.app.stderr.contains("decorations drawn by libdecor"), "\(session.app.transcript)")
        let (shot, canvas) = try await waitForValue("the window to show", timeout: .seconds(10)) {
            () -> (CairoSurface, (y: Int, left: Int, right: Int))? in
            let shot = try session.screenshot()
            return canvasTop(in: shot, width: 600).map { (shot, $0) }
        }
        // The title bar: a dark band right above the canvas (not the desktop's lighter background).
        let bar = try #require(shot.pixel(x: canvas.left + 40, y: canvas.y - 8))
        let background = try #require(shot.pixel(x: canvas.left + 40, y: canvas.y - 60))
        #expect(max(bar.red, bar.green, bar.blue) < 40, "no title bar above the canvas: \(bar)")
        #expect(max(background.red, background.green, background.blue) > 60, "\(background)")
        // The close button sits at the bar's right end.
        try session.input.click(at: (Double(canvas.right - 14), Double(canvas.y - 12)))
        #expect(try await session.app.waitForExit() == 0, "\(session.app.transcript)")
    }

    @Test("a double click on libdecor's title bar is the title bar's, not a double tap that clears the drawing")
    func titleBarDoubleClickLeavesTheDrawing() async throws {
        let session = try await WaylandSession.launch(shell: .desktop, extraArguments: ["--geometry", "600x400"])
        defer { session.stop() }
        let canvas = try await waitForValue("the window to show", timeout: .seconds(10)) {
            decoratedCanvasTop(in: try session.screenshot(), width: 600)
        }
        let input = session.input
        let start = (x: Double(canvas.left + 50), y: Double(canvas.y + 200))
        try input.pointerMotion(x: start.x, y: start.y)
        try input.pointerFrame()
        try input.pointerButton(.left, pressed: true)
        try input.pointerFrame()
        for step in 1...6 {
            try input.pointerMotion(x: start.x + Double(step) * 50, y: start.y)
            try input.pointerFrame()
        }
        try input.pointerButton(.left, pressed: false)
        try input.pointerFrame()
        try input.sync()
        _ = try await session.document(lineCount: 1)
        // Twice, quickly, in the middle of the bar, over no button.
        let bar = (x: Double(canvas.left + 200), y: Double(canvas.y - 12))
        try input.click(at: bar)
        try input.click(at: bar)
        try await Task.sleep(for: .seconds(1.5))
        #expect(SavedDocument.read(session.document)?.lines.count == 1, "\(session.app.transcript)")
    }

    @Test("a window restored from maximized with libdecor's button takes back the size it had, and remembers it")
    func restoredWindowTakesBackItsSize() async throws {
        let folder = try makeTemporaryFolder("touchtracker-wayland-restored")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await WaylandSession.launch(
            shell: .desktop, folder: folder, extraArguments: ["--geometry", "600x400"])
        let canvas = try await waitForValue("the window to show", timeout: .seconds(10)) {
            decoratedCanvasTop(in: try session.screenshot(), width: 600)
        }
        try session.input.click(at: (Double(canvas.right - 47), Double(canvas.y - 12)))
        try await session.app.waitForStderrLine(containing: "maximized", timeout: .seconds(15))
        // The same button, now at the maximized window's top right, restores it: weston proposes 0x0.
        try await Task.sleep(for: .seconds(1))
        let maximized = try await waitForValue("the maximized window to show", timeout: .seconds(10)) {
            decoratedCanvasTop(in: try session.screenshot(), width: 1024)
        }
        try session.input.click(at: (Double(maximized.right - 47), Double(maximized.y - 12)))
        try await waitUntil("the window restored to 600x400", timeout: .seconds(15)) {
            session.app.stderrLines.filter { $0.contains("configured 600x400") }.count == 2
        }
        #expect(try await session.app.terminate() == 0)
        session.stop()
        let memory = try String(contentsOf: folder.appendingPathComponent("drawing.window.json"), encoding: .utf8)
        #expect(memory.contains("\"width\":600") && !memory.contains("maximized"), "\(memory)")
    }

    @Test("a window maximized with libdecor's button comes back maximized, and remembers its size before that")
    func maximizedWindowComesBackMaximized() async throws {
        let folder = try makeTemporaryFolder("touchtracker-wayland-maximized")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try await WaylandSession.launch(
            shell: .desktop, folder: folder, extraArguments: ["--geometry", "600x400"])
        let canvas = try await waitForValue("the window to show", timeout: .seconds(10)) {
            decoratedCanvasTop(in: try first.screenshot(), width: 600)
        }
        // libdecor's maximize button, left of the close button.
        try first.input.click(at: (Double(canvas.right - 47), Double(canvas.y - 12)))
        // Generous: on a machine busy with the other suites weston's desktop shell can take seconds to answer.
        try await first.app.waitForStderrLine(containing: "maximized", timeout: .seconds(15))
        #expect(try await first.app.terminate() == 0)
        first.stop()
        let memory = try String(contentsOf: folder.appendingPathComponent("drawing.window.json"), encoding: .utf8)
        #expect(memory.contains("\"maximized\":true") && memory.contains("\"width\":600"), "\(memory)")

        let second = try await WaylandSession.launch(shell: .desktop, folder: folder)
        defer { second.stop() }
        try await second.app.waitForStderrLine(containing: "maximized", timeout: .seconds(15))
    }
}
