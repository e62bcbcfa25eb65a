import CX11
import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// New, Open… and Save As… through the desktop's real file dialog: Debian's xdg-desktop-portal 1.16 and its GTK back
/// end on a private session bus, their GTK dialog on the test's Xorg, typed into as a person would (xdotool types
/// into the dialog under the pointer, which has the focus when no window manager runs).
@Suite("The desktop's file dialog", .serialized, .enabled(if: DesktopPortal.isInstalled))
struct FileDialogTests {
    /// A window on an untitled drawing (the data folder's `drawing.json`) with the portal on its session bus.
    private struct Desktop {
        let folder: URL
        let dataHome: String
        let bus: AccessibilityBus
        let session: AppSession
        let portal: DesktopPortal?

        var dataFolder: String { dataHome + "/touchtracker" }

        func stop() {
            session.stop()
            portal?.stop()
            bus.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private func desktop(withPortal: Bool = true) async throws -> Desktop {
        let folder = try makeTemporaryFolder("touchtracker-dialog")
        let dataHome = folder.path + "/data"
        try FileManager.default.createDirectory(atPath: dataHome + "/touchtracker", withIntermediateDirectories: true)
        let bus = try await AccessibilityBus()
        do {
            let session = try await AppSession.launch(
                frame: AppSession.Frame(x: 0, y: 0, width: 480, height: 360),
                document: URL(fileURLWithPath: dataHome + "/touchtracker/drawing.json"),
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_DATA_HOME": dataHome])
            do {
                let portal = withPortal ? try await DesktopPortal(bus: bus, display: session.server.display) : nil
                return Desktop(folder: folder, dataHome: dataHome, bus: bus, session: session, portal: portal)
            } catch {
                session.stop()
                throw error
            }
        } catch {
            bus.stop()
            throw error
        }
    }

    /// Presses `keys` (keysym names) together in the app's window, the pointer resting on it.
    private func chord(_ desktop: Desktop, _ keys: [String]) throws {
        let pointer = try desktop.session.server.pointer
        try pointer.moveTo(x: 5, y: 5)
        try pointer.sync()
        try desktop.session.pressChord(try desktop.session.keycodes(keys))
    }

    /// The dialog titled `title` once it is on screen, the pointer moved onto it (so it has the keyboard).
    private func dialog(_ desktop: Desktop, titled title: String) async throws -> TopLevelWindows.Info {
        let display = desktop.session.server.display
        let found = try await waitForValue("the dialog \"\(title)\"", timeout: .seconds(30), poll: .milliseconds(100)) {
            try TopLevelWindows.list(display: display).first { $0.name == title && $0.isViewable }
        }
        let pointer = try desktop.session.server.pointer
        try pointer.moveTo(x: Double(found.x + found.width / 2), y: Double(found.y + 12))
        try pointer.sync()
        // GTK takes the focus it was given once the dialog has drawn itself.
        try await Task.sleep(for: .milliseconds(700))
        return found
    }

    /// Runs xdotool on the session's display with `arguments`.
    private func xdotool(_ desktop: Desktop, _ arguments: [String]) throws {
        let process = try ChildProcess(
            executable: "/usr/bin/xdotool", arguments: arguments,
            environment: ["DISPLAY": desktop.session.server.display, "PATH": "/usr/bin:/bin"])
        let status = process.waitForExit(timeout: .seconds(30))?.status
        guard status == 0 else {
            throw AppProcess.AppError(
                description: "xdotool \(arguments) failed: \(String(decoding: process.stderr, as: UTF8.self))")
        }
    }

    /// Types `path` into the dialog titled `title` and presses Return, as a person would (with Ctrl+L first, GTK's
    /// key for the location entry, when `openingLocation`), until `done` says it worked: a machine busy with other
    /// suites may drop keys sent before GTK has the focus, so while the dialog is still there it is typed again
    /// (Ctrl+A selects what an earlier try left). False when it never worked.
    private func type(
        _ path: String, into title: String, of desktop: Desktop, openingLocation: Bool, done: () -> Bool
    ) async throws -> Bool {
        let display = desktop.session.server.display
        for _ in 0..<4 {
            if openingLocation {
                try xdotool(desktop, ["key", "ctrl+l"])
                try await Task.sleep(for: .milliseconds(300))
            }
            try xdotool(desktop, ["key", "ctrl+a"])
            try xdotool(desktop, ["type", "--delay", "30", path])
            try await Task.sleep(for: .milliseconds(300))
            try xdotool(desktop, ["key", "Return"])
            let worked = try? await waitForValue("the dialog's answer", timeout: .seconds(8)) { done() ? true : nil }
            if worked == true { return true }
            let open = try TopLevelWindows.list(display: display).contains { $0.name == title && $0.isViewable }
            if !open { return done() }
        }
        return done()
    }

    private func failureContext(_ desktop: Desktop) -> String {
        let windows = (try? TopLevelWindows.list(display: desktop.session.server.display)) ?? []
        return "\(desktop.session.app.transcript)\n\(desktop.portal?.transcript ?? "")\n\(windows)"
    }

    @Test(
        """
        Save As through the real GTK dialog (a path typed, Return): the untitled drawing is written there and its old \
        file removed, the window is titled after it, its lock and the recent files name it, and later edits go there
        """)
    func saveAsThroughTheRealDialog() async throws {
        let desktop = try await desktop()
        defer { desktop.stop() }
        let session = desktop.session
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        let title = try await waitForValue("the untitled window's title", timeout: .seconds(10)) {
            try TopLevelWindows.list(display: session.server.display).first {
                $0.name?.hasSuffix("TouchTracker") == true
            }
        }
        #expect(title.name == "Untitled — TouchTracker")
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)

        try chord(desktop, ["Control_L", "Shift_L", "s"])
        _ = try await dialog(desktop, titled: "Save Drawing As")
        let chosen = desktop.folder.path + "/sketch.touchtracker"
        // The name entry has the focus, its name selected: the path replaces it.
        let saved = try await type(chosen, into: "Save Drawing As", of: desktop, openingLocation: false) {
            session.app.stderrLines.contains { $0.contains("saved as \(chosen); saving there") }
        }
        guard saved else {
            Issue.record("not saved as \(chosen)\n\(failureContext(desktop))")
            return
        }
        #expect(SavedDocument.read(URL(fileURLWithPath: chosen))?.lines.count == 1)
        #expect(!FileManager.default.fileExists(atPath: session.document.path), "the untitled drawing's file stays")
        try await waitUntil("the window titled after the drawing", timeout: .seconds(10)) {
            try TopLevelWindows.list(display: session.server.display).contains {
                $0.name == "sketch.touchtracker — TouchTracker"
            }
        }
        let lock = try String(contentsOfFile: DocumentLock.lockPath(for: chosen), encoding: .utf8)
        #expect(lock.contains("pid \(session.app.pid)"), "\(lock)")
        try await waitUntil("the new name among the recent files", timeout: .seconds(10)) {
            (try? String(contentsOfFile: desktop.dataHome + "/recently-used.xbel", encoding: .utf8))?
                .contains("sketch.touchtracker") == true
        }
        try await waitUntil("the dialog gone", timeout: .seconds(10)) {
            try !TopLevelWindows.list(display: session.server.display).contains {
                $0.name == "Save Drawing As" && $0.isViewable
            }
        }
        try session.stroke(id: 2, y: 200)
        _ = try await SavedDocument.wait(for: URL(fileURLWithPath: chosen), lineCount: 2, timeout: .seconds(10))
        #expect(!FileManager.default.fileExists(atPath: session.document.path))
    }

    @Test(
        """
        Save As onto a drawing another window has open, chosen in the real GTK dialog: refused in one line naming \
        that window's process, and the drawing stays where it was
        """)
    func saveAsOntoAnOpenDrawingIsRefused() async throws {
        let desktop = try await desktop()
        defer { desktop.stop() }
        let session = desktop.session
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        try session.stroke(id: 1, y: 100)
        _ = try await session.savedDocument(lineCount: 1)
        // Another window's drawing, not saved yet: its lock names this test's process.
        let theirs = desktop.folder.path + "/theirs.touchtracker"
        guard case .acquired(let lock) = try DocumentLock.acquire(for: theirs) else {
            Issue.record("cannot lock \(theirs)")
            return
        }
        defer { lock.release() }
        try chord(desktop, ["Control_L", "Shift_L", "s"])
        _ = try await dialog(desktop, titled: "Save Drawing As")
        let refusal = "\(theirs) is open in another window (process \(getpid()))"
        let refused = try await type(theirs, into: "Save Drawing As", of: desktop, openingLocation: false) {
            session.app.stderrLines.contains { $0.contains(refusal) }
        }
        #expect(refused, "\(failureContext(desktop))")
        #expect(!FileManager.default.fileExists(atPath: theirs))
        // The dialog's window may outlive its answer for a moment, over the app's (no window manager here): the
        // stroke must reach the app's window.
        try await waitUntil("the dialog gone", timeout: .seconds(10)) {
            try !TopLevelWindows.list(display: session.server.display).contains {
                $0.name == "Save Drawing As" && $0.isViewable
            }
        }
        try session.stroke(id: 2, y: 200)
        _ = try await session.savedDocument(lineCount: 2)
        #expect(
            try TopLevelWindows.list(display: session.server.display).contains { $0.name == "Untitled — TouchTracker" })
    }

    @Test("Escape cancels the real GTK Open dialog: nothing opens and the window goes on")
    func escapeCancels() async throws {
        let desktop = try await desktop()
        defer { desktop.stop() }
        let session = desktop.session
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        try chord(desktop, ["Control_L", "o"])
        _ = try await dialog(desktop, titled: "Open Drawings")
        try xdotool(desktop, ["key", "Escape"])
        do {
            try await session.app.waitForStderrLine(containing: "file dialog cancelled", timeout: .seconds(30))
        } catch {
            Issue.record("\(error)\n\(failureContext(desktop))")
            return
        }
        try await waitUntil("the dialog gone", timeout: .seconds(10)) {
            try !TopLevelWindows.list(display: session.server.display).contains {
                $0.name == "Open Drawings" && $0.isViewable
            }
        }
        #expect(session.app.isRunning)
    }

    @Test(
        """
        Ctrl+O in an empty untitled window, a drawing typed into the real GTK Open dialog: it opens in a window of its \
        own, which takes this one's place
        """)
    func openFromAnEmptyWindow() async throws {
        let desktop = try await desktop()
        defer { desktop.stop() }
        let session = desktop.session
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        let other = desktop.folder.path + "/other.touchtracker"
        try DocumentStore(path: other).save(
            Drawing(lines: [Line(begin: Point(x: 10, y: 10), end: Point(x: 90, y: 90))]))
        try chord(desktop, ["Control_L", "o"])
        _ = try await dialog(desktop, titled: "Open Drawings")
        let opened = try await type(other, into: "Open Drawings", of: desktop, openingLocation: true) {
            FileManager.default.fileExists(atPath: DocumentLock.lockPath(for: other))
        }
        #expect(opened, "\(failureContext(desktop))")
        let holder = try await waitForValue("a window holding the drawing opened", timeout: .seconds(30)) {
            () -> Int32? in
            guard let text = try? String(contentsOfFile: DocumentLock.lockPath(for: other), encoding: .utf8) else {
                return nil
            }
            let pid = text.split(separator: "\n").first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) }
            return pid.flatMap { kill($0, 0) == 0 ? $0 : nil }
        }
        defer { kill(holder, SIGTERM) }
        #expect(holder != session.app.pid)
        let status = try await session.app.waitForExit(timeout: .seconds(20))
        #expect(status == 0, "\(failureContext(desktop))")
    }

    @Test(
        """
        Ctrl+N opens a window of its own on a new untitled drawing in the data folder, titled Untitled 2, which \
        keeps its drawing there when it closes
        """)
    func newDrawing() async throws {
        let desktop = try await desktop(withPortal: false)
        defer { desktop.stop() }
        let session = desktop.session
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        try chord(desktop, ["Control_L", "n"])
        let untitled = desktop.dataFolder + "/untitled-2.touchtracker"
        let holder = try await waitForValue("a window holding the new drawing", timeout: .seconds(30)) {
            () -> Int32? in
            guard let text = try? String(contentsOfFile: DocumentLock.lockPath(for: untitled), encoding: .utf8) else {
                return nil
            }
            let pid = text.split(separator: "\n").first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) }
            return pid.flatMap { kill($0, 0) == 0 && $0 != session.app.pid ? $0 : nil }
        }
        defer { kill(holder, SIGTERM) }
        let window = try await waitForValue("the new window", timeout: .seconds(20)) {
            try TopLevelWindows.list(display: session.server.display).first {
                $0.name == "Untitled 2 — TouchTracker" && $0.isViewable
            }
        }
        // A line drawn in it is saved in the data folder, and stays there once the window is closed.
        let touch = try session.server.touch
        let y = Double(window.y + 60)
        try touch.touchBegin(id: 9, x: Double(window.x + 40), y: y)
        try touch.touchUpdate(id: 9, x: Double(window.x + 120), y: y)
        try touch.touchEnd(id: 9, x: Double(window.x + 200), y: y)
        try touch.sync()
        _ = try await SavedDocument.wait(for: URL(fileURLWithPath: untitled), lineCount: 1, timeout: .seconds(10))
        kill(holder, SIGTERM)
        try await waitUntil("the new window closed", timeout: .seconds(10)) { kill(holder, 0) != 0 }
        #expect(SavedDocument.read(URL(fileURLWithPath: untitled))?.lines.count == 1)
        // An untitled drawing is not a recent file.
        let recent = (try? String(contentsOfFile: desktop.dataHome + "/recently-used.xbel", encoding: .utf8)) ?? ""
        #expect(!recent.contains("untitled-2"))
    }

    @Test("with no portal on the session bus, Ctrl+O says so in one line and the window goes on")
    func noPortal() async throws {
        let desktop = try await desktop(withPortal: false)
        defer { desktop.stop() }
        let session = desktop.session
        try await session.app.waitForStderrLine(containing: "document read: 0 lines")
        try chord(desktop, ["Control_L", "o"])
        let line = try await session.app.waitForStderrLine(containing: "no file dialog:", timeout: .seconds(30))
        #expect(line.contains("the desktop's file dialog is not available"), "\(line)")
        #expect(line.contains("--document FILE"))
        #expect(session.app.isRunning)
    }
}
