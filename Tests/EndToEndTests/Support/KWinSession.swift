import Foundation
import KWinTestSupport
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// One test's world on KDE's compositor: a private headless KWin 5.27 at `scale` with the tests' fake-input client,
/// the real `touchtracker` on it as a native Wayland client in an 800x600 window, and a fresh document path.
/// `launch` returns once the app reports `touchtracker: ready` and KWin's scripting shows its window active, and
/// keeps where KWin placed it: `input` takes points in the WINDOW's logical coordinates (one unit is one pixel at
/// 100 %) and adds that place, so the tests read as the weston ones do. Call `stop()` (e.g. in `defer`).
final class KWinSession: Sendable {
    let server: KWinServer
    let app: AppProcess
    let document: URL
    /// The app's window as KWin saw it once shown.
    let window: KWinServer.Window
    /// Whether the document's folder is the session's own (removed by `stop`), not the caller's.
    private let madeFolder: Bool

    /// The fake input, in window coordinates.
    var input: KWinWindowInput { KWinWindowInput(input: server.input, origin: (window.client.x, window.client.y)) }

    static func launch(
        scale: Double, drawing: Drawing? = nil, folder: URL? = nil, extraArguments: [String] = [],
        environment: [String: String?] = [:], readyTimeout: Duration = .seconds(20)
    ) async throws -> KWinSession {
        let server = try await KWinServer.start(scale: scale)
        do {
            let document = try (folder ?? makeTemporaryFolder("touchtracker-kwin")).appendingPathComponent(
                "drawing.json")
            if let drawing { try DocumentStore(path: document.path).save(drawing) }
            let app = try launchApp(
                on: server, document: document, extraArguments: extraArguments, environment: environment)
            do {
                try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: readyTimeout)
                let window = try await shownWindow(of: app, on: server)
                return KWinSession(
                    server: server, app: app, document: document, window: window, madeFolder: folder == nil)
            } catch {
                app.stop()
                throw AppProcess.AppError(
                    description: "\(error)\n\(app.transcript)\n--- KWin:\n\(server.logTail())")
            }
        } catch {
            server.stop()
            throw error
        }
    }

    /// `touchtracker --backend wayland --document … --verbose --geometry 800x600` on `server`, a native Wayland
    /// client (no DISPLAY), on KWin's private session bus.
    static func launchApp(
        on server: KWinServer, document: URL, extraArguments: [String] = [], environment: [String: String?] = [:]
    ) throws -> AppProcess {
        var clientEnvironment: [String: String?] = server.environment.mapValues { $0 }
        clientEnvironment["DISPLAY"] = .some(nil)
        clientEnvironment["WAYLAND_SOCKET"] = .some(nil)
        return try AppProcess(
            arguments: ["--backend", "wayland", "--document", document.path, "--verbose", "--geometry", "800x600"]
                + extraArguments,
            environment: clientEnvironment.merging(environment) { $1 })
    }

    /// `app`'s window once KWin shows it at its size and has made it the active window (a new window takes focus
    /// under KWin's default focus stealing prevention), so input reaches it.
    static func shownWindow(of app: AppProcess, on server: KWinServer) async throws -> KWinServer.Window {
        try await server.waitForWindow("the window of \(app.pid) shown and active") {
            $0.pid == app.pid && $0.active && $0.client.width > 0
        }
    }

    private init(server: KWinServer, app: AppProcess, document: URL, window: KWinServer.Window, madeFolder: Bool) {
        self.server = server
        self.app = app
        self.document = document
        self.window = window
        self.madeFolder = madeFolder
    }

    /// Waits until the document holds exactly `count` lines.
    func document(lineCount count: Int, timeout: Duration = .seconds(10)) async throws -> SavedDocument {
        do {
            return try await waitForValue("the document to hold exactly \(count) line(s)", timeout: timeout) {
                guard let document = SavedDocument.read(self.document), document.lines.count == count else {
                    return nil
                }
                return document
            }
        } catch {
            let contents = (try? String(contentsOf: document, encoding: .utf8)) ?? "(no file)"
            throw AppProcess.AppError(
                description: "\(error)\n--- document:\n\(contents)\n\(app.transcript)\n--- KWin:\n\(server.logTail())")
        }
    }

    /// Runs one of the compositor's clients (wl-copy, wl-paste) to its end and returns its standard output (not
    /// read when `readsOutput` is false: wl-copy's child stays behind serving the copy, its output still open).
    @discardableResult
    func runClient(_ executable: String, _ arguments: [String], readsOutput: Bool = true) async throws -> [UInt8] {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: server.clientEnvironment,
            stdout: readsOutput ? .capture : .discard, stderr: .discard)
        guard child.waitForExit(timeout: .seconds(10)) != nil else {
            _ = child.stop()
            throw AppProcess.AppError(description: "\(executable) did not finish within 10 s")
        }
        guard readsOutput else { return [] }
        try await waitUntil("\(executable)'s output to close", timeout: .seconds(5)) { child.outputClosed }
        return Array(child.stdout)
    }

    /// The window's canvas (its client area) as KWin shows it now, in output pixels (`scale` of them a unit).
    func screenshot() throws -> KWinScreenshot {
        try server.screenshot(
            x: Int(window.client.x), y: Int(window.client.y), width: Int(window.client.width),
            height: Int(window.client.height))
    }

    func stop() {
        app.stop()
        server.stop()
        if madeFolder { try? FileManager.default.removeItem(at: document.deletingLastPathComponent()) }
    }
}

/// KWin's fake input with points in one window's logical coordinates: each is moved by the window's place on the
/// output (KWin's fake input takes global logical coordinates). Named as `WestonInput`'s calls, so the KWin tests
/// read as the weston ones.
struct KWinWindowInput: TouchSeat {
    let input: KWinInput
    let origin: (x: Double, y: Double)

    func touchDown(id: Int, x: Double, y: Double) throws {
        try input.touchDown(id: id, x: origin.x + x, y: origin.y + y)
    }

    func touchMotion(id: Int, x: Double, y: Double) throws {
        try input.touchMotion(id: id, x: origin.x + x, y: origin.y + y)
    }

    func touchUp(id: Int) throws { try input.touchUp(id: id) }
    func touchFrame() throws { try input.touchFrame() }
    func touchCancel() throws { try input.touchCancel() }

    func pointerMotion(x: Double, y: Double) throws {
        try input.pointerMotion(x: origin.x + x, y: origin.y + y)
    }

    func pointerButton(_ button: KWinInput.PointerButton, pressed: Bool) throws {
        try input.pointerButton(button, pressed: pressed)
    }

    func pointerFrame() throws { try input.pointerFrame() }
    func key(_ code: Int, pressed: Bool) throws { try input.key(code, pressed: pressed) }
    func sync(timeout: Duration = .seconds(5)) throws { try input.sync(timeout: timeout) }
}
