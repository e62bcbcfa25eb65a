import Foundation
import MutterTestSupport
import Synchronization
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// One test's world on GNOME: a private headless mutter 43 (`MutterServer`) with a virtual monitor at `scale`, the
/// real `touchtracker` on it as a native Wayland client with libdecor's title bar (mutter offers no
/// xdg-decoration), and a fresh document path.
///
/// mutter places a new window itself (centred), and no protocol tells a client, or this harness, where: `launch`
/// finds the canvas in screen cast frames (the one white area; mutter's own background is a dark blue), taking
/// frames until two in a row agree, because mutter's map animation moves the window for about 0.25 s after it
/// appears. Gestures take points in the window's LOGICAL coordinates (one unit is one pixel at 100 %), which is what
/// the saved document must hold at every scale; they become stream pixels as mutter lays the window out:
/// `origin + point × scale`.
final class MutterSession: Sendable {
    let server: MutterServer
    let app: AppProcess
    let document: URL
    private let located: Mutex<Canvas>
    private let madeFolder: Bool

    /// Where the canvas is, in stream (physical) pixels.
    struct Canvas: Equatable, Sendable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The canvas's top left corner and size as last found (`locateCanvas()`).
    var canvas: Canvas { located.withLock { $0 } }

    var input: MutterInput { server.input }
    var scale: Int { server.scale }

    /// A monitor mutter offers `scale` for: 2560x1600 offers 2 (and 3), 1280x800 only 1.
    static func monitor(scale: Int) -> (width: Int, height: Int) {
        scale == 1 ? (1280, 800) : (2560, 1600)
    }

    /// `monitor`: the virtual monitor's size (nil: `monitor(scale:)`'s).
    static func launch(
        scale: Int, monitor: (width: Int, height: Int)? = nil, drawing: Drawing? = nil, folder: URL? = nil,
        extraArguments: [String] = [], environment: [String: String?] = [:], readyTimeout: Duration = .seconds(20)
    ) async throws -> MutterSession {
        let monitor = monitor ?? Self.monitor(scale: scale)
        let server = try await MutterServer.start(width: monitor.width, height: monitor.height, scale: scale)
        do {
            let document = try (folder ?? makeTemporaryFolder("touchtracker-mutter")).appendingPathComponent(
                "drawing.json")
            if let drawing { try DocumentStore(path: document.path).save(drawing) }
            let app = try launchApp(
                on: server, document: document, extraArguments: extraArguments,
                environment: environment)
            do {
                try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: readyTimeout)
                let canvas = try await findCanvas(on: server, app: app)
                return MutterSession(
                    server: server, app: app, document: document, canvas: canvas, madeFolder: folder == nil)
            } catch {
                app.stop()
                throw AppProcess.AppError(
                    description: "\(error)\n\(app.transcript)\n--- mutter:\n\(server.logTail())")
            }
        } catch {
            server.stop()
            throw error
        }
    }

    /// Starts `touchtracker --backend wayland --document … --verbose` on `server` (not waiting for it).
    static func launchApp(
        on server: MutterServer, document: URL, extraArguments: [String] = [], environment: [String: String?] = [:]
    ) throws -> AppProcess {
        var clientEnvironment: [String: String?] = server.environment.mapValues { $0 }
        clientEnvironment["DISPLAY"] = .some(nil)
        return try AppProcess(
            arguments: ["--backend", "wayland", "--document", document.path, "--verbose"] + extraArguments,
            environment: clientEnvironment.merging(environment) { $1 })
    }

    /// The canvas in screen cast frames, once two frames in a row show it at the same place and size.
    static func findCanvas(on server: MutterServer, app: AppProcess) async throws -> Canvas {
        var last: Canvas?
        let deadline = ContinuousClock.now.advanced(by: .seconds(30))
        while ContinuousClock.now < deadline {
            let area = try server.frame().whiteArea(minimumWidth: 200 * server.scale).map {
                Canvas(x: $0.x, y: $0.y, width: $0.width, height: $0.height)
            }
            if let area, area == last { return area }
            last = area
            try await Task.sleep(for: .milliseconds(100))
        }
        throw AppProcess.AppError(
            description: "the canvas never stood still in the screen cast (last: \(String(describing: last)))")
    }

    private init(
        server: MutterServer, app: AppProcess, document: URL, canvas: Canvas, madeFolder: Bool
    ) {
        self.server = server
        self.app = app
        self.document = document
        located = Mutex(canvas)
        self.madeFolder = madeFolder
    }

    /// Finds the canvas again (after the window moved or changed size), until two frames agree.
    @discardableResult
    func locateCanvas() async throws -> Canvas {
        let canvas = try await Self.findCanvas(on: server, app: app)
        located.withLock { $0 = canvas }
        return canvas
    }

    /// The window's size in logical units, from the canvas found.
    var windowSize: (width: Double, height: Double) {
        (Double(canvas.width) / Double(scale), Double(canvas.height) / Double(scale))
    }

    /// Window point (logical) → stream pixel (mutter divides stream offsets from the window by the scale).
    func streamPoint(_ point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        (Double(canvas.x) + point.x * Double(scale), Double(canvas.y) + point.y * Double(scale))
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
            throw AppProcess.AppError(description: "\(error)\n\(failureContext())")
        }
    }

    /// What a failed wait shows: the document, the app's output and mutter's log.
    func failureContext() -> String {
        let contents = (try? String(contentsOf: document, encoding: .utf8)) ?? "(no file)"
        return "--- document:\n\(contents)\n\(app.transcript)\n--- mutter:\n\(server.logTail())"
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

    func stop() {
        app.stop()
        server.stop()
        if madeFolder { try? FileManager.default.removeItem(at: document.deletingLastPathComponent()) }
    }
}

/// What the GNOME tests do with mutter's virtual devices, as a person would, at window (logical) points.
extension MutterSession {
    func touchDown(slot: Int, at point: (x: Double, y: Double)) throws {
        let stream = streamPoint(point)
        try input.touchDown(slot: slot, x: stream.x, y: stream.y)
    }

    func touchMotion(slot: Int, to point: (x: Double, y: Double)) throws {
        let stream = streamPoint(point)
        try input.touchMotion(slot: slot, x: stream.x, y: stream.y)
    }

    /// A touch from `begin` to `end` in eight moves, then up.
    func stroke(slot: Int, from begin: (x: Double, y: Double), to end: (x: Double, y: Double)) throws {
        try touchDown(slot: slot, at: begin)
        for step in 1...8 {
            let t = Double(step) / 8
            try touchMotion(slot: slot, to: (begin.x + (end.x - begin.x) * t, begin.y + (end.y - begin.y) * t))
        }
        try input.touchUp(slot: slot)
    }

    func tap(slot: Int, at point: (x: Double, y: Double)) throws {
        try touchDown(slot: slot, at: point)
        try input.touchUp(slot: slot)
    }

    func pointerMotion(to point: (x: Double, y: Double)) throws {
        let stream = streamPoint(point)
        try input.pointerMotion(x: stream.x, y: stream.y)
    }

    /// Presses and releases Linux key `code`, with Control held when `control`.
    func key(_ code: Int, control: Bool = false) throws {
        if control { try input.key(LinuxKey.leftControl, pressed: true) }
        try input.key(code, pressed: true)
        try input.key(code, pressed: false)
        if control { try input.key(LinuxKey.leftControl, pressed: false) }
    }

    /// A left click at stream pixel `point` (the title bar's buttons lie outside the canvas).
    func click(atStream point: (x: Double, y: Double)) throws {
        try input.pointerMotion(x: point.x - 1, y: point.y - 1)
        try input.pointerMotion(x: point.x, y: point.y)
        try input.pointerButton(.left, pressed: true)
        try input.pointerButton(.left, pressed: false)
    }
}
