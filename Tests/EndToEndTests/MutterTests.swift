import Foundation
import MutterTestSupport
import Testing
import XorgTestSupport

/// TouchTracker as a native Wayland client under GNOME's real compositor, mutter 43 headless, at scale 1 and at
/// scale 2, with touch, pointer and keys that mutter injects itself (org.gnome.Mutter.RemoteDesktop): the gestures
/// the weston suite covers. Points are the window's logical coordinates, and so is every coordinate read back from
/// the saved document: a touch at window (100, 100) is saved as (100, 100) at scale 2 too (docs/DESIGN.md: a drawing
/// is kept in logical units).
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
        // its Delete item lies 22 px below it (menu metrics are logical too).
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
