import CX11
import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import WestonTestSupport
import XorgTestSupport

/// Drawings dragged from a file manager and dropped on the window open, each in a window of its own, as
/// `touchtracker FILE...` opens them; anything else is refused in one line. Under a real Xorg, with a drag source
/// speaking XDND 5 by the book (`XdndSource`).
@Suite("Drop to open", .serialized)
struct DropTests {
    /// The process whose window holds the drawing at `path`, as its lock file says, while it runs.
    private func lockHolder(of path: String) -> Int32? {
        guard let text = try? String(contentsOfFile: DocumentLock.lockPath(for: path), encoding: .utf8) else {
            return nil
        }
        let pid = text.split(separator: "\n").first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) }
        return pid.flatMap { kill($0, 0) == 0 ? $0 : nil }
    }

    /// The window id the app printed in its `ready` line.
    private func windowID(of session: AppSession) async throws -> CX11.Window {
        let line = try await session.app.waitForStderrLine(containing: "ready window=0x")
        let hex = try #require(line.split(separator: "=").last?.dropFirst(2))
        let id: CX11.Window? = CX11.Window(hex, radix: 16)
        return try #require(id)
    }

    @Test(
        """
        a drawing dropped under Xorg (XDND 5) opens in a window of its own, which its lock names, and joins the \
        recent files; a picture dropped with it is refused in one line
        """)
    func droppedDrawingOpens() async throws {
        let folder = try makeTemporaryFolder("touchtracker-drop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dropped = folder.appendingPathComponent("dropped sketch.touchtracker")
        try DocumentStore(path: dropped.path).save(
            Drawing(lines: [Line(begin: Point(x: 10, y: 10), end: Point(x: 90, y: 90))]))
        let session = try await AppSession.launch(folder: folder)
        defer { session.stop() }
        let target = try await windowID(of: session)
        let source = try XdndSource(display: session.server.display)
        #expect(source.awareVersion(of: target) == 5)

        let list =
            "# dragged from a file manager\r\nfile://\(folder.path)/dropped%20sketch.touchtracker\r\n"
            + "file://\(folder.path)/photo.png\r\n"
        let outcome = try source.drop(list, on: target, at: session.frame.x + 100, session.frame.y + 100)
        #expect(
            outcome
                == .init(
                    accepted: true, statusAction: "XdndActionCopy", finished: true, finishedAction: "XdndActionCopy")
        )
        let holder = try await waitForValue("a window holding the dropped drawing", timeout: .seconds(20)) {
            () -> Int32? in lockHolder(of: dropped.path)
        }
        defer { kill(holder, SIGTERM) }
        #expect(holder != session.app.pid)
        let lock = try String(contentsOfFile: DocumentLock.lockPath(for: dropped.path), encoding: .utf8)
        _ = try await waitForValue("the dropped drawing's window in its lock", timeout: .seconds(20)) { () -> Bool? in
            (try? String(contentsOfFile: DocumentLock.lockPath(for: dropped.path), encoding: .utf8))?
                .contains("window 0x") == true ? true : nil
        }
        _ = try await waitForValue("two TouchTracker windows", timeout: .seconds(20)) { () -> Bool? in
            try TopLevelWindows.list(display: session.server.display).filter { $0.isDrawingWindow }.count == 2
                ? true : nil
        }
        #expect(
            session.app.stderrLines.contains {
                $0.hasSuffix(
                    "dropped \(folder.path)/photo.png is not a drawing (a .touchtracker or .json file); not opened")
            }, "\(session.app.transcript)\n\(lock)")
        // The new window has the app's private home, and records the drawing it opened among the recent files.
        let xbel = try #require(session.app.privateHome).dataHome + "/recently-used.xbel"
        try await waitUntil("the dropped drawing among the recent files", timeout: .seconds(10)) {
            (try? String(contentsOfFile: xbel, encoding: .utf8))?.contains("dropped%20sketch.touchtracker") == true
        }
    }

    @Test("a drag that offers no list of files is not accepted, and nothing opens")
    func otherDataIsNotAccepted() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let target = try await windowID(of: session)
        let source = try XdndSource(display: session.server.display)
        let outcome = try source.drop(
            "hello", on: target, at: session.frame.x + 50, session.frame.y + 50, offering: "text/plain")
        #expect(!outcome.accepted)
        #expect(outcome.statusAction == "None")
    }

    @Test("the window's own drawing dropped on it opens no second window: the one that has it is brought forward")
    func ownDrawingDropped() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        let target = try await windowID(of: session)
        let source = try XdndSource(display: session.server.display)
        // Named .json: the session's document is drawing.json.
        let outcome = try source.drop(
            "file://\(session.document.path)\r\n", on: target, at: session.frame.x + 50, session.frame.y + 50)
        #expect(outcome.finished)
        try await session.app.waitForStderrLine(containing: "is already open in window 0x\(String(target, radix: 16))")
        let windows = try TopLevelWindows.list(display: session.server.display).filter { $0.isDrawingWindow }
        #expect(windows.count == 1)
    }

    @Test(
        """
        a drawing dropped under weston (wl_data_device, from the tests' own drag source) opens in a window of its \
        own, and the source is told the drop is finished
        """)
    func droppedOnWayland() async throws {
        let folder = try makeTemporaryFolder("touchtracker-wayland-drop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dropped = folder.appendingPathComponent("dropped.touchtracker")
        try DocumentStore(path: dropped.path).save(Drawing())
        // weston's desktop shell: windows of their own size, each where the shell puts it; the app's fills most of
        // the output. (The kiosk shell hides every window but the newest, so a drag could not reach the app's.)
        let session = try await WaylandSession.launch(
            shell: .desktop, folder: folder, extraArguments: ["--geometry", "1000x700"])
        defer { session.stop() }
        let source = try DragSource.start(on: session.server, uriList: "file://\(dropped.path)\r\n")
        defer { _ = source.stop(timeout: .seconds(2)) }
        func said(_ word: String) async throws {
            do {
                try await waitUntil("the drag source to say \(word)", timeout: .seconds(10)) {
                    String(decoding: source.stdout, as: UTF8.self).split(separator: "\n").contains(Substring(word))
                }
            } catch {
                throw AppProcess.AppError(
                    description: "\(error)\n--- drag source:\n\(String(decoding: source.stdout, as: UTF8.self))"
                        + "\(String(decoding: source.stderr, as: UTF8.self))\n\(session.app.transcript)")
            }
        }
        try await said("ready")
        try await Task.sleep(for: .milliseconds(200))
        let input = session.input
        // The shell placed the source's window (320x240) somewhere: the pointer sweeps the output a row at a time
        // until the source says the pointer entered it.
        func lines() -> [Substring] { String(decoding: source.stdout, as: UTF8.self).split(separator: "\n") }
        var top: Double?
        sweep: for y in stride(from: 8.0, to: 768, by: 16) {
            for x in stride(from: 8.0, to: 1024, by: 16) {
                try input.pointerMotion(x: x, y: y)
                try input.pointerFrame()
            }
            try input.sync()
            try await Task.sleep(for: .milliseconds(20))
            if lines().contains("entered") {
                top = y
                break sweep
            }
        }
        // A row across the window (it is 240 tall; the row found is its top, or later by the source's delay),
        // walked from the left until the source says the pointer entered it again. The window is 40 steps wide, so
        // the pointer is still over it when the word arrives, however late: it is pressed there. Rows further up
        // are tried in case the source's word came rows late.
        func entries() -> Int { lines().filter { $0 == "entered" }.count }
        let found = try #require(top, "the pointer never reached the drag source's window")
        var over = false
        walk: for row in [found + 100, found + 20, found - 60, found - 140] where row > 0 {
            try input.pointerMotion(x: 0, y: row)
            try input.pointerFrame()
            try input.sync()
            try await Task.sleep(for: .milliseconds(50))
            // A window at the output's left edge is under the pointer from the start.
            if lines().last == "entered" {
                over = true
                break walk
            }
            let before = entries()
            for x in stride(from: 0.0, to: 1024, by: 8) {
                try input.pointerMotion(x: x, y: row)
                try input.pointerFrame()
                try input.sync()
                try await Task.sleep(for: .milliseconds(15))
                if entries() > before {
                    over = true
                    break walk
                }
            }
        }
        #expect(over, "the pointer never came back over the drag source's window: \(lines())")
        try input.pointerButton(.left, pressed: true)
        try input.pointerFrame()
        try input.sync()
        try await said("dragging")
        try await Task.sleep(for: .milliseconds(100))
        // The source's window takes no pointer now: the drag goes on over the app's window beneath.
        for step in 0...5 {
            try input.pointerMotion(x: 500 + Double(step) * 5, y: 380 + Double(step) * 5)
            try input.pointerFrame()
            try input.sync()
            try await Task.sleep(for: .milliseconds(50))
        }
        try input.pointerButton(.left, pressed: false)
        try input.pointerFrame()
        try input.sync()
        try await said("finished")
        let holder = try await waitForValue("a window holding the dropped drawing", timeout: .seconds(20)) {
            () -> Int32? in lockHolder(of: dropped.path)
        }
        defer { kill(holder, SIGTERM) }
        #expect(holder != session.app.pid, "\(session.app.transcript)")
        #expect(String(decoding: source.stdout, as: UTF8.self).hasSuffix("dragging\ndropped\nsent\nfinished\n"))
    }
}
