import Foundation
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

/// What a blind user hears: Debian 12's Orca 43 really running against the app (a private Xorg, session bus,
/// accessibility bus and speech-dispatcher), driven by the inputtest keyboard, with what Orca says read from its
/// debug output (issue 45). Orca runs once per user, so these run one at a time; a GTK 3 window in the same session
/// is the control.
@Suite("Orca speaks the app", .serialized)
struct OrcaTests {
    /// Three lines, as in the issue.
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

        /// Gives the keyboard focus to the app's window.
        func focusApp() throws {
            let window = try #require(session.app.windowID, "\(session.app.transcript)")
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
        // The pointer away from the shapes, so no hover lands on one.
        let pointer = try session.server.pointer
        try pointer.moveTo(x: 620, y: 460)
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
            try desktop.focusApp()
            try await desktop.orca.waitForSpeech("TouchTracker frame", after: mark)
            let said = try await desktop.orca.speechSettled(after: mark)
            print("focus said:", said)
            #expect(said.contains { $0.contains("Drawing, 3 lines") }, "\(said)")
            #expect(said.joined(separator: " ").count < 200, "\(said)")
        }
    }

    /// Focuses the app and waits until Orca has said the window and the app knows a screen reader listens to keys.
    private func focusAndSettle(_ desktop: Desktop) async throws {
        let mark = desktop.orca.mark
        try desktop.focusApp()
        try await desktop.session.app.waitForStderrLine(
            containing: "a screen reader listens to the keys", timeout: .seconds(20))
        try await desktop.orca.waitForSpeech("TouchTracker frame", after: mark)
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
}
