import Foundation
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

/// What a blind user hears: Debian 12's Orca 43 really running against the app (a private Xorg, session bus,
/// accessibility bus and speech-dispatcher), driven by the inputtest keyboard, with what Orca says read from its
/// debug output. Orca runs once per user, so these run one at a time; a GTK 3 window in the same session
/// is the control.
@Suite("Orca speaks the app", .serialized)
struct OrcaTests {
    /// Three lines: Tab has somewhere to go from each, and each is heard by its own name.
    static let drawing = Drawing(
        lines: [
            Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100)),
            Line(begin: Point(x: 100, y: 200), end: Point(x: 300, y: 200)),
            Line(begin: Point(x: 100, y: 300), end: Point(x: 300, y: 300)),
        ])

    /// One test's world: the app on a private Xorg with the accessibility bus, Orca speaking, and (asked for) the
    /// GTK control window on the same display.
    struct Desktop {
        let bus: AccessibilityBus
        let session: AppSession
        let orca: ScreenReader
        let control: ControlWindow?

        /// Gives the keyboard focus to the app's window, afresh: away first, then to it.
        func focusApp() async throws {
            let window = try #require(session.app.windowID, "\(session.app.transcript)")
            try session.server.focusWindow(nil)
            try await Task.sleep(for: .milliseconds(300))
            try session.server.focusWindow(window)
        }

        /// Presses and releases each key (keysym names) in turn, `pause` apart.
        func press(_ keys: [String], pause: Duration = .milliseconds(400)) async throws {
            for key in try session.keycodes(keys) {
                try session.pressEach([key])
                try await Task.sleep(for: pause)
            }
        }

        /// Presses the keys of a chord together (Control_L, z).
        func chord(_ keys: [String]) async throws {
            try session.pressChord(try session.keycodes(keys))
            try await Task.sleep(for: .milliseconds(400))
        }
    }

    private func withDesktop(
        drawing: Drawing? = Self.drawing, control: Bool = false, _ body: (Desktop) async throws -> Void
    ) async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await AppSession.launch(
            frame: AppSession.Frame(x: 0, y: 0, width: 640, height: 480), drawing: drawing,
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read:")
        let controlWindow = control ? try await ControlWindow(display: session.server.display, bus: bus) : nil
        defer { controlWindow?.stop() }
        let orca = try await ScreenReader.start(display: session.server.display, bus: bus)
        defer { orca.stop() }
        // The pointer outside the window (at 0,0, 640x480, on a 1024x768 screen): no hover lands on a shape, and the
        // focus does not follow it into the window (X gives the window under the pointer the focus while the root
        // window has it), so the window gets the focus only from `focusApp`, once.
        let pointer = try session.server.pointer
        try pointer.moveTo(x: 900, y: 700)
        try pointer.sync()
        try await body(Desktop(bus: bus, session: session, orca: orca, control: controlWindow))
    }

    @Test(
        """
        the control: Orca speaks a GTK 3 window in the same session as it gets the focus, echoes its keys, and its \
        Where Am I (KP_Enter) speaks the focused button
        """)
    func controlWindowIsSpoken() async throws {
        try await withDesktop(control: true) { desktop in
            let control = try #require(desktop.control)
            let mark = desktop.orca.mark
            try desktop.session.server.focusWindow(control.windowID)
            try await desktop.orca.waitForSpeech("\(ControlWindow.title) frame", after: mark)
            try await desktop.orca.waitForSpeech("\(ControlWindow.buttonLabel) push button", after: mark)
            let keys = desktop.orca.mark
            try await desktop.press(["Tab"])
            try await desktop.orca.waitForSpeech("tab", after: keys)
            let whereAmI = desktop.orca.mark
            try await desktop.press(["KP_Enter"])
            try await desktop.orca.waitForSpeech("\(ControlWindow.buttonLabel) push button", after: whereAmI)
        }
    }

    @Test("the window gets the focus: Orca says the window and the drawing with its count, not the key help")
    func focusSpeaksShortWords() async throws {
        try await withDesktop { desktop in
            let mark = desktop.orca.mark
            try await desktop.focusApp()
            try await desktop.orca.waitForSpeech("TouchTracker frame", after: mark)
            let said = try await desktop.orca.speechSettled(after: mark)
            print("focus said:", said)
            #expect(said.contains { $0.contains("Drawing, 3 lines") }, "\(said)")
            // One short sentence points to the key help; the help itself is not spoken unasked.
            #expect(said.contains { $0.contains("press H for the keys") }, "\(said)")
            #expect(said.joined(separator: " ").count < 200, "\(said)")
            #expect(Set(said).count == said.count, "nothing is said twice: \(said)")
        }
    }

    /// Focuses the app and waits until Orca has said the drawing and the app knows a screen reader listens to keys.
    private func focusAndSettle(_ desktop: Desktop) async throws {
        let mark = desktop.orca.mark
        try await desktop.focusApp()
        try await desktop.session.app.waitForStderrLine(
            containing: "a screen reader listens to the keys", timeout: .seconds(20))
        // The drawing has the focus (the window itself is not always said again: Orca may have heard it activate
        // before).
        try await desktop.orca.waitForSpeech("canvas", after: mark)
        _ = try await desktop.orca.speechSettled(after: mark, quiet: .milliseconds(800))
    }

    @Test(
        """
        keys go through the registry: Orca echoes the app's keys, and its Where Am I (KP_Enter) speaks the focused \
        shape, then the drawing with its count
        """)
    func orcaHearsTheAppsKeys() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            var mark = desktop.orca.mark
            try await desktop.press(["Tab"])
            try await desktop.orca.waitForSpeech("tab", after: mark)
            try await desktop.orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
            mark = desktop.orca.mark
            try await desktop.press(["KP_Enter"])
            try await desktop.orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
            mark = desktop.orca.mark
            try await desktop.press(["Escape"])
            _ = try await desktop.orca.speechSettled(after: mark, quiet: .milliseconds(800))
            mark = desktop.orca.mark
            try await desktop.press(["KP_Enter"])
            try await desktop.orca.waitForSpeech("Drawing, 3 lines", after: mark)
        }
    }

    @Test(
        """
        a key Orca consumes does nothing in the app: in Orca's learn mode (Insert+H) Space and the arrows draw no \
        line; after Escape leaves it, the same keys draw one
        """)
    func consumedKeysDoNothing() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            var mark = desktop.orca.mark
            try await desktop.chord(["Insert", "h"])
            try await desktop.orca.waitForSpeech("learn mode", after: mark)
            mark = desktop.orca.mark
            try await desktop.press(["Right", "space", "Right", "Right", "space"])
            try await desktop.orca.waitForSpeech("space", after: mark)
            mark = desktop.orca.mark
            try await desktop.press(["Escape"])
            try await desktop.orca.waitForSpeech("Exiting learn mode", after: mark)
            try await Task.sleep(for: .seconds(1))
            #expect(SavedDocument.read(desktop.session.document)?.lines.count == 3)
            try await desktop.press(["Right", "space", "Right", "Right", "space"])
            let saved = try await desktop.session.savedDocument(lineCount: 4)
            #expect(saved.lines.count == 4)
        }
    }

    @Test(
        """
        drawing from the keyboard is spoken by Orca 43: where the cursor rests, where the line in progress ends once \
        the arrows rest, the finished line's name, and a cancelled line
        """)
    func keyboardDrawingIsSpoken() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            // The cursor starts at the window's middle (320, 240); each arrow moves it 10 px.
            var mark = orca.mark
            try await desktop.press(["Right"], pause: .milliseconds(900))
            try await orca.waitForSpeech("Cursor at 330, 240", after: mark)
            mark = orca.mark
            try await desktop.press(["space", "Right"], pause: .milliseconds(100))
            try await desktop.press(["Right"], pause: .milliseconds(900))
            try await orca.waitForSpeech("Drawing a line to 350, 240", after: mark)
            let inProgress = try await orca.speechSettled(after: mark, quiet: .milliseconds(600))
            #expect(inProgress.filter { $0.contains("Drawing a line to") }.count == 1, "\(inProgress)")
            mark = orca.mark
            try await desktop.press(["space"])
            try await orca.waitForSpeech("Line from 330, 240 to 350, 240", after: mark)
            _ = try await desktop.session.savedDocument(lineCount: 4)
            mark = orca.mark
            try await desktop.press(["space", "Down"], pause: .milliseconds(100))
            try await desktop.press(["Escape"])
            try await orca.waitForSpeech("Line cancelled", after: mark)
        }
    }

    @Test("Tab, Tab, Shift+Tab: Orca says each line the keyboard selects, then the one before")
    func tabSpeaksEachShape() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            var mark = orca.mark
            try await desktop.press(["Tab"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
            mark = orca.mark
            try await desktop.press(["Tab"])
            try await orca.waitForSpeech("Line from 100, 200 to 300, 200", after: mark)
            mark = orca.mark
            try await desktop.chord(["Shift_L", "Tab"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
        }
    }

    @Test("the Menu key opens the shape's menu, spoken with its item; Escape goes back to the shape")
    func menuAndEscapeAreSpoken() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            try await desktop.press(["Tab"])
            _ = try await orca.speechSettled(after: orca.mark, quiet: .milliseconds(600))
            var mark = orca.mark
            try await desktop.press(["Menu"])
            try await orca.waitForSpeech("Delete", after: mark)
            mark = orca.mark
            try await desktop.press(["Escape"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
        }
    }

    @Test(
        """
        Delete gives the focus to the next shape, spoken, with no key help; the last shape's delete goes to the one \
        before, and Tab goes on from there; Ctrl+Z and Ctrl+Y say what they changed
        """)
    func deleteFocusesTheNextShapeAndUndoIsSpoken() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            try await desktop.press(["Tab", "Tab"])
            _ = try await orca.speechSettled(after: orca.mark, quiet: .milliseconds(600))
            var mark = orca.mark
            try await desktop.press(["Delete"])
            try await orca.waitForSpeech("Line from 100, 300 to 300, 300", after: mark)
            var said = try await orca.speechSettled(after: mark, quiet: .milliseconds(800))
            #expect(!said.contains { $0.contains("Drag with a finger") }, "\(said)")
            _ = try await desktop.session.savedDocument(lineCount: 2)
            #expect(SavedDocument.read(desktop.session.document)?.lines.count == 2)
            // The last shape deleted: the one before it gets the focus.
            mark = orca.mark
            try await desktop.press(["Delete"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
            mark = orca.mark
            try await desktop.chord(["Control_L", "z"])
            try await orca.waitForSpeech("Undone: Line from 100, 300 to 300, 300 restored", after: mark)
            mark = orca.mark
            try await desktop.chord(["Control_L", "y"])
            try await orca.waitForSpeech("Redone: Line from 100, 300 to 300, 300 removed", after: mark)
            said = try await orca.speechSettled(after: mark, quiet: .milliseconds(800))
            #expect(!said.contains { $0.contains("Drag with a finger") }, "\(said)")
        }
    }

    @Test("a notice the window shows (Ctrl+C copies the drawing) is spoken by Orca 43")
    func windowNoticeIsSpoken() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let mark = desktop.orca.mark
            try await desktop.chord(["Control_L", "c"])
            try await desktop.orca.waitForSpeech("Copied the drawing", after: mark)
        }
    }

    /// How many of the window's pixels differ between two captures of it.
    private func changedPixels(_ a: Screenshot, _ b: Screenshot) -> Int {
        var count = 0
        for y in stride(from: 0, to: 480, by: 2) {
            for x in stride(from: 0, to: 640, by: 2) where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { count += 1 }
        }
        return count
    }

    @Test(
        """
        the key help is one key away: H shows it as a panel the window draws and Orca reads (named Keys, every key), \
        and Escape hides it, back on the drawing
        """)
    func keyHelpIsOneKeyAway() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            let before = try desktop.session.screenshot()
            var mark = orca.mark
            try await desktop.press(["h"])
            try await orca.waitForSpeech("Keys", after: mark)
            try await orca.waitForSpeech("Space starts and ends a line", after: mark)
            let said = try await orca.speechSettled(after: mark, quiet: .milliseconds(800))
            #expect(said.filter { $0.contains("Space starts and ends a line") }.count == 1, "\(said)")
            let shown = try desktop.session.screenshot()
            #expect(changedPixels(before, shown) > 500, "the panel is drawn")
            // On a dark panel of its own, readable over the drawing's white.
            #expect(shown.pixel(x: 320, y: 20).isBlackish, "\(shown.pixel(x: 320, y: 20))")
            mark = orca.mark
            try await desktop.press(["Escape"])
            try await orca.waitForSpeech("Drawing, 3 lines", after: mark)
            try await Task.sleep(for: .milliseconds(300))
            let hidden = try desktop.session.screenshot()
            #expect(changedPixels(before, hidden) < 50, "the panel is gone")
        }
    }

    @Test("flat review (KP_8 says the line under review, KP_9 the next) reads the window's objects")
    func flatReviewReadsTheWindow() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            var mark = orca.mark
            try await desktop.press(["KP_8"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
            mark = orca.mark
            try await desktop.press(["KP_9"])
            try await orca.waitForSpeech("Line from 100, 200 to 300, 200", after: mark)
            mark = orca.mark
            try await desktop.press(["KP_9"])
            try await orca.waitForSpeech("Line from 100, 300 to 300, 300", after: mark)
        }
    }

    @Test(
        "the harness reads an utterance from each form of Orca 43's SPEECH OUTPUT debug line, and nothing from others")
    func speechOutputLinesAreRead() {
        #expect(
            ScreenReader.utterance(inDebugLine: "21:39:06.8 - SPEECH OUTPUT: 'Control frame.'{'established': False}")
                == "Control frame.")
        #expect(
            ScreenReader.utterance(inDebugLine: "21:39:08.8 - SPEECH OUTPUT: 'tab ' {'established': False}") == "tab ")
        #expect(
            ScreenReader.utterance(inDebugLine: "22:01:00.1 - SPEECH OUTPUT: 'Line from 1, 2 to 3, 4'[{'established'")
                == "Line from 1, 2 to 3, 4")
        #expect(ScreenReader.utterance(inDebugLine: "22:01:00.1 - SPEECH DISPATCHER: Speaking 'x'") == nil)
    }

    @Test(
        """
        a paste is spoken and the focus stays where the selection is, as a sighted user sees it: Ctrl+C on the \
        selected line, Ctrl+V says one shape pasted, and Where Am I still says that line
        """)
    func pasteIsSpokenAndTheFocusStays() async throws {
        try await withDesktop { desktop in
            try await focusAndSettle(desktop)
            let orca = desktop.orca
            var mark = orca.mark
            try await desktop.press(["Tab"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
            mark = orca.mark
            try await desktop.chord(["Control_L", "c"])
            try await orca.waitForSpeech("Copied the selected shape", after: mark)
            mark = orca.mark
            try await desktop.chord(["Control_L", "v"])
            try await orca.waitForSpeech("Pasted 1 shape", after: mark)
            _ = try await desktop.session.savedDocument(lineCount: 4)
            mark = orca.mark
            try await desktop.press(["KP_Enter"])
            try await orca.waitForSpeech("Line from 100, 100 to 300, 100", after: mark)
        }
    }
}
