import CX11
import Foundation
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// One test's world: a private Xorg, the real `touchtracker` on it with a window at `frame`,
/// and a fresh document path. `launch` returns once the app reports `touchtracker: ready`.
/// Call `stop()` (e.g. in `defer`).
final class AppSession: Sendable {
    struct Frame: Sendable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    let server: XorgServer
    let app: AppProcess
    let document: URL
    let frame: Frame

    /// Starts the server and the app. `drawing` is saved as the document first (none: the app starts empty);
    /// `folder` is where the document lives (default: a fresh temporary folder); `document` names the document
    /// instead (a symlink, say: the app is given this path).
    static func launch(
        frame: Frame = Frame(x: 100, y: 80, width: 640, height: 480), readyTimeout: Duration = .seconds(10),
        depth: Int = 24, disabledExtensions: [String] = [], pen: Bool = false, drawing: Drawing? = nil,
        folder: URL? = nil,
        document named: URL? = nil, extraArguments: [String] = [], environment: [String: String?] = [:],
        onStarted: @Sendable (XorgServer, AppProcess) -> Void = { _, _ in }
    ) async throws -> AppSession {
        let server = try await XorgServer.start(depth: depth, disabledExtensions: disabledExtensions, pen: pen)
        do {
            // The document lives apart from the server's files: a test that kills the server (which removes them)
            // must still find what the app saved.
            let document =
                try named
                ?? (folder ?? makeTemporaryFolder("touchtracker-session")).appendingPathComponent("drawing.json")
            if let drawing { try DocumentStore(path: document.path).save(drawing) }
            let app = try AppProcess(
                display: server.display, document: document,
                geometry: (frame.width, frame.height, frame.x, frame.y), extraArguments: extraArguments,
                environment: environment)
            let session = AppSession(server: server, app: app, document: document, frame: frame)
            // Before waiting for the window: a test that must act within moments of it does so on its own thread.
            onStarted(server, app)
            do {
                try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: readyTimeout)
            } catch {
                session.stop()
                throw error
            }
            return session
        } catch {
            server.stop()
            throw error
        }
    }

    private init(server: XorgServer, app: AppProcess, document: URL, frame: Frame) {
        self.server = server
        self.app = app
        self.document = document
        self.frame = frame
    }

    /// Root-window coordinates of window point (x, y).
    func root(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        (x + Double(frame.x), y + Double(frame.y))
    }

    /// Root-window coordinates of window point `point`.
    func root(_ point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        root(point.x, point.y)
    }

    /// Waits for the saved document to hold at least `lineCount` lines.
    func savedDocument(lineCount: Int, timeout: Duration = .seconds(10)) async throws -> SavedDocument {
        do {
            return try await SavedDocument.wait(for: document, lineCount: lineCount, timeout: timeout)
        } catch {
            let contents = (try? String(contentsOf: document, encoding: .utf8)) ?? "(no file)"
            throw AppProcess.AppError(description: "\(error)\n--- document:\n\(contents)\n\(app.transcript)")
        }
    }

    /// A capture of the app's window area (root coordinates are kept: use `root(_:_:)`).
    func screenshot() throws -> Screenshot {
        try Screenshot.capture(
            display: server.display, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    }

    func stop() {
        app.stop()
        server.stop()
        try? FileManager.default.removeItem(at: document.deletingLastPathComponent())
    }
}

extension AppSession {
    /// Presses X keycodes in order and releases them in reverse (a chord such as Control_L + z). Keys go to the
    /// window under the pointer: the caller has put a pointing device over the window.
    func pressChord(_ keycodes: [Int32]) throws {
        let keyboard = try server.keyboard
        for code in keycodes { try keyboard.keyDown(keycode: code) }
        for code in keycodes.reversed() { try keyboard.keyUp(keycode: code) }
        try keyboard.sync()
    }

    /// Presses and releases each of X keycodes in turn, then waits until the server has handled them. Keys go to
    /// the window under the pointer, as for `pressChord`.
    func pressEach(_ keycodes: [Int32]) throws {
        let keyboard = try server.keyboard
        for code in keycodes {
            try keyboard.keyDown(keycode: code)
            try keyboard.keyUp(keycode: code)
        }
        try keyboard.sync()
    }

    /// The X keycodes of keysym `names` ("Tab", "Control_L", "o") on this session's server.
    func keycodes(_ names: [String]) throws -> [Int32] {
        try server.keycodes(names)
    }

    /// One horizontal stroke by touch `id` across window row `y`, from x 100 to 500, and waits until the server has
    /// handled it.
    func stroke(id: UInt32, y: Double) throws {
        let touch = try server.touch
        try touch.touchBegin(id: id, x: root(100, y).x, y: root(100, y).y)
        for x in stride(from: 160.0, through: 500, by: 85) {
            try touch.touchUpdate(id: id, x: root(x, y).x, y: root(x, y).y)
        }
        try touch.touchEnd(id: id, x: root(500, y).x, y: root(500, y).y)
        try touch.sync()
    }
}
