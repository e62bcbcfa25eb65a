import Foundation
import Testing
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// A drawing opened in the window joins the desktop's recent files, where GTK reads them; the app's own untitled
/// drawing does not. Each app has a private home (`PrivateHome`), so the real one is never written.
@Suite("Recent files", .serialized)
struct RecentFilesEndToEndTests {
    /// Lists GTK's recent items (`Gtk.RecentManager`, through python3-gi) as `URI TAB MIME TAB APPS` lines.
    static let gtkReader = """
        import gi
        gi.require_version("Gtk", "3.0")
        from gi.repository import Gtk
        for item in Gtk.RecentManager.get_default().get_items():
            print(item.get_uri() + "\\t" + item.get_mime_type() + "\\t" + ",".join(item.get_applications()))
        """

    @Test("a drawing opened under Xorg is recorded in the private XDG_DATA_HOME, and GTK's RecentManager lists it")
    func openedDrawingIsRecent() async throws {
        let folder = try makeTemporaryFolder("touchtracker-recent")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("my sketch.touchtracker")
        try DocumentStore(path: document.path).save(Drawing())
        let session = try await AppSession.launch(document: document)
        defer { session.stop() }
        let home = try #require(session.app.privateHome)
        let xbel = home.dataHome + "/recently-used.xbel"
        let uri = "file://" + folder.path + "/my%20sketch.touchtracker"
        try await waitUntil("the drawing in \(xbel)", timeout: .seconds(10)) {
            (try? String(contentsOfFile: xbel, encoding: .utf8))?.contains(uri) == true
        }
        let reader = try ChildProcess(
            executable: "/usr/bin/python3", arguments: ["-c", Self.gtkReader],
            environment: ["HOME": home.path, "XDG_DATA_HOME": home.dataHome, "PATH": "/usr/bin:/bin"])
        let termination = try #require(reader.waitForExit(timeout: .seconds(20)))
        try await waitUntil("the reader's output", timeout: .seconds(5)) { reader.outputClosed }
        let output = String(decoding: reader.stdout, as: UTF8.self)
        #expect(termination.status == 0, "\(String(decoding: reader.stderr, as: UTF8.self))")
        #expect(output == uri + "\tapplication/x-touchtracker+json\ttouchtracker\n")
    }

    @Test("the untitled drawing in the app's data folder is not recorded")
    func untitledDrawingIsNotRecent() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let app = try AppProcess(
            arguments: ["--geometry", "320x240+0+0", "--verbose"],
            environment: ["DISPLAY": server.display, "WAYLAND_DISPLAY": nil])
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "touchtracker: ready")
        let home = try #require(app.privateHome)
        // The document is read (and would be recorded) within moments of the window being ready.
        try await Task.sleep(for: .seconds(1))
        #expect(!FileManager.default.fileExists(atPath: home.dataHome + "/recently-used.xbel"))
    }
}
