import Foundation
import XorgTestSupport

/// "Fit the whole drawing" on a very large drawing: the release app under a private Xorg (1920x1080) on
/// `lineCount` lines spread over 8 x 8 windows (`Workloads.spreadOverWindows`), its tiles complete at 100 %; then
/// Ctrl+Shift+J, timed by the app's trace to the frame at the fitting zoom and to every tile sharp at it.
struct FitWholeDrawing {
    static let lineCount = 1_000_000

    var zoom = 0.0
    /// Ctrl+Shift+J's time to the frame at the new zoom, and to every tile sharp.
    var frame = 0.0
    var sharp = 0.0
    var memory = AppMemory.Megabytes(peak: 0, resident: 0, anonymous: 0, sharedMemory: 0, files: 0)

    static func measure() async throws -> FitWholeDrawing {
        let session = try await BenchAppSession.launch(
            lineCount: lineCount, lines: Workloads.spreadOverWindows(lineCount), extraArguments: ["--trace-frames"])
        defer { session.stop() }
        var wheel = try TraceWheel(server: session.server, trace: AppTrace(app: session.app))
        _ = try await wheel.trace.tilesComplete(timeout: .seconds(120))
        try await wheel.point(at: Double(Workloads.width) / 2, Double(Workloads.height) / 2)
        let start = try wheel.fitDrawing()
        var fitted = try await wheel.trace.frame(atOrAfter: start, what: "the frame after Ctrl+Shift+J")
        while fitted.zoom >= 0.5 {
            fitted = try await wheel.trace.frame(atOrAfter: fitted.time + 1e-6, what: "the frame fitting the drawing")
        }
        var result = FitWholeDrawing()
        result.zoom = fitted.zoom
        result.frame = fitted.time - start
        result.sharp = try await wheel.trace.tilesComplete(atOrAfter: fitted.time, timeout: .seconds(120)) - start
        result.memory = try AppMemory.megabytes(of: session.app)
        return result
    }
}
