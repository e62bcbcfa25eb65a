import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender

@testable import TouchTrackerSession

/// "Keys" in a window's settings menu: the key help one menu item away, as H shows it.
@Suite struct KeysMenuItemTests {
    private func open() throws -> DrawingSession {
        let session = try DrawingSession(
            host: InMemoryHost(), width: 400, height: 300, options: SessionOptions(), loadDocument: { Drawing() },
            log: { _ in })
        var loaded = false
        session.onDocumentLoaded = { loaded = true }
        try waitFor("the document to be read") {
            session.drawFrame()
            return loaded
        }
        return session
    }

    @Test("a window's settings menu offers Keys last, and choosing it shows the key help")
    func keysShowsTheKeyHelp() throws {
        let session = try open()
        session.handle(.key(KeyCommand(key: "F2")))
        let menu = try #require(session.controller.menu)
        #expect(menu.items.last == .keys)
        #expect(!session.isKeyHelpShown)
        #expect(session.controller.activate(.keys))
        #expect(session.isKeyHelpShown && session.controller.menu == nil)
        // As after H: Escape hides it.
        session.handle(.key(KeyCommand(key: "Escape")))
        #expect(!session.isKeyHelpShown)
    }

    @Test("without a window to show it (replay), the settings menu has no Keys")
    func replayHasNoKeys() {
        let controller = DrawingController(size: Size(width: 400, height: 300))
        controller.openSettingsMenu(at: Point(x: 10, y: 10))
        #expect(controller.menu?.items.contains(.keys) == false)
    }
}
