import Foundation
import TouchKit
import TouchTracker
import XorgTestSupport

/// The end-to-end latency row: under a real X server, from injecting a touch move through the inputtest driver to the
/// app reporting the frame that contains it as presented (`--trace-frames`).
enum EndToEndLatency {
    static let lineCount = 10_000
    static let moves = 1_000
    /// Moves sent (and waited for) before measuring: the first frames also page in code and caches.
    static let warmUpMoves = 20
    static let targetP99 = 0.004

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The row for a finger (`pen` false) or a tablet's pen: the same moves, the same target.
    static func row(pen: Bool = false) async -> Row {
        let name =
            "end-to-end \(pen ? "pen" : "touch") move → frame presented, \(lineCount) lines, "
            + "Xorg dummy \(Workloads.width)x\(Workloads.height), window sized to the screen"
        let target = "p99 < \(Int(targetP99 * 1000)) ms (median and p99 of \(moves) moves)"
        do {
            let latencies = try await measure(pen: pen)
            let median = Measure.median(latencies)
            let p99 = Measure.percentile(latencies, 0.99)
            let worst = latencies.max() ?? p99
            return Row(
                name: name,
                figure: "median \(Bench.ms(median)), p99 \(Bench.ms(p99)), max \(Bench.ms(worst)) "
                    + "(\(latencies.count) moves after \(warmUpMoves) warm-up)",
                target: target, passed: p99 < targetP99,
                values: ["medianSeconds": median, "p99Seconds": p99, "maxSeconds": worst])
        } catch {
            // Without root, Xorg or the release `touchtracker` this row cannot run: say why instead of crashing.
            let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            return Row(
                name: name, figure: "not measured: \(reason.prefix(240))", target: target, passed: false, values: [:])
        }
    }

    /// The latency of each measured move, in seconds.
    static func measure(pen: Bool = false) async throws -> [Double] {
        let session = try await BenchAppSession.launch(
            lineCount: lineCount, extraArguments: ["--trace-frames"], pen: pen)
        defer { session.stop() }
        let server = session.server
        let source: any TouchSource = pen ? PenSource(pen: try server.pen) : try server.touch
        var finger = TraceFinger(device: source, trace: AppTrace(app: session.app))
        _ = try await finger.trace.tilesComplete()

        // One finger down on the canvas and 40 px along (past the tap slop, so the line in progress is drawn), then
        // moves of 3 px back and forth along a row.
        let y = Double(server.height) / 2
        let begin = Double(server.width) / 4
        let start = begin + 40
        try finger.post(.begin, id: 1, x: begin, y: y)
        _ = try await finger.send(.update, id: 1, x: start, y: y)
        var latencies: [Double] = []
        latencies.reserveCapacity(moves)
        for move in 1...(warmUpMoves + moves) {
            let step = move % 400
            let x = start + 3 * Double(step < 200 ? step : 400 - step)
            let latency = try await finger.send(.update, id: 1, x: x, y: y)
            if move > warmUpMoves { latencies.append(latency) }
        }
        _ = try await finger.send(.end, id: 1, x: start, y: y)
        return latencies
    }

    /// CLOCK_MONOTONIC in seconds, the clock of the app's `frame presented t=` lines.
    static func now() -> Double {
        Double(Measure.now()) / 1e9
    }
}
