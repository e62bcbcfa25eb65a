import Foundation
import Testing
import XorgTestSupport

/// Real scrolls through the X server: the inputtest pointer's and touchpad's scroll valuators (XI 2.1 smooth
/// scrolling, 120 a click), and a driver's button 5, reaching the app. `--verbose` logs each scroll the window
/// hands the session ("scroll at (X, Y): notches (X, Y), distance (X, Y)[, Ctrl][, Shift]").
@Suite("Scrolling under Xorg")
struct ScrollTests {
    /// The scroll lines the app logged so far.
    static func scrollLines(_ session: AppSession) -> [String] {
        session.app.stderrLines.filter { $0.contains("scroll at ") }
    }

    /// Waits until the app has logged `count` scrolls and returns their lines.
    static func waitForScrolls(_ count: Int, in session: AppSession) async throws -> [String] {
        do {
            try await waitUntil("\(count) scrolls logged", timeout: .seconds(10)) {
                scrollLines(session).count >= count
            }
        } catch {
            throw AppProcess.AppError(description: "\(error)\n\(session.app.transcript)")
        }
        return scrollLines(session)
    }

    /// Puts the pointer over window point (`x`, `y`) and waits until the window has seen it come in: the window
    /// reads where the scroll valuators stand when the pointer enters, so a scroll sent at once could be read as
    /// where they stood before it.
    static func pointAt(_ x: Double, _ y: Double, in session: AppSession) async throws {
        let pointer = try session.server.pointer
        try pointer.moveTo(x: session.root(x, y).x, y: session.root(x, y).y)
        try pointer.sync()
        try await Task.sleep(for: .milliseconds(300))
    }

    @Test(
        "three wheel clicks down reach the app as three notches down where the pointer is, in window units",
        arguments: [(1.0, "(320.0, 240.0)"), (2.0, "(160.0, 120.0)")])
    func wheelClicksReachTheApp(scale: Double, location: String) async throws {
        let session = try await AppSession.launch(extraArguments: ["--scale", "\(scale)"])
        defer { session.stop() }
        #expect(
            session.app.stderr.contains("scrolls by wheel clicks on valuators 2 (horizontal, 120.0 a click)"),
            "\(session.app.transcript)")
        try await Self.pointAt(320, 240, in: session)
        let pointer = try session.server.pointer
        for _ in 0..<3 { try pointer.scroll(vertical: 120) }
        try pointer.sync()
        let lines = try await Self.waitForScrolls(3, in: session)
        #expect(lines.count == 3, "\(lines)")
        for line in lines {
            #expect(line.hasSuffix("scroll at \(location): notches (0.0, 1.0), distance (0.0, 0.0)"), "\(line)")
        }
    }

    @Test("a half click up is half a notch up, and a click right one notch right")
    func halfClickAndSideways() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await Self.pointAt(200, 100, in: session)
        let pointer = try session.server.pointer
        try pointer.scroll(vertical: -60)
        try pointer.scroll(horizontal: 120)
        try pointer.sync()
        let lines = try await Self.waitForScrolls(2, in: session)
        #expect(lines.first?.hasSuffix("notches (0.0, -0.5), distance (0.0, 0.0)") == true, "\(lines)")
        #expect(lines.last?.hasSuffix("notches (1.0, 0.0), distance (0.0, 0.0)") == true, "\(lines)")
    }

    @Test("clicks over another window are not counted when the pointer comes back: one click there is one notch")
    func scrollsElsewhereAreNotCounted() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let pointer = try session.server.pointer
        // The root window, left of the app's window: the scrolls move the valuator, and no window of the app's
        // sees them.
        try pointer.moveTo(x: 20, y: 20)
        try pointer.sync()
        for _ in 0..<4 { try pointer.scroll(vertical: 120) }
        try pointer.sync()
        try await Self.pointAt(300, 200, in: session)
        try pointer.scroll(vertical: 120)
        try pointer.sync()
        let lines = try await Self.waitForScrolls(1, in: session)
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.scrollLines(session).count == 1, "\(Self.scrollLines(session))")
        #expect(lines.first?.hasSuffix("notches (0.0, 1.0), distance (0.0, 0.0)") == true, "\(lines)")
    }

    @Test("a driver's button 5 on a device with scroll valuators scrolls one notch, not two")
    func driverButtonScrollsOnce() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await Self.pointAt(300, 200, in: session)
        let pointer = try session.server.pointer
        try pointer.buttonDown(5)
        try pointer.buttonUp(5)
        try pointer.sync()
        let lines = try await Self.waitForScrolls(1, in: session)
        // A second scroll, if one were coming, would be in the same batch.
        try await Task.sleep(for: .milliseconds(300))
        #expect(Self.scrollLines(session).count == 1, "\(Self.scrollLines(session))")
        #expect(lines.first?.hasSuffix("notches (0.0, 1.0), distance (0.0, 0.0)") == true, "\(lines)")
    }

    @Test("Ctrl held on the keyboard is carried with the wheel's click, and Shift")
    func modifiersReachTheApp() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await Self.pointAt(300, 200, in: session)
        let keyboard = try session.server.keyboard
        let pointer = try session.server.pointer
        for (key, expected) in [("Control_L", ", Ctrl"), ("Shift_L", ", Shift")] {
            let code = try session.keycodes([key])[0]
            try keyboard.keyDown(keycode: code)
            try keyboard.sync()
            try pointer.scroll(vertical: 120)
            try pointer.sync()
            try keyboard.keyUp(keycode: code)
            try keyboard.sync()
            let lines = try await Self.waitForScrolls(key == "Control_L" ? 1 : 2, in: session)
            #expect(lines.last?.hasSuffix("notches (0.0, 1.0), distance (0.0, 0.0)\(expected)") == true, "\(lines)")
        }
    }

    @Test("the touchpad's scroll (a device with a gesture class) is travel: 120 valuator units are 15 pixels")
    func touchpadScrollIsTravel() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        #expect(session.app.stderr.contains("scrolls by touchpad travel"), "\(session.app.transcript)")
        try await Self.pointAt(300, 200, in: session)
        let touchpad = try session.server.gesture
        try touchpad.scroll(vertical: 120)
        try touchpad.sync()
        let lines = try await Self.waitForScrolls(1, in: session)
        #expect(lines.first?.hasSuffix("notches (0.0, 0.0), distance (0.0, 15.0)") == true, "\(lines)")
    }

    /// The one line the document holds once saved.
    static func savedLine(_ session: AppSession) async throws -> SavedDocument.Line {
        let document = try await session.savedDocument(lineCount: 1)
        #expect(document.lines.count == 1, "\(document.lines)")
        return try #require(document.lines.first)
    }

    /// Whether `line` runs from `begin` to `end` (drawing units), to within a unit.
    static func runs(_ line: SavedDocument.Line, from begin: (Double, Double), to end: (Double, Double)) -> Bool {
        abs(line.begin.x - begin.0) <= 1 && abs(line.begin.y - begin.1) <= 1 && abs(line.end.x - end.0) <= 1
            && abs(line.end.y - end.1) <= 1
    }

    @Test(
        """
        after three wheel clicks down a line drawn across window row 100 is saved 180 units lower (60 a click): at \
        y 280, or at scale 2 (where row 100 is 50 units down) at y 230
        """,
        arguments: [(1.0, 280.0), (2.0, 230.0)])
    func wheelScrollMovesTheDrawing(scale: Double, savedY: Double) async throws {
        let session = try await AppSession.launch(extraArguments: ["--scale", "\(scale)"])
        defer { session.stop() }
        try await Self.pointAt(320, 240, in: session)
        let pointer = try session.server.pointer
        for _ in 0..<3 { try pointer.scroll(vertical: 120) }
        try pointer.sync()
        _ = try await Self.waitForScrolls(3, in: session)
        try session.stroke(id: 0, y: 100)
        let line = try await Self.savedLine(session)
        #expect(Self.runs(line, from: (100 / scale, savedY), to: (500 / scale, savedY)), "\(line)")
    }

    @Test("Shift with three wheel clicks down scrolls sideways: a line drawn then is saved 180 units to the right")
    func shiftScrollsSideways() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await Self.pointAt(320, 240, in: session)
        let keyboard = try session.server.keyboard
        let shift = try session.keycodes(["Shift_L"])[0]
        try keyboard.keyDown(keycode: shift)
        try keyboard.sync()
        let pointer = try session.server.pointer
        for _ in 0..<3 { try pointer.scroll(vertical: 120) }
        try pointer.sync()
        _ = try await Self.waitForScrolls(3, in: session)
        try keyboard.keyUp(keycode: shift)
        try keyboard.sync()
        try session.stroke(id: 0, y: 100)
        let line = try await Self.savedLine(session)
        #expect(Self.runs(line, from: (280, 100), to: (680, 100)), "\(line)")
    }

    @Test(
        """
        Ctrl with four wheel clicks up zooms in twice about the pointer at (320, 240): a line drawn across row 100 \
        from x 100 to 500 is saved from (210, 170) to (410, 170)
        """)
    func controlZoomsAboutThePointer() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await Self.pointAt(320, 240, in: session)
        let keyboard = try session.server.keyboard
        let control = try session.keycodes(["Control_L"])[0]
        try keyboard.keyDown(keycode: control)
        try keyboard.sync()
        let pointer = try session.server.pointer
        for _ in 0..<4 { try pointer.scroll(vertical: -120) }
        try pointer.sync()
        _ = try await Self.waitForScrolls(4, in: session)
        try keyboard.keyUp(keycode: control)
        try keyboard.sync()
        try session.stroke(id: 0, y: 100)
        let line = try await Self.savedLine(session)
        #expect(Self.runs(line, from: (210, 170), to: (410, 170)), "\(line)")
    }

    @Test("the touchpad's travel of 960 valuator units (120 pixels) scrolls the drawing 120 units: row 100 is y 220")
    func touchpadTravelMovesTheDrawing() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await Self.pointAt(320, 240, in: session)
        let touchpad = try session.server.gesture
        for _ in 0..<8 { try touchpad.scroll(vertical: 120) }
        try touchpad.sync()
        _ = try await Self.waitForScrolls(8, in: session)
        try session.stroke(id: 0, y: 100)
        let line = try await Self.savedLine(session)
        #expect(Self.runs(line, from: (100, 220), to: (500, 220)), "\(line)")
    }
}
