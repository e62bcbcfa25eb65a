import Foundation
import Testing
import XorgTestSupport

/// TouchTracker's gestures on the real binary under a private Xorg with inputtest touches (DESIGN.md §2 items 4–8).
/// Gesture timing is real time here, so the pauses between touches are real sleeps; every effect is awaited by
/// polling the saved document or the screen.
@Suite("Gestures")
struct GestureTests {
    /// Draws one line with a touch and waits until it is saved.
    private func draw(
        _ session: AppSession, id: UInt32, from begin: (x: Double, y: Double), to end: (x: Double, y: Double),
        lines: Int
    ) async throws {
        let touch = try session.server.touch
        try touch.touchBegin(id: id, x: session.root(begin).x, y: session.root(begin).y)
        for step in 1...8 {
            let t = Double(step) / 8
            let point = session.root(begin.x + (end.x - begin.x) * t, begin.y + (end.y - begin.y) * t)
            try touch.touchUpdate(id: id, x: point.x, y: point.y)
        }
        try touch.touchEnd(id: id, x: session.root(end).x, y: session.root(end).y)
        try touch.sync()
        _ = try await session.savedDocument(lineCount: lines)
    }

    /// A quick tap: down and up at once at window point `point`.
    private func tap(_ session: AppSession, id: UInt32, at point: (x: Double, y: Double)) throws {
        let touch = try session.server.touch
        let root = session.root(point)
        try touch.touchBegin(id: id, x: root.x, y: root.y)
        try touch.touchEnd(id: id, x: root.x, y: root.y)
        try touch.sync()
    }

    /// Waits until the document holds exactly `count` lines and returns it.
    private func document(_ session: AppSession, lineCount count: Int) async throws -> SavedDocument {
        try await waitForValue("the document to hold exactly \(count) line(s)", timeout: .seconds(10)) {
            guard let document = SavedDocument.read(session.document), document.lines.count == count else {
                return nil
            }
            return document
        }
    }

    private func isGreen(_ pixel: Screenshot.RGB) -> Bool { pixel.g > 200 && pixel.r < 60 && pixel.b < 60 }

    @Test("tapping a drawn line turns it green and opens a popup menu with its Delete item at the tap point")
    func tapSelectsAndOpensMenu() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await draw(session, id: 0, from: (40, 100), to: (400, 100), lines: 1)
        try tap(session, id: 1, at: (200, 103))
        try await waitUntil("the tapped line to turn green", timeout: .seconds(5), poll: .milliseconds(50)) {
            let shot = try session.screenshot()
            let point = session.root(100, 100)
            return isGreen(shot.pixel(x: Int(point.x), y: Int(point.y)))
        }
        // The menu opens below-right of the tap point: a bordered panel with dark text in its item row.
        let shot = try session.screenshot()
        var darkTextPixels = 0
        for y in 112...140 {
            for x in 210...300 {
                let root = session.root(Double(x), Double(y))
                let pixel = shot.pixel(x: Int(root.x), y: Int(root.y))
                if max(pixel.r, pixel.g, pixel.b) < 90 { darkTextPixels += 1 }
            }
        }
        #expect(darkTextPixels > 40, "no menu text drawn near the tap point")
        let far = session.root(600, 400)
        #expect(shot.pixel(x: Int(far.x), y: Int(far.y)).isWhitish)
    }

    @Test("tapping the menu's Delete item removes the selected line from the saved document")
    func tapDeleteItemRemovesLine() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await draw(session, id: 0, from: (40, 100), to: (400, 100), lines: 1)
        try await draw(session, id: 1, from: (40, 300), to: (400, 300), lines: 2)
        try tap(session, id: 2, at: (200, 103))
        try await waitUntil("the tapped line to turn green", timeout: .seconds(5), poll: .milliseconds(50)) {
            let point = session.root(100, 100)
            return isGreen(try session.screenshot().pixel(x: Int(point.x), y: Int(point.y)))
        }
        // The Delete item's row: the menu's top-left is the tap point, the row starts 4 px below it, 36 px high.
        try tap(session, id: 3, at: (240, 125))
        let document = try await document(session, lineCount: 1)
        let remaining = try #require(document.lines.first)
        #expect(remaining.begin.distance(to: (40, 300)) <= 1 && remaining.end.distance(to: (400, 300)) <= 1)
    }

    @Test("a long press on a line then a 100 px drag moves the saved line by 100 px")
    func longPressDragMovesLine() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await draw(session, id: 0, from: (100, 150), to: (400, 150), lines: 1)
        let touch = try session.server.touch
        let start = session.root(250, 152)
        try touch.touchBegin(id: 1, x: start.x, y: start.y)
        try touch.sync()
        try await Task.sleep(for: .milliseconds(800))
        for step in 1...10 {
            try touch.touchUpdate(id: 1, x: start.x, y: start.y + Double(step) * 10)
        }
        try touch.touchEnd(id: 1, x: start.x, y: start.y + 100)
        try touch.sync()
        _ = try await waitForValue("the line to move down by 100 px", timeout: .seconds(10)) { () -> Bool? in
            guard let document = SavedDocument.read(session.document), document.lines.count == 1 else { return nil }
            let line = document.lines[0]
            return line.begin.distance(to: (100, 250)) <= 1 && line.end.distance(to: (400, 250)) <= 1 ? true : nil
        }
    }

    @Test("a double tap clears every line from the saved document")
    func doubleTapClears() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        try await draw(session, id: 0, from: (40, 100), to: (400, 100), lines: 1)
        try await draw(session, id: 1, from: (40, 300), to: (400, 300), lines: 2)
        try tap(session, id: 2, at: (500, 420))
        try tap(session, id: 3, at: (502, 421))
        _ = try await document(session, lineCount: 0)
    }
}
