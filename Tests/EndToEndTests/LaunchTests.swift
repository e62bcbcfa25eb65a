import Foundation
import Testing
import XorgTestSupport

/// How `touchtracker` fails when there is no display server to talk to.
@Suite("Launching without a display")
struct LaunchTests {
    @Test("with WAYLAND_DISPLAY and DISPLAY unset it prints one error line naming both and exits with status 2")
    func missingDisplayExitsWithStatus2() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try AppProcess(
            arguments: ["--document", directory.appendingPathComponent("drawing.json").path],
            environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        let status = try await app.waitForExit()
        #expect(status == 2, "\(app.transcript)")
        #expect(app.stderrLines.count == 1, "\(app.transcript)")
        #expect(app.stderr.contains("WAYLAND_DISPLAY") && app.stderr.contains(" DISPLAY"), "\(app.transcript)")
    }

    @Test("--backend wayland with no compositor to reach prints one error line naming WAYLAND_DISPLAY, status 2")
    func unreachableCompositorExitsWithStatus2() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = try AppProcess(
            arguments: [
                "--backend", "wayland", "--document", directory.appendingPathComponent("drawing.json").path,
            ],
            environment: ["WAYLAND_DISPLAY": "touchtracker-nobody-\(getpid())", "XDG_RUNTIME_DIR": directory.path])
        let status = try await app.waitForExit()
        #expect(status == 2, "\(app.transcript)")
        #expect(app.stderrLines.count == 1, "\(app.transcript)")
        #expect(app.stderr.contains("WAYLAND_DISPLAY"), "\(app.transcript)")
    }

    @Test("with DISPLAY naming a display nobody serves it prints one error line naming DISPLAY and exits with status 2")
    func unreachableDisplayExitsWithStatus2() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let display = try unservedDisplay()
        let app = try AppProcess(
            arguments: ["--document", directory.appendingPathComponent("drawing.json").path],
            environment: ["DISPLAY": display, "WAYLAND_DISPLAY": nil])
        let status = try await app.waitForExit()
        #expect(status == 2, "\(app.transcript)")
        #expect(app.stderrLines.count == 1, "\(app.transcript)")
        #expect(app.stderr.contains("DISPLAY"), "\(app.transcript)")
    }

    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("touchtracker-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
