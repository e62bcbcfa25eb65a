import Foundation
import TouchTracker
import XorgTestSupport

/// The release `touchtracker` in a window the size of a private 1920x1080 Xorg screen, opened on a document of
/// random lines: what the rows that measure the real app run against. Call `stop()` when done (e.g. in `defer`).
struct BenchAppSession {
    let server: XorgServer
    let app: AppProcess
    let document: URL
    private let directory: String

    static func launch(lineCount: Int, extraArguments: [String] = []) async throws -> BenchAppSession {
        let executable = try AppProcess.locateExecutable()
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw EndToEndLatency.Failure(description: "\(executable.path) is not an executable")
        }
        let directory = NSTemporaryDirectory() + "touchtracker-bench-app-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var cleanUp: [() -> Void] = [{ try? FileManager.default.removeItem(atPath: directory) }]
        do {
            let document = URL(fileURLWithPath: directory + "/drawing.json")
            try DocumentStore(path: document.path).save(Drawing(lines: Workloads.randomLines(lineCount)))
            let server = try await XorgServer.start(screenSize: (Workloads.width, Workloads.height))
            cleanUp.append { server.stop() }
            let app = try AppProcess(
                display: server.display, document: document, geometry: (server.width, server.height, 0, 0),
                extraArguments: extraArguments)
            cleanUp.append { app.stop() }
            try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(30))
            return BenchAppSession(server: server, app: app, document: document, directory: directory)
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
