import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerSession

/// What a screen reader hears as the keyboard draws: where the cursor rests, and the shape a Space finished.
@Suite struct KeyboardCursorAnnouncerTests {
    func look(
        x: Double, y: Double = 150, drawing: KeyboardCursor.Stroke? = nil, circle: Circle? = nil, shown: Bool = true,
        focusElsewhere: Bool = false, lines: Int = 0, circles: Int = 0
    ) -> KeyboardCursorAnnouncer.Look {
        KeyboardCursorAnnouncer.Look(
            location: Point(x: x, y: y), stroke: drawing, circle: circle, isShown: shown,
            focusElsewhere: focusElsewhere, lineCount: lines, circleCount: circles)
    }

    @Test("an arrow's move is said once the keys rest, as the cursor's place")
    func cursorMoveIsSaidWhenStill() {
        var announcer = KeyboardCursorAnnouncer()
        #expect(announcer.saying(for: look(x: 210), newestShape: { _ in nil }) == .whenStill)
        #expect(KeyboardCursorAnnouncer.message(for: look(x: 210)) == .keyboardCursor(at: Point(x: 210, y: 150)))
    }

    @Test("a line Space finished is said at once, by its name")
    func finishedLineIsSaidAtOnce() {
        var announcer = KeyboardCursorAnnouncer()
        let line = Line(begin: Point(x: 200, y: 150), end: Point(x: 300, y: 150))
        _ = announcer.saying(for: look(x: 200, drawing: .line), newestShape: { _ in nil })
        _ = announcer.saying(for: look(x: 300, drawing: .line), newestShape: { _ in nil })
        let said = announcer.saying(
            for: look(x: 300, lines: 1), newestShape: { _ in .lineName(from: line.begin, to: line.end) })
        #expect(said == .now(.lineName(from: line.begin, to: line.end)))
    }

    @Test("a line Escape cancelled is not said as drawn: it is said cancelled, at once")
    func cancelledLineIsSaidCancelled() {
        var announcer = KeyboardCursorAnnouncer()
        _ = announcer.saying(for: look(x: 200, drawing: .line), newestShape: { _ in nil })
        let said = announcer.saying(for: look(x: 200), newestShape: { _ in .lineName(from: .zero, to: .zero) })
        #expect(said == .now(.strokeCancelled(.line)))
        #expect(said == .now(Message("Line cancelled")))
    }

    @Test("a circle Escape cancelled is said cancelled")
    func cancelledCircleIsSaidCancelled() {
        var announcer = KeyboardCursorAnnouncer()
        _ = announcer.saying(for: look(x: 200, drawing: .circle), newestShape: { _ in nil })
        #expect(announcer.saying(for: look(x: 200), newestShape: { _ in nil }) == .now(Message("Circle cancelled")))
    }

    @Test("with a shape selected the cursor's moves are not said: the shape's focus and name speak")
    func selectionSpeaksInstead() {
        var announcer = KeyboardCursorAnnouncer()
        #expect(announcer.saying(for: look(x: 70, focusElsewhere: true), newestShape: { _ in nil }) == .nothing)
        #expect(KeyboardCursorAnnouncer.message(for: look(x: 70, focusElsewhere: true)) == nil)
    }

    @Test("a cursor never shown (no key moved it) is not said")
    func hiddenCursorIsNotSaid() {
        var announcer = KeyboardCursorAnnouncer()
        #expect(announcer.saying(for: look(x: 200, shown: false), newestShape: { _ in nil }) == .nothing)
    }

    @Test("a circle Shift+Space draws is said by its centre and radius once the keys rest")
    func circleInProgressIsSaidBySize() {
        let circle = Circle(corner: Point(x: 200, y: 150), opposite: Point(x: 260, y: 210))
        #expect(
            KeyboardCursorAnnouncer.message(for: look(x: 260, y: 210, drawing: .circle, circle: circle))
                == .keyboardCircle(circle))
    }

    @Test("a circle Space finished is said at once, by its name")
    func finishedCircleIsSaidAtOnce() {
        var announcer = KeyboardCursorAnnouncer()
        let circle = Circle(corner: Point(x: 200, y: 150), opposite: Point(x: 260, y: 210))
        _ = announcer.saying(for: look(x: 200, drawing: .circle, lines: 3), newestShape: { _ in nil })
        _ = announcer.saying(for: look(x: 260, drawing: .circle, lines: 3), newestShape: { _ in nil })
        let said = announcer.saying(
            for: look(x: 260, lines: 3, circles: 1), newestShape: { $0 == .circle ? .circleName(circle) : nil })
        #expect(said == .now(.circleName(circle)))
    }

    @Test("a line finished and a circle begun between two looks: the line is said, and then the circle when finished")
    func lineThenCircleInOneBatch() {
        var announcer = KeyboardCursorAnnouncer()
        let line = Line(begin: Point(x: 200, y: 150), end: Point(x: 300, y: 150))
        let circle = Circle(corner: Point(x: 300, y: 150), opposite: Point(x: 340, y: 190))
        let names = { (stroke: KeyboardCursor.Stroke) -> Message? in
            stroke == .line ? .lineName(from: line.begin, to: line.end) : .circleName(circle)
        }
        _ = announcer.saying(for: look(x: 200, drawing: .line, lines: 2, circles: 1), newestShape: names)
        let lineSaid = announcer.saying(for: look(x: 300, drawing: .circle, lines: 3, circles: 1), newestShape: names)
        #expect(lineSaid == .now(.lineName(from: line.begin, to: line.end)))
        let circleSaid = announcer.saying(for: look(x: 340, lines: 3, circles: 2), newestShape: names)
        #expect(circleSaid == .now(.circleName(circle)))
    }
}

/// Keys on their way through the registry: with no accessibility bridge (no screen reader can listen) a key goes to
/// the app at once, and a release carries no command.
@Suite struct RegistryKeyGateTests {
    let space = KeyEventReport(pressed: true, keysym: 0x20, keycode: 65, modifiers: 0, time: 1, text: " ", isText: true)

    @Test("with no bridge a press's command is acted on at once, and nothing waits")
    func noBridgeActsAtOnce() {
        let gate = RegistryKeyGate(wakeUp: {})
        var acted: [KeyCommand] = []
        gate.pass(space, command: KeyCommand(key: "space"), through: nil) { acted.append($0) }
        var release = space
        release.pressed = false
        gate.pass(release, command: nil, through: nil) { acted.append($0) }
        #expect(acted == [KeyCommand(key: "space")])
        #expect(gate.waitingCount == 0)
    }
}

/// The key help panel (H): shown and hidden by its key, hidden by Escape and by any other key, laid out a clause a
/// line.
@Suite struct KeyHelpPanelTests {
    @Test("H shows and hides the panel; Escape hides it and does nothing else; another key hides it and goes on")
    func keysShowAndHideIt() {
        var panel = KeyHelpPanel()
        var taken = panel.handle(KeyCommand(key: "h"), action: nil)
        #expect(taken && panel.isShown)
        taken = panel.handle(KeyCommand(key: "h"), action: nil)
        #expect(taken && !panel.isShown)
        taken = panel.handle(KeyCommand(key: "Escape"), action: .escape)
        #expect(!taken, "Escape with no panel is the app's")
        _ = panel.handle(KeyCommand(key: "h"), action: nil)
        taken = panel.handle(KeyCommand(key: "Escape"), action: .escape)
        #expect(taken && !panel.isShown)
        _ = panel.handle(KeyCommand(key: "h"), action: nil)
        taken = panel.handle(KeyCommand(key: "Tab"), action: .selectNext)
        #expect(!taken && !panel.isShown)
        taken = panel.handle(KeyCommand(key: "h", control: true), action: nil)
        #expect(!taken, "Ctrl+H is not the panel's")
    }

    @Test("the help is laid out a clause a line, a long clause cut after its commas")
    func laidOutAClauseALine() {
        let lines = KeyHelpPanel.lines(of: Message.drawingDescription.description)
        #expect(lines.first == "Drag with a finger or the mouse to draw a line;")
        #expect(lines.contains("Escape cancels;"))
        #expect(lines.contains("the arrows move it,"))
        #expect(lines.last == "F2: settings.")
        #expect(lines.allSatisfy { $0.count <= 60 }, "\(lines)")
        #expect(KeyHelpPanel.lines(of: "一；二。三") == ["一；", "二。", "三"])
    }
}
