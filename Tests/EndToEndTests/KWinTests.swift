import Foundation
import KWinTestSupport
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

/// TouchTracker as a native Wayland client under KDE's real compositor, KWin 5.27 (`kwin_wayland --virtual`),
/// headless, at 100 % and at 150 %, with touch, pointer and keys that KWin itself injects (its
/// `org_kde_kwin_fake_input` protocol, driven by the tests' client). Every point is given in the window's logical
/// units and every effect is read back from the SAVED document in the same units: one unit is one pixel at 100 %,
/// so a touch at window (120, 110) is saved as (120, 110) at every scale.
@Suite("Gestures on KWin", .serialized)
struct KWinGestureTests {
    @Test("a touch at window point (120, 110) is saved at (120, 110), whatever the scale", arguments: [1.0, 1.5])
    func touchIsSavedInLogicalUnits(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        if scale != 1 {
            // The window really paints at KWin's fractional scale (wp_fractional_scale_v1), not at 1 or at the
            // output's rounded-up integer scale 2.
            let lastScale = session.app.stderrLines.last { $0.contains("painting at scale") }
            #expect(lastScale?.contains("painting at scale \(scale) now") == true, "\(session.app.transcript)")
        }
        try session.input.stroke(id: 0, from: (120, 110), to: (300, 110))
        let document = try await session.document(lineCount: 1)
        #expect(document.lines[0].begin.distance(to: (120, 110)) <= 1, "\(document.lines)")
        #expect(document.lines[0].end.distance(to: (300, 110)) <= 1, "\(document.lines)")
    }

    @Test("two fingers down at once draw two lines, saved when they lift", arguments: [1.0, 1.5])
    func twoFingersDrawTwoLines(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        let input = session.input
        try input.touchDown(id: 0, x: 100, y: 100)
        try input.touchDown(id: 1, x: 100, y: 300)
        try input.touchFrame()
        for step in 1...10 {
            try input.touchMotion(id: 0, x: 100 + Double(step) * 30, y: 100)
            try input.touchMotion(id: 1, x: 100 + Double(step) * 30, y: 300)
            try input.touchFrame()
        }
        try input.touchUp(id: 0)
        try input.touchUp(id: 1)
        try input.touchFrame()
        try input.sync()
        let document = try await session.document(lineCount: 2)
        let rows = Set(document.lines.map { Int($0.begin.y.rounded()) })
        #expect(rows == [100, 300], "\(document.lines)")
        #expect(
            document.lines.allSatisfy { abs($0.begin.x - 100) <= 1 && abs($0.end.x - 400) <= 1 }, "\(document.lines)")
    }

    @Test("tapping a line opens its menu, and tapping Delete removes it", arguments: [1.0, 1.5])
    func tapThenDeleteRemovesTheLine(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        try session.input.stroke(id: 0, from: (40, 100), to: (400, 100))
        try session.input.stroke(id: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.input.tap(id: 2, at: (200, 103))
        // The single tap is recognized once the double tap has failed (0.35 s); the menu opens at the tap point, its
        // Delete item where it is at 100 % (menu metrics keep their size on screen, so their logical size too).
        try await Task.sleep(for: .milliseconds(800))
        try session.input.tap(id: 3, at: (240, 125))
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 300) <= 1, "\(document.lines)")
    }

    @Test("a double tap clears the drawing", arguments: [1.0, 1.5])
    func doubleTapClears(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        try session.input.stroke(id: 0, from: (40, 100), to: (400, 100))
        _ = try await session.document(lineCount: 1)
        try session.input.tap(id: 1, at: (500, 420))
        try session.input.tap(id: 2, at: (502, 421))
        _ = try await session.document(lineCount: 0)
    }

    @Test("a long press on a line then a 100-unit drag moves it by 100 units", arguments: [1.0, 1.5])
    func longPressDragMovesTheLine(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        try session.input.stroke(id: 0, from: (100, 150), to: (400, 150))
        _ = try await session.document(lineCount: 1)
        let input = session.input
        try input.touchDown(id: 1, x: 250, y: 152)
        try input.touchFrame()
        try input.sync()
        try await Task.sleep(for: .milliseconds(800))
        for step in 1...10 {
            try input.touchMotion(id: 1, x: 250, y: 152 + Double(step) * 10)
            try input.touchFrame()
        }
        try input.touchUp(id: 1)
        try input.touchFrame()
        try input.sync()
        let moved = try? await waitForValue("the line to move down by 100 units", timeout: .seconds(10)) {
            () -> Bool? in
            guard let document = SavedDocument.read(session.document), document.lines.count == 1 else { return nil }
            let line = document.lines[0]
            return line.begin.distance(to: (100, 250)) <= 1 && line.end.distance(to: (400, 250)) <= 1 ? true : nil
        }
        #expect(moved == true, "\(SavedDocument.read(session.document)?.lines ?? [])")
    }

    @Test("Ctrl+Z on the keyboard undoes the last line", arguments: [1.0, 1.5])
    func controlZUndoes(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        try session.input.stroke(id: 0, from: (40, 100), to: (400, 100))
        try session.input.stroke(id: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.input.press(LinuxKey.z, holding: LinuxKey.leftControl)
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 100) <= 1, "\(document.lines)")
    }

    @Test("a touch KWin cancels leaves no line, and the next stroke draws normally", arguments: [1.0, 1.5])
    func touchCancelLeavesNoLine(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        let input = session.input
        try input.touchDown(id: 0, x: 100, y: 200)
        try input.touchFrame()
        for step in 1...5 {
            try input.touchMotion(id: 0, x: 100 + Double(step) * 50, y: 200)
            try input.touchFrame()
        }
        try input.touchCancel()
        try input.sync()
        try input.stroke(id: 1, from: (40, 400), to: (400, 400))
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 400) <= 1, "the cancelled touch must not leave a line")
    }

    @Test("a left-button drag of the mouse draws a line", arguments: [1.0, 1.5])
    func mouseDragDraws(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        let input = session.input
        try input.pointerMotion(x: 100, y: 250)
        try input.pointerButton(.left, pressed: true)
        for step in 1...8 {
            try input.pointerMotion(x: 100 + Double(step) * 50, y: 250 + Double(step) * 37.5)
        }
        try input.pointerButton(.left, pressed: false)
        try input.sync()
        let document = try await session.document(lineCount: 1)
        #expect(document.lines[0].begin.distance(to: (100, 250)) <= 1, "\(document.lines)")
        #expect(document.lines[0].end.distance(to: (500, 550)) <= 1, "\(document.lines)")
    }
}

/// What KWin gives a window beyond input: its own decorations, activation, the clipboard, its screenshots.
@Suite("The desktop on KWin", .serialized)
struct KWinDesktopTests {
    private static let documentType = "application/x-touchtracker+json"

    @Test(
        "KWin draws the window's decorations (xdg-decoration, server side): no libdecor frame", arguments: [1.0, 1.5])
    func decorationsAreKWins(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        // The app says what KWin's answer to its request through xdg-decoration was, once it comes: KWin draws them,
        // and no libdecor frame is made.
        _ = try await session.app.waitForStderrLine(containing: "decorations drawn by the compositor (xdg-decoration)")
        let stderr = session.app.stderr
        #expect(!stderr.contains("libdecor"), "\(session.app.transcript)")
        #expect(!stderr.contains("draw its own decorations"), "\(session.app.transcript)")
        // KWin's frame: a title bar above the canvas, which keeps the 800x600 logical units it asked for.
        let window = session.window
        #expect(!window.noBorder, "\(window)")
        #expect(window.client.width == 800 && window.client.height == 600, "\(window)")
        #expect(window.frame.height >= window.client.height + 16, "no title bar: \(window)")
        #expect(window.client.y > window.frame.y, "\(window)")
    }

    @Test(
        """
        a second touchtracker on the same drawing, given an activation token KWin issued, makes the first window the \
        active one
        """,
        arguments: [1.0, 1.5])
    func secondInstanceActivatesTheFirst(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        let server = session.server
        // Another window takes the focus first: a touchtracker on another drawing.
        let otherFolder = try makeTemporaryFolder("touchtracker-kwin-other")
        defer { try? FileManager.default.removeItem(at: otherFolder) }
        let other = try KWinSession.launchApp(on: server, document: otherFolder.appendingPathComponent("other.json"))
        defer { other.stop() }
        try await other.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(20))
        _ = try await KWinSession.shownWindow(of: other, on: server)

        func comeForwardRequests() -> Int {
            session.app.stderrLines.filter { $0.contains("asked to come forward") }.count
        }
        // First a token KWin never issued: KWin refuses it (it only asks for attention), so the other window stays
        // the active one. Without this, a KWin that activated on any token would let the test below pass.
        let forged = try KWinSession.launchApp(
            on: server, document: session.document, environment: ["XDG_ACTIVATION_TOKEN": "kwin-999999"])
        #expect(try await forged.waitForExit(timeout: .seconds(20)) == 0, "\(forged.transcript)")
        try await waitUntil("the window to be asked to come forward", timeout: .seconds(5)) {
            comeForwardRequests() == 1
        }
        try await Task.sleep(for: .seconds(1))
        let stillActive = try await server.windows().first { $0.active }
        #expect(stillActive?.pid == other.pid, "a forged token activated \(String(describing: stillActive))")

        // A launcher's token, as KWin hands one out (to the tests' client, privileged by its .desktop file).
        let token = try server.input.activationToken(appID: "touchtracker")
        #expect(token.hasPrefix("kwin-"), "not a token of KWin's: \(token)")
        let second = try KWinSession.launchApp(
            on: server, document: session.document, environment: ["XDG_ACTIVATION_TOKEN": token])
        #expect(try await second.waitForExit(timeout: .seconds(20)) == 0, "\(second.transcript)")
        #expect(second.stderr.contains("process \(session.app.pid)"), "\(second.transcript)")
        try await waitUntil("the window to be asked to come forward again", timeout: .seconds(5)) {
            comeForwardRequests() == 2
        }
        let active = try await server.waitForWindow("the first window to become the active one") {
            $0.pid == session.app.pid && $0.active
        }
        #expect(active.pid == session.app.pid)
    }

    @Test(
        "Ctrl+C offers the drawing to other Wayland programs in logical units (read with wl-paste)",
        arguments: [1.0, 1.5])
    func copyIsReadByWlPaste(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        try session.input.stroke(id: 0, from: (40, 100), to: (400, 100))
        try session.input.stroke(id: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.input.press(LinuxKey.c, holding: LinuxKey.leftControl)
        try await session.app.waitForStderrLine(containing: "copied the drawing to the clipboard", timeout: .seconds(5))
        var bytes: [UInt8] = []
        for _ in 0..<20 where bytes.isEmpty {
            bytes = try await session.runClient("/usr/bin/wl-paste", ["--no-newline", "--type", Self.documentType])
            if bytes.isEmpty { try await Task.sleep(for: .milliseconds(200)) }
        }
        let pasted = try ClipboardShapes.shapes(fromDocument: bytes)
        let rows = Set(
            pasted.compactMap { shape -> Int? in
                guard case .line(let line) = shape else { return nil }
                return Int(line.begin.y.rounded())
            })
        #expect(rows == [100, 300], "\(pasted)")
    }

    @Test(
        "Ctrl+V pastes the shapes another Wayland program copied (wl-copy), centred on the pointer in logical units",
        arguments: [1.0, 1.5])
    func pasteReadsWlCopy(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        let drawing = Drawing(lines: [
            Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
            Line(begin: Point(x: 100, y: 200), end: Point(x: 300, y: 200)),
            Line(begin: Point(x: 100, y: 300), end: Point(x: 300, y: 300)),
        ])
        let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        try await session.runClient("/usr/bin/wl-copy", ["--type", Self.documentType, text], readsOutput: false)
        // wl-copy's own surface may take the keyboard to set the selection: Ctrl+V waits until the window is KWin's
        // active one again (else the keys would go to wl-copy's surface).
        _ = try await session.server.waitForWindow("the window to be active again") {
            $0.pid == session.app.pid && $0.active
        }
        // The pointer over the window gives the paste its place: the copied shapes' middle (200, 200) lands there.
        try session.input.pointerMotion(x: 499, y: 399)
        try session.input.pointerMotion(x: 500, y: 400)
        try session.input.press(LinuxKey.v, holding: LinuxKey.leftControl)
        let document = try await session.document(lineCount: 3)
        let middle = document.lines.sorted { $0.begin.y < $1.begin.y }[1]
        #expect(
            middle.begin.distance(to: (400, 400)) <= 1 && middle.end.distance(to: (600, 400)) <= 1, "\(document.lines)")
    }

    @Test(
        "KWin's screenshot shows the line drawn where the touch went, black on the white canvas", arguments: [1.0, 1.5])
    func screenshotShowsTheLine(scale: Double) async throws {
        let session = try await KWinSession.launch(scale: scale)
        defer { session.stop() }
        try session.input.stroke(id: 0, from: (40, 100), to: (400, 100))
        _ = try await session.document(lineCount: 1)
        // Points of the window in logical units, read in the screenshot's pixels (`scale` of them a unit): on the
        // line, and 30 units below it.
        func colour(_ shot: KWinScreenshot, _ x: Double, _ y: Double) -> (red: Int, green: Int, blue: Int)? {
            shot.pixel(x: Int((x * shot.scale).rounded()), y: Int((y * shot.scale).rounded()))
        }
        let (shot, onLine, offLine) = try await waitForValue(
            "the line to show in KWin's screenshot", timeout: .seconds(10)
        ) {
            () -> (KWinScreenshot, (red: Int, green: Int, blue: Int), (red: Int, green: Int, blue: Int))? in
            let shot = try session.screenshot()
            guard let on = colour(shot, 220, 100), let off = colour(shot, 220, 130) else { return nil }
            return max(on.red, on.green, on.blue) < 60 && min(off.red, off.green, off.blue) > 200
                ? (shot, on, off) : nil
        }
        #expect(shot.scale == scale, "the screenshot is at scale \(shot.scale)")
        #expect(shot.width == Int((800 * scale).rounded()), "\(shot.width) pixels wide")
        #expect(max(onLine.red, onLine.green, onLine.blue) < 60 && min(offLine.red, offLine.green, offLine.blue) > 200)
    }
}
