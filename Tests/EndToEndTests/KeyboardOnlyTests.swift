import CX11
import Foundation
import Testing
import TouchKit
import TouchTracker
import XorgTestSupport

/// A person who cannot use a pointer or a touchscreen: the real app under Xorg driven by the inputtest keyboard
/// alone (the pointer only rests in the window, so it has the keyboard's focus, as a window manager would give it).
@Suite("Keyboard only")
struct KeyboardOnlyTests {
    /// The keycodes the server's keymap gives these keysyms (the inputtest keyboard's map is the server's).
    struct Keys {
        let space, tab, left, right, down, escape, delete, control, z: Int32

        init(display: String) throws {
            guard let connection = TestDisplayConnection.open(display) else {
                throw AppProcess.AppError(description: "cannot open display \(display)")
            }
            defer { XCloseDisplay(connection) }
            func code(_ name: String) -> Int32 { Int32(XKeysymToKeycode(connection, XStringToKeysym(name))) }
            (space, tab, left, right, down) = (code("space"), code("Tab"), code("Left"), code("Right"), code("Down"))
            (escape, delete, control, z) = (code("Escape"), code("Delete"), code("Control_L"), code("z"))
        }
    }

    /// Presses and releases each key in turn (`times` times), then waits until the server has handled them.
    private func press(_ session: AppSession, _ keys: [Int32], times: Int = 1) throws {
        try session.pressEach(Array(repeating: keys, count: times).flatMap { $0 })
    }

    @Test(
        """
        with the keyboard alone a person draws two lines, cancels one, selects with Tab, moves a line with the \
        arrows, deletes one and undoes it, and the saved document holds exactly that
        """)
    func keyboardOnlySession() async throws {
        let session = try await AppSession.launch(frame: AppSession.Frame(x: 0, y: 0, width: 640, height: 480))
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        let keys = try Keys(display: session.server.display)
        // The pointer rests in a corner of the window (focus follows it when no window manager runs).
        let pointer = try session.server.pointer
        try pointer.moveTo(x: 5, y: 5)
        try pointer.sync()
        // A line from the centre (320, 240) 100 px to the right.
        try press(session, [keys.space])
        try press(session, [keys.right], times: 10)
        try press(session, [keys.space])
        _ = try await session.savedDocument(lineCount: 1)
        // One begun, moved down and cancelled.
        try press(session, [keys.space])
        try press(session, [keys.down], times: 5)
        try press(session, [keys.escape])
        // From (420, 290) 200 px to the left.
        try press(session, [keys.space])
        try press(session, [keys.left], times: 20)
        try press(session, [keys.space])
        _ = try await session.savedDocument(lineCount: 2)
        // Tab selects the first line; three presses move it 30 px right.
        try press(session, [keys.tab])
        try press(session, [keys.right], times: 3)
        try await waitUntil("the moved line saved", timeout: .seconds(10), poll: .milliseconds(50)) {
            SavedDocument.read(session.document)?.lines.first?.begin.x == 350
        }
        // Tab to the second line, delete it, undo the delete.
        try press(session, [keys.tab])
        try press(session, [keys.delete])
        try await waitUntil("the delete saved", timeout: .seconds(10), poll: .milliseconds(50)) {
            SavedDocument.read(session.document)?.lines.count == 1
        }
        try session.pressChord([keys.control, keys.z])
        let saved = try await waitForValue("the undo saved", timeout: .seconds(10), poll: .milliseconds(50)) {
            SavedDocument.read(session.document).flatMap { $0.lines.count == 2 ? $0 : nil }
        }
        #expect(saved.lines.map(\.description) == ["(350.0, 240.0)→(450.0, 240.0)", "(420.0, 290.0)→(220.0, 290.0)"])
        // The keyboard cursor is drawn where it is: on the middle of the line Tab selected last.
        let shot = try session.screenshot()
        #expect(!shot.at(320, 290).isWhitish, "the cursor's crosshair should be drawn at (320, 290)")
    }

    @Test("with the keyboard alone Shift+Space, the arrows and Space draw a circle, saved with the corners it had")
    func keyboardOnlyCircle() async throws {
        let session = try await AppSession.launch(frame: AppSession.Frame(x: 0, y: 0, width: 640, height: 480))
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        let keys = try Keys(display: session.server.display)
        let pointer = try session.server.pointer
        try pointer.moveTo(x: 5, y: 5)
        try pointer.sync()
        // One corner at the centre (320, 240), the other 100 px right and 60 px down.
        try session.pressChord(try session.keycodes(["Shift_L", "space"]))
        try press(session, [keys.right], times: 10)
        try press(session, [keys.down], times: 6)
        try press(session, [keys.space])
        let saved = try await waitForValue("the circle saved", timeout: .seconds(10), poll: .milliseconds(50)) {
            ChallengesEndToEndTests.CircleDocument.read(session.document).flatMap { $0.circles?.count == 1 ? $0 : nil }
        }
        let circle = try #require(saved.circles?.first)
        #expect(saved.lines.isEmpty)
        #expect([circle.origin.x, circle.origin.y, circle.size.width, circle.size.height] == [320, 240, 100, 60])
    }
}
