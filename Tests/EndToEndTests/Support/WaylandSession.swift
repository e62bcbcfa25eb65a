import Foundation
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore
import WestonTestSupport
import XorgTestSupport

/// One test's world on Wayland: a private headless weston (kiosk shell) with the tests' input module, the real
/// `touchtracker` on it as a native Wayland client (or, with `backend: "x11"`, through Xwayland), and a fresh
/// document path. The kiosk shell gives the window the whole output at 0,0, so window points are the compositor's
/// global points. `launch` returns once the app reports `touchtracker: ready`. Call `stop()` (e.g. in `defer`).
final class WaylandSession: Sendable {
    let server: WestonServer
    let app: AppProcess
    let document: URL
    /// Whether the document's folder is the session's own (removed by `stop`), not the caller's.
    private let madeFolder: Bool

    var input: WestonInput { server.input }

    /// `backend` is passed as `--backend` (nil: none, so the environment decides: WAYLAND_DISPLAY is set and DISPLAY
    /// is not, or is Xwayland's when `xwayland`).
    static func launch(
        backend: String? = "wayland", xwayland: Bool = false, shell: WestonServer.Shell = .kiosk, scale: Int = 1,
        drawing: Drawing? = nil, folder: URL? = nil,
        extraArguments: [String] = [],
        environment: [String: String?] = [:], readyTimeout: Duration = .seconds(15)
    ) async throws -> WaylandSession {
        let server = try await WestonServer.start(
            scale: scale, xwayland: xwayland || backend == "x11", shell: shell)
        do {
            let document = try (folder ?? makeTemporaryFolder("touchtracker-wayland")).appendingPathComponent(
                "drawing.json")
            if let drawing { try DocumentStore(path: document.path).save(drawing) }
            var clientEnvironment: [String: String?] = server.environment.mapValues { $0 }
            if !xwayland, backend != "x11" { clientEnvironment["DISPLAY"] = .some(nil) }
            let backendArguments = backend.map { ["--backend", $0] } ?? []
            let app = try AppProcess(
                arguments: backendArguments + ["--document", document.path, "--verbose"] + extraArguments,
                environment: clientEnvironment.merging(environment) { $1 })
            let session = WaylandSession(server: server, app: app, document: document, madeFolder: folder == nil)
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

    private init(server: WestonServer, app: AppProcess, document: URL, madeFolder: Bool) {
        self.server = server
        self.app = app
        self.document = document
        self.madeFolder = madeFolder
    }

    /// Waits for the saved document to hold at least `lineCount` lines.
    func savedDocument(lineCount: Int, timeout: Duration = .seconds(10)) async throws -> SavedDocument {
        do {
            return try await SavedDocument.wait(for: document, lineCount: lineCount, timeout: timeout)
        } catch {
            let contents = (try? String(contentsOf: document, encoding: .utf8)) ?? "(no file)"
            throw AppProcess.AppError(
                description: "\(error)\n--- document:\n\(contents)\n\(app.transcript)\n--- weston:\n\(server.logTail())"
            )
        }
    }

    /// Waits until the document holds exactly `count` lines.
    func document(lineCount count: Int, timeout: Duration = .seconds(10)) async throws -> SavedDocument {
        try await waitForValue("the document to hold exactly \(count) line(s)", timeout: timeout) {
            guard let document = SavedDocument.read(self.document), document.lines.count == count else { return nil }
            return document
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

    /// The output as the compositor shows it now.
    func screenshot() throws -> CairoSurface {
        let path = try server.screenshotPNG()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try CairoSurface(readingPNG: path)
    }

    func stop() {
        app.stop()
        server.stop()
        if madeFolder { try? FileManager.default.removeItem(at: document.deletingLastPathComponent()) }
    }
}

extension WaylandSession {
    func stroke(id: Int, from begin: (x: Double, y: Double), to end: (x: Double, y: Double)) throws {
        try input.stroke(id: id, from: begin, to: end)
    }

    func tap(id: Int, at point: (x: Double, y: Double)) throws {
        try input.tap(id: id, at: point)
    }

    /// Presses and releases Linux key `code`, with Control held when `control`.
    func key(_ code: Int, control: Bool = false) throws {
        try input.press(code, holding: control ? LinuxKey.leftControl : nil)
    }
}

/// What the Wayland tests do with weston's seat beyond a `TouchSeat`'s touches and keys.
extension WestonInput {
    /// A left click at `point`. The pointer first moves next to it: weston sends no motion for a move to where the
    /// pointer already is.
    func click(at point: (x: Double, y: Double)) throws {
        try pointerMotion(x: point.x - 1, y: point.y - 1)
        try pointerMotion(x: point.x, y: point.y)
        try pointerFrame()
        try pointerButton(.left, pressed: true)
        try pointerFrame()
        try pointerButton(.left, pressed: false)
        try pointerFrame()
        try sync()
    }
}

/// Linux input key codes (linux/input-event-codes.h) the tests press.
enum LinuxKey {
    static let leftControl = 29
    static let leftShift = 42
    static let z = 44
    static let c = 46
    static let v = 47
    static let delete = 111
    static let left = 105
    static let right = 106
    static let space = 57
}
