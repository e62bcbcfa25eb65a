import Foundation
import MutterTestSupport
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

/// TouchTracker as a native Wayland client under GNOME's real compositor, mutter 43 headless, at scale 1 and at
/// scale 2, with touch, pointer and keys that mutter injects itself (org.gnome.Mutter.RemoteDesktop): the gestures
/// the weston suite covers. Points are the window's logical coordinates, and so is every coordinate read back from
/// the saved document: a touch at window (100, 100) is saved as (100, 100) at scale 2 too (docs/DESIGN.md §2a: a
/// drawing is kept in units, one unit a pixel at 100 %).
@Suite("Gestures on GNOME's mutter", .serialized)
struct MutterGestureTests {
    @Test("two fingers down at once draw two lines, saved in logical units", arguments: [1, 2])
    func twoFingersDrawTwoLines(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.touchDown(slot: 0, at: (100, 100))
        try session.touchDown(slot: 1, at: (100, 300))
        for step in 1...10 {
            try session.touchMotion(slot: 0, to: (100 + Double(step) * 30, 100))
            try session.touchMotion(slot: 1, to: (100 + Double(step) * 30, 300))
        }
        try session.input.touchUp(slot: 0)
        try session.input.touchUp(slot: 1)
        let document = try await session.document(lineCount: 2)
        let lines = document.lines.sorted { $0.begin.y < $1.begin.y }
        #expect(lines[0].begin.distance(to: (100, 100)) <= 1, "\(lines)")
        #expect(lines[0].end.distance(to: (400, 100)) <= 1, "\(lines)")
        #expect(lines[1].begin.distance(to: (100, 300)) <= 1, "\(lines)")
        #expect(lines[1].end.distance(to: (400, 300)) <= 1, "\(lines)")
    }

    @Test("tapping a line opens its menu, and tapping Delete removes it", arguments: [1, 2])
    func tapThenDeleteRemovesTheLine(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.stroke(slot: 0, from: (40, 100), to: (400, 100))
        try session.stroke(slot: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.tap(slot: 2, at: (200, 103))
        // The single tap is recognized once the double tap has failed (0.35 s); the menu opens at the tap point, and
        // (240, 125) is on its Delete item at every scale: the menu's size is in units too.
        try await Task.sleep(for: .milliseconds(800))
        try session.tap(slot: 3, at: (240, 125))
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 300) <= 1, "\(document.lines)")
    }

    @Test("a double tap clears the drawing", arguments: [1, 2])
    func doubleTapClears(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.stroke(slot: 0, from: (40, 100), to: (400, 100))
        _ = try await session.document(lineCount: 1)
        try session.tap(slot: 1, at: (500, 420))
        try session.tap(slot: 2, at: (502, 421))
        _ = try await session.document(lineCount: 0)
    }

    @Test("a long press on a line then a 100-unit drag moves it by 100 units", arguments: [1, 2])
    func longPressDragMovesTheLine(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.stroke(slot: 0, from: (100, 150), to: (400, 150))
        _ = try await session.document(lineCount: 1)
        try session.touchDown(slot: 1, at: (250, 152))
        try await Task.sleep(for: .milliseconds(800))
        for step in 1...10 {
            try session.touchMotion(slot: 1, to: (250, 152 + Double(step) * 10))
        }
        try session.input.touchUp(slot: 1)
        do {
            _ = try await waitForValue("the line to move down by 100 units", timeout: .seconds(10)) { () -> Bool? in
                guard let document = SavedDocument.read(session.document), document.lines.count == 1 else {
                    return nil
                }
                let line = document.lines[0]
                return line.begin.distance(to: (100, 250)) <= 1 && line.end.distance(to: (400, 250)) <= 1 ? true : nil
            }
        } catch {
            Issue.record("\(error)\n\(session.failureContext())")
        }
    }

    @Test("Ctrl+Z on mutter's virtual keyboard undoes the last line", arguments: [1, 2])
    func controlZUndoes(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.stroke(slot: 0, from: (40, 100), to: (400, 100))
        try session.stroke(slot: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.key(LinuxKey.z, control: true)
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 100) <= 1, "\(document.lines)")
    }

    @Test(
        "the keyboard draws from the window's middle in 10-unit steps: Space, Right three times, Space",
        arguments: [1, 2])
    func keyboardStepsAreUnits(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        let space = 57
        try session.key(space)
        for _ in 0..<3 { try session.key(LinuxKey.right) }
        try session.key(space)
        let document = try await session.document(lineCount: 1)
        let line = document.lines[0]
        // The cursor starts at the window's middle, in units: half the window's size at any scale.
        let middle = (x: session.windowSize.width / 2, y: session.windowSize.height / 2)
        #expect(line.begin.distance(to: middle) <= 1, "\(line) in a \(session.windowSize) window")
        #expect(line.end.distance(to: (middle.x + 30, middle.y)) <= 1, "\(line)")
    }

    @Test("a left-button drag of the mouse draws a line, saved in logical units", arguments: [1, 2])
    func mouseDragDraws(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.pointerMotion(to: (99, 249))
        try session.pointerMotion(to: (100, 250))
        try session.input.pointerButton(.left, pressed: true)
        for step in 1...6 {
            try session.pointerMotion(to: (100 + Double(step) * 50, 250))
        }
        try session.input.pointerButton(.left, pressed: false)
        let document = try await session.document(lineCount: 1)
        #expect(document.lines[0].begin.distance(to: (100, 250)) <= 1, "\(document.lines)")
        #expect(document.lines[0].end.distance(to: (400, 250)) <= 1, "\(document.lines)")
    }
}

/// What GNOME gives the window beyond input: libdecor's title bar (mutter 43 has no xdg-decoration), the clipboard
/// with other Wayland programs, and the pixels mutter composites, at scale 1 and 2.
@Suite("TouchTracker on GNOME's mutter", .serialized)
struct MutterDesktopTests {
    private static let documentType = "application/x-touchtracker+json"

    /// libdecor's title bar: 24 units tall above the canvas, its buttons 32 units wide at its right end (close, then
    /// maximize), as its Cairo plugin draws them at every scale.
    private static func titleBarButton(_ index: Int, of session: MutterSession) -> (x: Double, y: Double) {
        (session.windowSize.width - 16 - 32 * Double(index), -12)
    }

    @Test(
        "libdecor draws the title bar, and its close button closes the window with the drawing saved",
        arguments: [1, 2])
    func titleBarCloseButtonClosesTheWindow(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        #expect(session.app.stderr.contains("decorations drawn by libdecor"), "\(session.app.transcript)")
        // The bar: a dark band right above the canvas, as tall as 24 units at this scale.
        let frame = try session.server.frame()
        let canvas = session.canvas
        let barRows = (1...(40 * scale)).prefix { row in
            let pixel = frame.pixel(x: canvas.x + 40 * scale, y: canvas.y - row)
            return max(pixel.red, pixel.green, pixel.blue) < 40
        }.count
        #expect(abs(barRows - 24 * scale) <= scale, "a title bar \(barRows) px tall above the canvas")
        try session.stroke(slot: 0, from: (40, 100), to: (400, 100))
        _ = try await session.document(lineCount: 1)
        let close = session.streamPoint(Self.titleBarButton(0, of: session))
        try session.click(atStream: close)
        #expect(try await session.app.waitForExit() == 0, "\(session.app.transcript)")
        let saved = try #require(SavedDocument.read(session.document))
        #expect(saved.lines.count == 1)
        #expect(saved.lines.first.map { $0.begin.distance(to: (40, 100)) <= 1 } == true, "\(saved.lines)")
    }

    @Test("libdecor's maximize button makes the window take the whole monitor, and it draws there", arguments: [1, 2])
    func titleBarMaximizeButtonGrowsTheWindow(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        let before = session.windowSize
        try session.click(atStream: session.streamPoint(Self.titleBarButton(1, of: session)))
        try await session.app.waitForStderrLine(containing: "maximized", timeout: .seconds(15))
        // The window grows to the monitor's logical width, its canvas below the title bar.
        let monitor = MutterSession.monitor(scale: scale)
        let canvas = try await waitForValue("the maximized canvas", timeout: .seconds(20)) {
            () -> MutterSession.Canvas? in
            let canvas = try session.server.frame().whiteArea(minimumWidth: 200 * scale)
            return canvas.flatMap {
                $0.width == monitor.width
                    ? MutterSession.Canvas(x: $0.x, y: $0.y, width: $0.width, height: $0.height) : nil
            }
        }
        try await session.locateCanvas()
        #expect(canvas.x == 0 && canvas.y == 24 * scale, "\(canvas)")
        #expect(session.windowSize.width > before.width && session.windowSize.height > before.height)
        // A stroke where the window was not before: the maximized window takes input there, in logical units.
        let far = (x: before.width + 100, y: before.height + 20)
        try session.stroke(slot: 0, from: (100, far.y), to: far)
        let document = try await session.document(lineCount: 1)
        #expect(document.lines[0].end.distance(to: far) <= 1, "\(document.lines)")
    }

    @Test("Ctrl+C offers the drawing to other Wayland programs (wl-paste), in logical units", arguments: [1, 2])
    func copyIsReadByWlPaste(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.stroke(slot: 0, from: (40, 100), to: (400, 100))
        try session.stroke(slot: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.key(LinuxKey.c, control: true)
        try await session.app.waitForStderrLine(containing: "copied the drawing to the clipboard")
        var bytes: [UInt8] = []
        for _ in 0..<20 where bytes.isEmpty {
            bytes = try await session.runClient("/usr/bin/wl-paste", ["--no-newline", "--type", Self.documentType])
            if bytes.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        let pasted = try ClipboardShapes.shapes(fromDocument: bytes)
        #expect(pasted.count == 2)
        let lines = pasted.compactMap { shape -> Line? in
            if case .line(let line) = shape { return line }
            return nil
        }.sorted { $0.begin.y < $1.begin.y }
        #expect(lines.map { $0.begin.y.rounded() } == [100, 300], "\(lines)")
        #expect(lines.allSatisfy { abs($0.begin.x - 40) <= 1 && abs($0.end.x - 400) <= 1 }, "\(lines)")
    }

    @Test(
        "Ctrl+V pastes the shapes another Wayland program copied (wl-copy) into the saved drawing", arguments: [1, 2])
    func pasteReadsWlCopy(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        let drawing = Drawing(lines: [
            Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
            Line(begin: Point(x: 100, y: 200), end: Point(x: 300, y: 200)),
            Line(begin: Point(x: 100, y: 300), end: Point(x: 300, y: 300)),
        ])
        let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        try await session.runClient("/usr/bin/wl-copy", ["--type", Self.documentType, text], readsOutput: false)
        // wl-copy's surface may take the keyboard for a moment to set the selection (mutter gives the selection
        // only to a focused client); the pointer over the window gives the paste a place, and the keys wait for the
        // window to have the keyboard again.
        try await waitUntil("the window to have the keyboard", timeout: .seconds(5), poll: .milliseconds(20)) {
            session.app.stderrLines.last { $0.contains("keyboard focus") }?.hasSuffix("keyboard focus in") ?? true
        }
        try session.pointerMotion(to: (399, 399))
        try session.pointerMotion(to: (400, 400))
        try session.key(LinuxKey.v, control: true)
        let document = try await session.document(lineCount: 3)
        let rows = document.lines.map { $0.begin.y }.sorted()
        // Pasted shapes keep their size: 200 units long, 100 units apart, at any scale.
        #expect(zip(rows, rows.dropFirst()).allSatisfy { abs($1 - $0 - 100) <= 1 }, "\(document.lines)")
        #expect(document.lines.allSatisfy { abs($0.end.x - $0.begin.x - 200) <= 1 }, "\(document.lines)")
    }

    @Test("a saved drawing opens where its units put it, at (units × scale) pixels", arguments: [1, 2])
    func savedDrawingShowsAtItsUnits(scale: Int) async throws {
        let drawing = Drawing(lines: [Line(begin: Point(x: 150, y: 120), end: Point(x: 650, y: 420))])
        let session = try await MutterSession.launch(scale: scale, drawing: drawing)
        defer { session.stop() }
        // Along the line, every 100 units: dark at its middle; 20 units above and below, white. The tiles are
        // painted in the background: frames are taken until the line's middle shows.
        let points = stride(from: 0.1, through: 0.9, by: 0.2).map { t in (x: 150 + 500 * t, y: 120 + 300 * t) }
        let middle = session.streamPoint(points[2])
        let frame = try await waitForValue("the line in the screen cast", timeout: .seconds(10)) {
            let frame = try session.server.frame()
            return frame.isWhite(x: Int(middle.x), y: Int(middle.y)) ? nil : frame
        }
        for point in points {
            let pixel = session.streamPoint(point)
            let (x, y) = (Int(pixel.x), Int(pixel.y))
            #expect(!frame.isWhite(x: x, y: y), "no line at \(point)")
            #expect(frame.isWhite(x: x, y: y - 20 * scale) && frame.isWhite(x: x, y: y + 20 * scale), "at \(point)")
        }
    }

    @Test("the screen cast shows a line where it was drawn, as wide as the line at this scale", arguments: [1, 2])
    func screenCastShowsTheLine(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try session.stroke(slot: 0, from: (100, 200), to: (500, 200))
        _ = try await session.document(lineCount: 1)
        // The column through the line's middle: dark pixels where the 10-unit line crosses it, white above and below.
        let x = Int(session.streamPoint((300, 200)).x)
        let centre = Int(session.streamPoint((300, 200)).y)
        let dark = try await waitForValue("the line in the screen cast", timeout: .seconds(10)) { () -> Int? in
            let frame = try session.server.frame()
            let rows = (centre - 30 * scale)...(centre + 30 * scale)
            let count = rows.filter { row in
                let pixel = frame.pixel(x: x, y: row)
                return max(pixel.red, pixel.green, pixel.blue) < 128
            }.count
            return count > 0 ? count : nil
        }
        #expect(abs(dark - 10 * scale) <= scale, "the line is \(dark) px wide in the frame")
        let frame = try session.server.frame()
        #expect(frame.isWhite(x: x, y: centre - 20 * scale) && frame.isWhite(x: x, y: centre + 20 * scale))
        #expect(!frame.isWhite(x: x, y: centre))
    }
}

/// The monitor's scale changed in GNOME's display settings while the window is open (docs/DESIGN.md §2a).
@Suite("A scale change on GNOME's mutter", .serialized)
struct MutterScaleChangeTests {
    @Test(
        """
        from 100 % to 200 % with the window open, the drawing keeps its units, the window doubles in pixels with it, \
        lines repaint twice as wide, and new strokes are saved in units
        """)
    func scaleChangeKeepsTheDrawing() async throws {
        let session = try await MutterSession.launch(scale: 1, monitor: (2560, 1600))
        defer { session.stop() }
        try session.stroke(slot: 0, from: (100, 100), to: (400, 100))
        let before = try await session.document(lineCount: 1)
        let canvasBefore = session.canvas
        try session.server.setScale(2)
        try await session.app.waitForStderrLine(containing: "painting at scale 2", timeout: .seconds(10))
        // mutter lays monitors out in physical pixels: the window keeps its units and so doubles on screen.
        var canvas = try await session.locateCanvas()
        let deadline = ContinuousClock.now.advanced(by: .seconds(20))
        while canvas.width != 2 * canvasBefore.width, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            canvas = try await session.locateCanvas()
        }
        #expect(canvas.width == 2 * canvasBefore.width, "\(canvasBefore) → \(canvas)")
        #expect(canvas.height == 2 * canvasBefore.height, "\(canvasBefore) → \(canvas)")
        #expect(SavedDocument.read(session.document) == before, "the scale change rewrote the drawing")
        // The line drawn at 100 %: 10 units wide, 20 pixels now, where its units put it.
        let frame = try session.server.frame()
        let column = session.streamPoint((250, 100))
        let dark = ((Int(column.y) - 30)...(Int(column.y) + 30)).filter { row in
            let pixel = frame.pixel(x: Int(column.x), y: row)
            return max(pixel.red, pixel.green, pixel.blue) < 128
        }.count
        #expect(abs(dark - 20) <= 2, "the line is \(dark) px wide after the change")
        try session.stroke(slot: 1, from: (100, 300), to: (400, 300))
        let document = try await session.document(lineCount: 2)
        let new = try #require(document.lines.first { $0.begin.y > 200 })
        #expect(new.begin.distance(to: (100, 300)) <= 1 && new.end.distance(to: (400, 300)) <= 1, "\(document.lines)")
    }
}

/// One window per document on GNOME: a second `touchtracker` started by a launcher, as GNOME's launchers do
/// (GIO's app launch with GDK's launch context), hands the activation token mutter issued the launcher to the
/// first window, and mutter makes that window the active one.
@Suite("One owner on GNOME's mutter", .serialized)
struct MutterActivationTests {
    /// A GTK 3 launcher (python3-gi): one fullscreen window that, on a click, launches `sys.argv[1:]` as GNOME's
    /// launchers do, through GIO with GDK's Wayland launch context: GDK gets a startup id from mutter as an
    /// xdg-activation token (with the click's serial, the seat and the focused surface: what lets mutter grant it),
    /// and Debian 12's GLib 2.74 hands it to the app as DESKTOP_STARTUP_ID (2.76 and later as XDG_ACTIVATION_TOKEN
    /// too). It prints `focused` when its window has the keyboard and `launched TOKEN`.
    static let launcher = #"""
        import shlex, sys, gi
        gi.require_version("Gtk", "3.0")
        gi.require_version("Gdk", "3.0")
        from gi.repository import Gdk, Gio, Gtk

        command = sys.argv[1:]
        window = Gtk.Window(title="launcher")
        window.connect("destroy", Gtk.main_quit)

        def launched(context, info, platform_data):
            token = platform_data.lookup_value("startup-notification-id", None)
            print("launched", token.get_string() if token else "", flush=True)

        def clicked(widget, event):
            context = widget.get_display().get_app_launch_context()
            context.set_timestamp(event.time)
            context.connect("launched", launched)
            info = Gio.AppInfo.create_from_commandline(" ".join(shlex.quote(word) for word in command),
                                                       "touchtracker",
                                                       Gio.AppInfoCreateFlags.SUPPORTS_STARTUP_NOTIFICATION)
            info.launch([], context)
            return True

        window.connect("button-press-event", clicked)
        window.connect("focus-in-event", lambda *arguments: print("focused", flush=True))
        window.add_events(Gdk.EventMask.BUTTON_PRESS_MASK)
        window.fullscreen()
        window.show_all()
        Gtk.main()
        """#

    @Test(
        "a second touchtracker a launcher starts with mutter's token makes the first window the active one",
        arguments: [1, 2])
    func secondInstanceActivatesTheFirst(scale: Int) async throws {
        let session = try await MutterSession.launch(scale: scale)
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "keyboard focus in", timeout: .seconds(10))
        var environment = session.server.clientEnvironment
        environment["GDK_BACKEND"] = "wayland"
        let launcher = try ChildProcess(
            executable: "/usr/bin/python3",
            arguments: [
                "-c", Self.launcher, session.app.executable.path, "--backend", "wayland", "--document",
                session.document.path,
            ], environment: environment)
        defer { _ = launcher.stop() }
        func launcherSaid(_ word: String) -> String? {
            String(decoding: launcher.stdout, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix(word) }
                .map(String.init)
        }
        // The launcher's window takes the keyboard from the first one.
        try await waitUntil("the launcher to have the keyboard", timeout: .seconds(20)) {
            if let exit = launcher.exit {
                throw AppProcess.AppError(
                    description: "the launcher \(exit): \(String(decoding: launcher.stderr, as: UTF8.self))")
            }
            return launcherSaid("focused") != nil
        }
        try await session.app.waitForStderrLine(containing: "keyboard focus out", timeout: .seconds(10))
        let focusesBefore = session.app.stderrLines.filter { $0.hasSuffix("keyboard focus in") }.count
        // A click in the launcher's fullscreen window (the monitor's middle, away from the bottom right corner where
        // the pointer was warmed up, so this is a motion and a press).
        try session.click(atStream: (Double(session.server.width / 2), Double(session.server.height / 2)))
        let launched = try await waitForValue("the launcher to start touchtracker", timeout: .seconds(10)) {
            launcherSaid("launched ")
        }
        // mutter's own token: a UUID and the time it was issued.
        #expect(launched.contains("_TIME"), "not a token mutter issued: \(launched)")
        try await session.app.waitForStderrLine(containing: "asked to come forward", timeout: .seconds(15))
        do {
            try await waitUntil("the first window to be the active one again", timeout: .seconds(10)) {
                session.app.stderrLines.filter { $0.hasSuffix("keyboard focus in") }.count > focusesBefore
            }
        } catch {
            Issue.record(
                "\(error)\n\(session.failureContext())\n--- launcher:\n\(String(decoding: launcher.stderr, as: UTF8.self))"
            )
        }
        // Active means raised too: the canvas shows again where it was, above the launcher's fullscreen window
        // (GTK's grey, not white).
        let canvas = session.canvas
        try await waitUntil("the first window to show above the launcher", timeout: .seconds(10)) {
            let area = try session.server.frame().whiteArea(minimumWidth: 200 * scale)
            return area.map { MutterSession.Canvas(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } == canvas
        }
    }
}

/// The harness's facts about mutter 43, checked against the real one: what the GNOME tests above rely on.
@Suite("mutter harness", .serialized)
struct MutterHarnessTests {
    @Test("mutter offers scale 2 for a 2560x1600 monitor, and the harness refuses it for 1280x800, saying why")
    func scaleTwoNeedsALargeMonitor() async throws {
        let large = try await MutterServer.start(width: 2560, height: 1600, scale: 2)
        #expect(large.scale == 2 && large.width == 2560 && large.height == 1600)
        large.stop()
        do {
            let small = try await MutterServer.start(width: 1280, height: 800, scale: 2)
            small.stop()
            Issue.record("mutter took scale 2 for a 1280x800 monitor")
        } catch {
            #expect("\(error)".contains("offers the scales [1.0] for a 1280x800 monitor"), "\(error)")
        }
    }

    @Test("a screen cast frame is the whole monitor, in physical pixels, without the pointer")
    func frameIsTheMonitor() async throws {
        let server = try await MutterServer.start(width: 2560, height: 1600, scale: 2)
        defer { server.stop() }
        // The pointer is hidden from the stream: where it stands (the middle, moved there now) the frame shows the
        // background, a smooth dark blue (an arrow would be black and white) that changes by a few levels at most
        // over 100 pixels.
        try server.input.pointerMotion(x: 1279, y: 799)
        try server.input.pointerMotion(x: 1280, y: 800)
        let frame = try server.frame()
        #expect(frame.width == 2560 && frame.height == 1600)
        #expect(frame.whiteArea(minimumWidth: 20) == nil, "nothing white on an empty desktop")
        let beside = frame.pixel(x: 1380, y: 800)
        for (x, y) in [(1281, 801), (1284, 806), (1290, 812), (1286, 820), (1295, 830)] {
            let here = frame.pixel(x: x, y: y)
            let difference =
                [
                    Int(here.red) - Int(beside.red), Int(here.green) - Int(beside.green),
                    Int(here.blue) - Int(beside.blue),
                ].map(abs).max() ?? 0
            #expect(difference <= 8, "the pointer shows in the frame at (\(x), \(y)): \(here) beside \(beside)")
        }
    }
}
