import Foundation
import Testing
import TouchTrackerStore
import XorgTestSupport

/// Under KDE's real KWin 5.27, which offers xdg-foreign: the window is exported, so the file dialog is given it as
/// its parent (`wayland:HANDLE`), and its title names the drawing.
@Suite("The file dialog's parent on KWin", .serialized)
struct KWinFileDialogParentTests {
    @Test("the window is exported through zxdg_exporter_v2 for the file dialog, and titled after its drawing")
    func windowIsExported() async throws {
        let session = try await KWinSession.launch(scale: 1)
        defer { session.stop() }
        let line = try await session.app.waitForStderrLine(
            containing: "window exported for the file dialog: wayland:", timeout: .seconds(10))
        let handle = try #require(line.split(separator: ":").last)
        #expect(!handle.isEmpty, "\(line)")
        #expect(session.window.caption == "drawing.json — TouchTracker", "\(session.window)")
    }
}
