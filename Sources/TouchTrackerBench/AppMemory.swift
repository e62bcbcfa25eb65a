import Foundation
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// The memory row's figure: the real `touchtracker` holding a 100,000-line document in a 1920x1080 window under a
/// private Xorg, after it drew a stroke; its peak resident memory (VmHWM) as the kernel counts it.
enum AppMemory {
    static let lineCount = 100_000
    static let targetMegabytes = 80.0

    static func row() async -> Row {
        let name = "peak memory of the app holding \(lineCount) lines (1920x1080 window, after a stroke)"
        let target = "< \(Int(targetMegabytes)) MB"
        do {
            let (peak, resident) = try await measure()
            return Row(
                name: name, figure: String(format: "%.1f MB peak (%.1f MB resident at the end)", peak, resident),
                target: target, passed: peak < targetMegabytes,
                values: ["peakMegabytes": peak, "residentMegabytes": resident])
        } catch {
            // Without root, Xorg or the release `touchtracker` this row cannot run: say why instead of crashing.
            let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            return Row(
                name: name, figure: "not measured: \(reason.prefix(240))", target: target, passed: false, values: [:])
        }
    }

    /// VmHWM and VmRSS of the app, in MB.
    static func measure() async throws -> (peak: Double, resident: Double) {
        let session = try await BenchAppSession.launch(lineCount: lineCount)
        defer { session.stop() }
        let app = session.app
        let document = session.document
        // One stroke, so the numbers include drawing, the frame and the save that follows it.
        let touch = try session.server.touch
        try touch.touchBegin(id: 1, x: 300, y: 300)
        for step in 1...10 { try touch.touchUpdate(id: 1, x: 300 + 20 * Double(step), y: 300) }
        try touch.touchEnd(id: 1, x: 500, y: 300)
        try touch.sync()
        try await waitUntil("the stroke to be saved", timeout: .seconds(30)) {
            (try? DocumentStore(path: document.path).load().lines.count) == lineCount + 1
        }
        let status = try String(contentsOfFile: "/proc/\(app.pid)/status", encoding: .utf8)
        func megabytes(_ field: String) throws -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                let kilobytes = Double(line.filter(\.isNumber))
            else { throw EndToEndLatency.Failure(description: "no \(field) in /proc/\(app.pid)/status") }
            return kilobytes / 1024
        }
        return (try megabytes("VmHWM"), try megabytes("VmRSS"))
    }
}
