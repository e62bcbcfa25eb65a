import Foundation
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// The release `touchtracker` in a window the size of a private 1920x1080 Xorg screen, opened on a document of
/// random lines: what the rows that measure the real app run against. Call `stop()` when done (e.g. in `defer`).
struct BenchAppSession {
    let server: XorgServer
    let app: AppProcess
    let document: URL
    /// CLOCK_MONOTONIC seconds just before the app was started, as a person starting it would count.
    let launchedAt: Double
    private let directory: String

    /// Opens the app on `lines` (default: `lineCount` random 100 px lines), with `environment` on top of this
    /// process's.
    static func launch(
        lineCount: Int, lines: [Line]? = nil, extraArguments: [String] = [], environment: [String: String?] = [:],
        pen: Bool = false
    ) async throws -> BenchAppSession {
        let executable = try AppProcess.locateExecutable()
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw EndToEndLatency.Failure(description: "\(executable.path) is not an executable")
        }
        let directory = NSTemporaryDirectory() + "touchtracker-bench-app-\(getpid())"
        var cleanUp: [() -> Void] = [{ try? FileManager.default.removeItem(atPath: directory) }]
        do {
            let document = try writeDocument(in: directory, lineCount: lineCount, lines: lines)
            let server = try await XorgServer.start(screenSize: (Workloads.width, Workloads.height), pen: pen)
            cleanUp.append { server.stop() }
            let launchedAt = EndToEndLatency.now()
            let app = try AppProcess(
                display: server.display, document: document, geometry: (server.width, server.height, 0, 0),
                extraArguments: extraArguments, environment: environment)
            cleanUp.append { app.stop() }
            try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(30))
            return BenchAppSession(
                server: server, app: app, document: document, launchedAt: launchedAt, directory: directory)
        } catch {
            for step in cleanUp.reversed() { step() }
            throw error
        }
    }

    /// Makes `directory` and saves `lines` (default: `lineCount` random 100 px lines) in it as the app's document.
    static func writeDocument(in directory: String, lineCount: Int, lines: [Line]? = nil) throws -> URL {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let document = URL(fileURLWithPath: directory + "/drawing.json")
        try DocumentStore(path: document.path).save(Drawing(lines: lines ?? Workloads.randomLines(lineCount)))
        return document
    }

    func stop() {
        app.stop()
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
