import Foundation
import WestonTestSupport
import XorgTestSupport

/// The rows under weston (`--only wayland`), from one run: touch move → frame as a native Wayland client (to the
/// frame committed, and to the compositor's presentation feedback saying it reached the output) and as an X11
/// client through Xwayland on the same compositor, the two compared, and the Wayland host's memory.
///
/// The two apps run side by side, each under a weston of its own (headless, 1920x1080, kiosk shell), on the
/// 10,000-line document of the Xorg row, and get the same moves through weston's input module (a real wl_seat), in
/// turns: a busy moment of the machine falls on both alike. After each move there is a quiet 34 to 50 ms: the
/// compositor has shown the frame before the next move (a finger faster than it repaints would measure buffers
/// waiting to be given back), and the other compositor's repaint is over before the other app's move.
enum WaylandLatency {
    static let lineCount = EndToEndLatency.lineCount
    static let moves = 600
    static let warmUpMoves = 20
    static let targetCommittedP99 = 0.001
    /// From one move to whatever comes next: 34 to 50 ms, longer than a repaint of weston's (it starts up to one
    /// 60 Hz refresh after the commit and reports the frame shown 16 ms later), varied so the moves do not keep
    /// one phase against anything periodic on the machine.
    static func quietTime(after move: Int) -> Duration {
        .milliseconds(34 + move * 7 % 17)
    }
    /// Long enough for every presentation feedback in flight to arrive (several repaints).
    static let settleTime = Duration.milliseconds(100)

    /// One backend's moves, in seconds from just before each was sent.
    struct Run {
        /// To the frame's commit leaving for the compositor (`AppTrace.Frame.committed`; through Xwayland, the
        /// X11 app's `frame presented` line, right after its frame was sent).
        var committed: [Double] = []
        /// To the app's `frame presented` line, right after the send returned: the compositor's turn on the core
        /// the send woke it on included.
        var sendReturned: [Double] = []
        /// From the move reaching the app's session to its frame's commit leaving: the app's own part.
        var appPart: [Double] = []
        /// To weston's answer that it wrote the move to its clients (the app, or Xwayland): the compositor's part.
        var delivered: [Double] = []
        /// To the compositor's `frame shown` feedback for that frame (native Wayland only).
        var shown: [Double] = []
        /// Moves whose frame's feedback could not be told from another frame's (left out of `shown`).
        var unattributed = 0
        /// The window's size (an X11 window through weston's window manager gets decorations of the output's room).
        var width = 0
        var height = 0

        /// One move's frame, the move sent at `sent` and taken by the compositor at `posted`.
        mutating func record(_ frame: AppTrace.Frame, sent: Double, posted: Double) {
            committed.append(frame.committed - sent)
            sendReturned.append(frame.time - sent)
            if frame.received > 0 { appPart.append(frame.committed - frame.received) }
            delivered.append(posted - sent)
        }
    }

    static func rows() async -> [Row] {
        let (native, xwayland) = await measure()
        return [
            committedRow(native), shownRow(native), xwaylandRow(xwayland), comparisonRow(native, xwayland),
            await AppMemory.waylandRow(),
        ]
    }

    // MARK: Rows

    static func committedRow(_ run: Result<Run, Error>) -> Row {
        let name =
            "Wayland (weston headless \(Workloads.width)x\(Workloads.height)): touch move → frame committed, "
            + "\(lineCount) lines"
        let target = "p99 ≤ \(Int(targetCommittedP99 * 1000)) ms (\(moves) moves)"
        return row(name, target, run) { run in
            let stats = Stats(run.committed)
            let returned = Stats(run.sendReturned)
            return Row(
                name: name,
                figure: stats.figure(warmUp: warmUpMoves) + deliveryFigure(run) + "; to the send's return: median "
                    + "\(Bench.ms(returned.median)), p99 \(Bench.ms(returned.p99))", target: target,
                passed: stats.p99 <= targetCommittedP99, values: stats.values.merging(deliveryValues(run)) { $1 })
        }
    }

    static func shownRow(_ run: Result<Run, Error>) -> Row {
        let name = "Wayland: touch move → frame shown (wp_presentation feedback), \(lineCount) lines"
        // Weston's headless output repaints up to a refresh after the commit, less its 7 ms repaint window, and
        // reports the frame presented 16 ms after painting it (a timer standing in for the scan-out).
        let target = "- (weston headless: its repaint + 16 ms)"
        return row(name, target, run) { run in
            let stats = Stats(run.shown)
            var values = stats.values
            values["unattributedMoves"] = Double(run.unattributed)
            let left = run.unattributed == 0 ? "" : "; \(run.unattributed) moves left out: another frame's feedback"
            return Row(
                name: name, figure: stats.figure(warmUp: warmUpMoves) + left,
                target: target, passed: !run.shown.isEmpty, values: values)
        }
    }

    static func xwaylandRow(_ run: Result<Run, Error>) -> Row {
        let name =
            "Xwayland on the same weston: touch move → frame presented by the X11 app, \(lineCount) lines "
            + "(Xwayland gives X11 apps no presentation feedback: no frame shown)"
        return row(name, "-", run) { run in
            let stats = Stats(run.committed)
            return Row(
                name: name,
                figure: stats.figure(warmUp: warmUpMoves) + deliveryFigure(run) + "; window \(run.width)x\(run.height)",
                target: "- (for comparison)", passed: true, values: stats.values.merging(deliveryValues(run)) { $1 })
        }
    }

    /// Native against Xwayland, move → the app's frame (committed on Wayland, presented to Xwayland on X11).
    static func comparisonRow(_ native: Result<Run, Error>, _ xwayland: Result<Run, Error>) -> Row {
        let name = "Wayland against Xwayland: touch move → the app's frame, \(lineCount) lines"
        let target = "native median and p99 ≤ Xwayland's"
        guard case .success(let nativeRun) = native, case .success(let xwaylandRun) = xwayland else {
            return Row(
                name: name, figure: "not measured: needs both the Wayland and the Xwayland run", target: target,
                passed: false, values: [:])
        }
        // Both to the send's return: the X11 app's frame line can say no more than that.
        let ours = Stats(nativeRun.sendReturned)
        let theirs = Stats(xwaylandRun.sendReturned)
        let medianRatio = ours.median / theirs.median
        let p99Ratio = ours.p99 / theirs.p99
        return Row(
            name: name,
            figure: "median \(Bench.ms(ours.median)) against \(Bench.ms(theirs.median)) "
                + "(\(String(format: "%.2f", medianRatio))×), p99 \(Bench.ms(ours.p99)) against "
                + "\(Bench.ms(theirs.p99)) (\(String(format: "%.2f", p99Ratio))×)",
            target: target, passed: ours.median <= theirs.median && ours.p99 <= theirs.p99,
            values: ["medianRatio": medianRatio, "p99Ratio": p99Ratio])
    }

    /// How long weston took to pass the moves on: the part of the latency that is not the app's.
    private static func deliveryFigure(_ run: Run) -> String {
        let stats = Stats(run.delivered)
        return "; weston passing the move on: median \(Bench.ms(stats.median)), p99 \(Bench.ms(stats.p99))"
    }

    private static func deliveryValues(_ run: Run) -> [String: Double] {
        let stats = Stats(run.delivered)
        return ["deliveredMedianSeconds": stats.median, "deliveredP99Seconds": stats.p99]
    }

    /// `make`'s row from a run that went, or one saying why it could not be measured.
    private static func row(
        _ name: String, _ target: String, _ run: Result<Run, Error>, _ make: (Run) -> Row
    ) -> Row {
        switch run {
        case .success(let run): return make(run)
        case .failure(let error):
            // Without root, weston, Xwayland or the release `touchtracker` this row cannot run: say why.
            let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            return Row(
                name: name, figure: "not measured: \(reason.prefix(240))", target: target, passed: false, values: [:])
        }
    }

    /// Median, p99 and worst of some latencies.
    struct Stats {
        let count: Int
        let median: Double
        let p99: Double
        let worst: Double

        init(_ latencies: [Double]) {
            count = latencies.count
            median = Measure.median(latencies)
            p99 = Measure.percentile(latencies, 0.99)
            worst = latencies.max() ?? .nan
        }

        func figure(warmUp: Int) -> String {
            figure("moves after \(warmUp) warm-up")
        }

        /// The median, p99 and max, then how many there were and how they were made (`how`).
        func figure(_ how: String) -> String {
            "median \(Bench.ms(median)), p99 \(Bench.ms(p99)), max \(Bench.ms(worst)) (\(count) \(how))"
        }

        var values: [String: Double] { ["medianSeconds": median, "p99Seconds": p99, "maxSeconds": worst] }
    }

    // MARK: Measuring

    /// Both apps' moves, in turns (`MoversInTurns`).
    static func measure() async -> (native: Result<Run, Error>, xwayland: Result<Run, Error>) {
        let results = await MoversInTurns.measure([.wayland, .x11], warmUp: warmUpMoves, moves: moves) {
            try await WestonMover.start($0)
        }
        return (results[.wayland]!, results[.x11]!)
    }
}

/// One app under its weston, moved as the Xorg row moves it: one finger down on the canvas and 40 px along (past
/// the tap slop, so the line in progress is drawn), then moves of 3 px back and forth along a row, each timed to
/// the app's frame and, on Wayland, to the compositor's feedback that the frame was shown.
struct WestonMover: TurnTakingMover {
    let backend: WestonAppSession.Backend
    var key: WestonAppSession.Backend { backend }
    func stop() { session.stop() }
    let session: WestonAppSession
    private(set) var run: WaylandLatency.Run
    private var finger: TraceFinger
    private let y: Double
    private let start: Double
    /// The ordinal the next move's frame must have for the `frame shown` after it to be that frame's own: no other
    /// frame may have been drawn since the last one whose feedback came (one replaced before the compositor's
    /// repaint is never shown, and the app does not print the feedback's discarding).
    private var expectedOrdinal: Int

    /// Opens the app, waits for its tiles, puts the finger down and draws the first 40 px.
    static func start(_ backend: WestonAppSession.Backend) async throws -> WestonMover {
        let session = try await WestonAppSession.launch(
            backend: backend, lineCount: WaylandLatency.lineCount, extraArguments: ["--trace-frames"])
        do {
            var finger = TraceFinger(device: session.server.input, trace: AppTrace(app: session.app))
            _ = try await finger.trace.tilesComplete()
            let y = Double(session.server.height) / 2
            let begin = Double(session.server.width) / 4
            try finger.post(.begin, id: 1, x: begin, y: y)
            let first = try await finger.sendForFrame(.update, id: 1, x: begin + 40, y: y).frame
            try await Task.sleep(for: WaylandLatency.settleTime)
            return WestonMover(
                backend: backend, session: session, run: WaylandLatency.Run(width: first.width, height: first.height),
                finger: finger, y: y, start: begin + 40, expectedOrdinal: finger.trace.framesSoFar())
        } catch {
            session.stop()
            throw error
        }
    }

    /// Move number `move`: sends it, waits for its frame (and, on Wayland, the frame shown), records the times
    /// when `measured`, then lets the quiet time after it pass.
    mutating func move(_ move: Int, measured: Bool) async throws {
        let clock = ContinuousClock()
        let began = clock.now
        let step = move % 400
        let x = start + 3 * Double(step < 200 ? step : 400 - step)
        let (sent, posted, frame) = try await finger.sendForFrame(.update, id: 1, x: x, y: y)
        // One touch event in, one counted: else (a server that made more of a move) a frame drawn before the move
        // could pass for its frame.
        guard frame.touches == finger.sent else {
            throw EndToEndLatency.Failure(
                description: "the \(backend.rawValue) app counted \(frame.touches) touch events for the \(finger.sent) "
                    + "sent")
        }
        if measured { run.record(frame, sent: sent, posted: posted) }
        if backend == .wayland {
            let shown = try await finger.trace.shown(after: frame)
            if frame.ordinal == expectedOrdinal, shown.framesBefore == frame.ordinal + 1 {
                if measured { run.shown.append(shown.time - sent) }
                expectedOrdinal = frame.ordinal + 1
            } else {
                // Another frame came between: the feedback may be its. Leave this move out and let every feedback
                // in flight arrive before the next.
                if measured { run.unattributed += 1 }
                try await Task.sleep(for: WaylandLatency.settleTime)
                expectedOrdinal = finger.trace.framesSoFar()
            }
        }
        try await Task.sleep(until: began.advanced(by: WaylandLatency.quietTime(after: move)), clock: clock)
    }

    /// The finger up (its line ends).
    mutating func lift() async throws {
        _ = try await finger.send(.end, id: 1, x: start, y: y)
    }
}
