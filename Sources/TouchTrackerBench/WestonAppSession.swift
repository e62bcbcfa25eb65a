import Foundation
import TouchTracker
import WestonTestSupport
import XorgTestSupport

/// Weston's input module as a `TraceFinger`'s source: each event goes in a wl_touch frame of its own, and `post`
/// returns once weston has written the events to its clients (`sync`), as the inputtest driver's events are on
/// their way once written.
extension WestonInput: TouchSource {
    func post(_ phase: TraceFinger.Phase, id: UInt32, x: Double, y: Double) throws {
        switch phase {
        case .begin: try touchDown(id: Int(id), x: x, y: y)
        case .update: try touchMotion(id: Int(id), x: x, y: y)
        case .end: try touchUp(id: Int(id))
        }
        try touchFrame()
        try sync()
    }
}

/// The release `touchtracker` under a private headless weston of 1920x1080 with the kiosk shell, opened on a
/// document of random lines: as a native Wayland client, or as an X11 client through Xwayland on the same kind of
/// compositor. The native window fills the output at 0,0, so the input module's global points are window points.
/// Call `stop()` when done (e.g. in `defer`).
struct WestonAppSession {
    enum Backend: String {
        case wayland, x11
    }

    let server: WestonServer
    let app: AppProcess
    let document: URL
    private let directory: String

    static func launch(
        backend: Backend, lineCount: Int, extraArguments: [String] = []
    ) async throws -> WestonAppSession {
        let executable = try AppProcess.locateExecutable()
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw EndToEndLatency.Failure(description: "\(executable.path) is not an executable")
        }
        // One folder per backend: the two apps run side by side, and a second app on the same document would hand
        // it over to the first (one owner per document) and exit.
        let directory = NSTemporaryDirectory() + "touchtracker-bench-\(backend.rawValue)-\(getpid())"
        var cleanUp: [() -> Void] = [{ try? FileManager.default.removeItem(atPath: directory) }]
        do {
            let document = try BenchAppSession.writeDocument(in: directory, lineCount: lineCount)
            let server = try await WestonServer.start(
                width: Workloads.width, height: Workloads.height, xwayland: backend == .x11)
            cleanUp.append { server.stop() }
            var environment: [String: String?] = server.environment.mapValues { $0 }
            var arguments = ["--backend", backend.rawValue, "--document", document.path, "--verbose"]
            switch backend {
            // Without DISPLAY, nothing the app does can go through Xwayland by mistake.
            case .wayland: environment["DISPLAY"] = .some(nil)
            // An X11 window the size of the output, which the kiosk shell then shows at 0,0 as it does the native one.
            case .x11: arguments += ["--geometry", "\(server.width)x\(server.height)+0+0"]
            }
            let app = try AppProcess(arguments: arguments + extraArguments, environment: environment)
            cleanUp.append { app.stop() }
            try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(30))
            return WestonAppSession(server: server, app: app, document: document, directory: directory)
        } catch {
            for step in cleanUp.reversed() { step() }
            throw error
        }
    }

    func stop() {
        app.stop()
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
