import Foundation
import Testing
import TouchTracker
import WestonTestSupport
import XorgTestSupport

/// TouchTracker as a native Wayland client under a real headless weston whose seat has a real `wl_touch`,
/// `wl_pointer` and `wl_keyboard` (the tests' input module): the gestures the Xorg suites drive, through the
/// Wayland host. Every effect is awaited in the saved document.
@Suite("Gestures on Wayland", .serialized)
struct WaylandGestureTests {
    @Test("two fingers down at once draw two lines, saved when they lift")
    func twoFingersDrawTwoLines() async throws {
        let session = try await WaylandSession.launch()
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
        #expect(rows == [100, 300])
        #expect(document.lines.allSatisfy { abs($0.end.x - 400) <= 1 })
    }

    @Test("tapping a line opens its menu, and tapping Delete removes it")
    func tapThenDeleteRemovesTheLine() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try session.stroke(id: 0, from: (40, 100), to: (400, 100))
        try session.stroke(id: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.tap(id: 2, at: (200, 103))
        // The single tap is recognized once the double tap has failed (0.35 s); the menu opens at the tap point.
        try await Task.sleep(for: .milliseconds(800))
        try session.tap(id: 3, at: (240, 125))
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 300) <= 1)
    }

    @Test("a double tap clears the drawing")
    func doubleTapClears() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try session.stroke(id: 0, from: (40, 100), to: (400, 100))
        _ = try await session.document(lineCount: 1)
        try session.tap(id: 1, at: (500, 420))
        try session.tap(id: 2, at: (502, 421))
        _ = try await session.document(lineCount: 0)
    }

    @Test("a long press on a line then a 100 px drag moves it by 100 px")
    func longPressDragMovesTheLine() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try session.stroke(id: 0, from: (100, 150), to: (400, 150))
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
        _ = try await waitForValue("the line to move down by 100 px", timeout: .seconds(10)) { () -> Bool? in
            guard let document = SavedDocument.read(session.document), document.lines.count == 1 else { return nil }
            let line = document.lines[0]
            return line.begin.distance(to: (100, 250)) <= 1 && line.end.distance(to: (400, 250)) <= 1 ? true : nil
        }
    }

    @Test("Ctrl+Z on the keyboard undoes the last line")
    func controlZUndoes() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        try session.stroke(id: 0, from: (40, 100), to: (400, 100))
        try session.stroke(id: 1, from: (40, 300), to: (400, 300))
        _ = try await session.document(lineCount: 2)
        try session.key(LinuxKey.z, control: true)
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 100) <= 1)
    }

    @Test("a touch the compositor cancels leaves no line, and the next stroke draws normally")
    func touchCancelLeavesNoLine() async throws {
        let session = try await WaylandSession.launch()
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
        try session.stroke(id: 1, from: (40, 400), to: (400, 400))
        let document = try await session.document(lineCount: 1)
        #expect(abs(document.lines[0].begin.y - 400) <= 1, "the cancelled touch must not leave a line")
    }

    @Test("a left-button drag of the mouse draws a line")
    func mouseDragDraws() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        let input = session.input
        try input.pointerMotion(x: 100, y: 250)
        try input.pointerFrame()
        try input.pointerButton(.left, pressed: true)
        try input.pointerFrame()
        for step in 1...6 {
            try input.pointerMotion(x: 100 + Double(step) * 50, y: 250)
            try input.pointerFrame()
        }
        try input.pointerButton(.left, pressed: false)
        try input.pointerFrame()
        try input.sync()
        let document = try await session.document(lineCount: 1)
        #expect(document.lines[0].begin.distance(to: (100, 250)) <= 1)
        #expect(document.lines[0].end.distance(to: (400, 250)) <= 1)
    }

    @Test("--verbose says the Wayland backend was chosen because WAYLAND_DISPLAY is set, and lists the seat")
    func verboseSaysWhichBackend() async throws {
        let session = try await WaylandSession.launch(backend: nil)
        defer { session.stop() }
        #expect(session.app.stderr.contains("backend wayland (WAYLAND_DISPLAY=\(session.server.socketName) is set)"))
        #expect(session.app.stderr.contains("touch, pointer, keyboard"), "\(session.app.transcript)")
    }
}

/// Keys held down on Wayland: repeating is the client's job there (`wl_keyboard.repeat_info`).
@Suite("Key repeat on Wayland", .serialized)
struct WaylandKeyRepeatTests {
    @Test("a held arrow repeats as the modifiers are now: Shift let go goes back to 10 px steps, as on X11")
    func repeatReadsTheModifiersHeldNow() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        let input = session.input
        let space = 57
        try session.key(space)
        try input.key(LinuxKey.leftShift, pressed: true)
        try input.key(LinuxKey.right, pressed: true)
        try input.sync()
        try await Task.sleep(for: .milliseconds(50))
        try input.key(LinuxKey.leftShift, pressed: false)
        try input.sync()
        // Held 1.5 s: weston repeats 40 times a second after 400 ms. Read with Shift still held, every repeat is a
        // 1 px step (under 50 px in all); read as they come, the repeats after Shift's release are 10 px steps. A
        // window held up by a busy machine sees fewer of those, never fewer than a hundred pixels' worth.
        try await Task.sleep(for: .milliseconds(1500))
        try input.key(LinuxKey.right, pressed: false)
        try input.sync()
        try session.key(space)
        let document = try await session.document(lineCount: 1)
        let length = document.lines[0].end.x - document.lines[0].begin.x
        #expect(length > 100, "the line is \(length) px long")
    }

    @Test("holding Right while the keyboard draws a line repeats it at the compositor's rate, so the line grows")
    func heldArrowRepeats() async throws {
        let session = try await WaylandSession.launch()
        defer { session.stop() }
        let input = session.input
        let space = 57
        try session.key(space)
        let pressed = ContinuousClock.now
        try input.key(LinuxKey.right, pressed: true)
        try input.sync()
        // Weston repeats 40 times a second after 400 ms: a second held is about 25 steps of 10 px.
        try await Task.sleep(for: .seconds(1))
        try input.key(LinuxKey.right, pressed: false)
        try input.sync()
        let held = (ContinuousClock.now - pressed) / .seconds(1)
        try session.key(space)
        let document = try await session.document(lineCount: 1)
        let length = document.lines[0].end.x - document.lines[0].begin.x
        // At most one step for the press and one per 25 ms held after the first 400 ms (a busy machine holds the
        // key longer than the second asked for, and the repeats follow).
        let most = 10 * (1 + max(0, held - 0.4) * 40) + 20
        #expect(length >= 100 && length <= most, "a held key should repeat (line \(length) px long, held \(held) s)")
    }
}
