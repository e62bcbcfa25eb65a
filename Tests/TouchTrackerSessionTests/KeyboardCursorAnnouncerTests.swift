import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerSession

/// What a screen reader hears as the keyboard draws: where the cursor rests, and the line a Space finished.
@Suite struct KeyboardCursorAnnouncerTests {
    func look(
        x: Double, y: Double = 150, drawing: Bool = false, shown: Bool = true, focusElsewhere: Bool = false,
        lines: Int = 0
    ) -> KeyboardCursorAnnouncer.Look {
        KeyboardCursorAnnouncer.Look(
            location: Point(x: x, y: y), isDrawing: drawing, isShown: shown, focusElsewhere: focusElsewhere,
            lineCount: lines)
    }

    @Test("an arrow's move is said once the keys rest, as the cursor's place")
    func cursorMoveIsSaidWhenStill() {
        var announcer = KeyboardCursorAnnouncer()
        #expect(announcer.saying(for: look(x: 210), newestLine: { nil }) == .whenStill)
        #expect(KeyboardCursorAnnouncer.message(for: look(x: 210)) == .keyboardCursor(at: Point(x: 210, y: 150)))
    }

    @Test("a line Space finished is said at once, by its name")
    func finishedLineIsSaidAtOnce() {
        var announcer = KeyboardCursorAnnouncer()
        let line = Line(begin: Point(x: 200, y: 150), end: Point(x: 300, y: 150))
        _ = announcer.saying(for: look(x: 200, drawing: true), newestLine: { nil })
        _ = announcer.saying(for: look(x: 300, drawing: true), newestLine: { nil })
        let said = announcer.saying(for: look(x: 300, lines: 1), newestLine: { line })
        #expect(said == .now(.lineName(from: line.begin, to: line.end)))
    }

    @Test("a line Escape cancelled is not said as drawn")
    func cancelledLineIsNotSaidAsDrawn() {
        var announcer = KeyboardCursorAnnouncer()
        _ = announcer.saying(for: look(x: 200, drawing: true), newestLine: { nil })
        let said = announcer.saying(for: look(x: 200), newestLine: { Line(begin: .zero, end: .zero) })
        #expect(said == .whenStill)
    }

    @Test("with a shape selected the cursor's moves are not said: the shape's focus and name speak")
    func selectionSpeaksInstead() {
        var announcer = KeyboardCursorAnnouncer()
        #expect(announcer.saying(for: look(x: 70, focusElsewhere: true), newestLine: { nil }) == .nothing)
        #expect(KeyboardCursorAnnouncer.message(for: look(x: 70, focusElsewhere: true)) == nil)
    }

    @Test("a cursor never shown (no key moved it) is not said")
    func hiddenCursorIsNotSaid() {
        var announcer = KeyboardCursorAnnouncer()
        #expect(announcer.saying(for: look(x: 200, shown: false), newestLine: { nil }) == .nothing)
    }
}
