import Foundation
import TouchKit
import TouchTracker
import XorgTestSupport

/// Row 6: end-to-end latency under a real X server, from injecting a touch move through the inputtest driver to the
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

    static func row() async -> Row {
        let name =
            "end-to-end touch move → frame presented, \(lineCount) lines, "
            + "Xorg dummy \(Workloads.width)x\(Workloads.height), window sized to the screen"
        let target = "p99 < \(Int(targetP99 * 1000)) ms (median and p99 of \(moves) moves)"
        do {
            let latencies = try await measure()
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
    static func measure() async throws -> [Double] {
        let session = try await BenchAppSession.launch(lineCount: lineCount, extraArguments: ["--trace-frames"])
        defer { session.stop() }
        let server = session.server
        let app = session.app
        let touch = try server.touch
        var frames = FrameReader(app: app)

        // One finger down on the canvas and 40 px along (past the tap slop, so the line in progress is drawn), then
        // moves of 3 px back and forth along a row.
        let y = Double(server.height) / 2
        let begin = Double(server.width) / 4
        let start = begin + 40
        var sent = now()
        try touch.touchBegin(id: 1, x: begin, y: y)
        try touch.touchUpdate(id: 1, x: start, y: y)
        _ = try await frames.next(atOrAfter: sent)
        var latencies: [Double] = []
        latencies.reserveCapacity(moves)
        for move in 1...(warmUpMoves + moves) {
            let step = move % 400
            let x = start + 3 * Double(step < 200 ? step : 400 - step)
            sent = now()
            try touch.touchUpdate(id: 1, x: x, y: y)
            let presented = try await frames.next(atOrAfter: sent, what: "the frame of move \(move)")
            if move > warmUpMoves { latencies.append(presented - sent) }
        }
        try touch.touchEnd(id: 1, x: start, y: y)
        try? touch.sync()
        return latencies
    }

    /// CLOCK_MONOTONIC in seconds, the clock of the app's `frame presented t=` lines.
    static func now() -> Double {
        Double(Measure.now()) / 1e9
    }

    /// Reads the app's `frame presented t=` lines in order as they arrive on its stderr.
    struct FrameReader {
        let app: AppProcess
        /// Bytes of stderr already looked at (whole lines only).
        private var consumed = 0

        init(app: AppProcess) {
            self.app = app
        }

        static let marker = Array("frame presented t=".utf8)

        /// The time of the first frame presented at or after `time` (frames before it are skipped).
        mutating func next(atOrAfter time: Double, what: String = "a frame") async throws -> Double {
            var result: Double?
            try await waitUntil("\(what) (presented after t=\(time))", timeout: .seconds(5), poll: .milliseconds(1)) {
                result = scan(atOrAfter: time)
                if result == nil, !app.isRunning {
                    throw Failure(description: "touchtracker exited: \(app.transcript)")
                }
                return result != nil
            }
            return result!
        }

        private mutating func scan(atOrAfter time: Double) -> Double? {
            let bytes = Array(app.stderr.utf8)
            var lineStart = consumed
            var index = consumed
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") {
                    let line = bytes[lineStart..<index]
                    lineStart = index + 1
                    consumed = lineStart
                    if let t = Self.frameTime(line), t >= time { return t }
                }
                index += 1
            }
            return nil
        }

        private static func frameTime(_ line: ArraySlice<UInt8>) -> Double? {
            guard let range = line.firstRange(of: marker) else { return nil }
            // `t=SECONDS size=WxH`: the number runs to the next space.
            let number = line[range.upperBound...].prefix { $0 != UInt8(ascii: " ") }
            return Double(String(decoding: number, as: UTF8.self))
        }
    }
}
