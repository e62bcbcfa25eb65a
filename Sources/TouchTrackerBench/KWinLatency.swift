import Foundation
import KWinTestSupport
import XorgTestSupport

/// The rows under KDE's KWin 5.27 (`--only kwin`), from one run: touch move → frame committed at scale 1.5 beside
/// scale 1, and the app's memory holding 100,000 lines at 1.5.
///
/// The two apps run side by side, each under a headless KWin of its own (`kwin_wayland --virtual`, an output of
/// 2000x1200 logical units, so 3000x1800 pixels at 1.5), in a 1920x1080 window (2880x1620 pixels at 1.5), on the
/// 10,000-line document of the Xorg row, and get the same moves through KWin's fake input, in turns: a busy moment
/// of the machine falls on both alike. After each move there is the quiet time of the weston rows.
enum KWinLatency {
    static let lineCount = EndToEndLatency.lineCount
    static let moves = 600
    static let warmUpMoves = 20
    static let targetP99 = 0.002
    static let targetRatio = 1.5
    static let scales = [1.0, 1.5]

    static func rows() async -> [Row] {
        let runs = await measure()
        return scales.map { committedRow(scale: $0, runs[$0]!) } + [comparisonRow(runs[1]!, runs[1.5]!)]
            + [await memoryRow()]
    }

    // MARK: Rows

    static func committedRow(scale: Double, _ run: Result<WaylandLatency.Run, Error>) -> Row {
        let name =
            "KWin 5.27 headless at scale \(scale) (window 1920x1080 units): touch move → frame committed, "
            + "\(lineCount) lines"
        let target = scale == 1 ? "- (for comparison)" : "p99 ≤ \(Int(targetP99 * 1000)) ms (\(moves) moves)"
        switch run {
        case .success(let run):
            let stats = WaylandLatency.Stats(run.committed)
            let delivery = WaylandLatency.Stats(run.delivered)
            let returned = WaylandLatency.Stats(run.sendReturned)
            let appPart = WaylandLatency.Stats(run.appPart)
            return Row(
                name: name,
                figure: stats.figure(warmUp: warmUpMoves) + "; the app's own part (move received → commit sent): "
                    + "median \(Bench.ms(appPart.median)), p99 \(Bench.ms(appPart.p99)); KWin taking the fake input: "
                    + "median \(Bench.ms(delivery.median)), p99 \(Bench.ms(delivery.p99)); to the send's return (KWin "
                    + "handling the commit on the core it woke on): median \(Bench.ms(returned.median)), p99 "
                    + "\(Bench.ms(returned.p99)); buffer \(run.width)x\(run.height)",
                target: target, passed: scale == 1 || stats.p99 <= targetP99,
                values: stats.values.merging([
                    "deliveredMedianSeconds": delivery.median, "deliveredP99Seconds": delivery.p99,
                    "appPartMedianSeconds": appPart.median, "appPartP99Seconds": appPart.p99,
                    "sendReturnedMedianSeconds": returned.median, "sendReturnedP99Seconds": returned.p99,
                ]) { $1 })
        case .failure(let error):
            return notMeasured(name, target, error)
        }
    }

    /// Scale 1.5 against scale 1, move → frame committed.
    static func comparisonRow(
        _ one: Result<WaylandLatency.Run, Error>, _ oneAndHalf: Result<WaylandLatency.Run, Error>
    ) -> Row {
        let name = "KWin: scale 1.5 against scale 1, touch move → frame committed, \(lineCount) lines"
        let target = "median and p99 at most \(targetRatio)× scale 1's"
        guard case .success(let oneRun) = one, case .success(let oneAndHalfRun) = oneAndHalf else {
            return Row(
                name: name, figure: "not measured: needs both runs", target: target, passed: false, values: [:])
        }
        let base = WaylandLatency.Stats(oneRun.committed)
        let scaled = WaylandLatency.Stats(oneAndHalfRun.committed)
        let medianRatio = scaled.median / base.median
        let p99Ratio = scaled.p99 / base.p99
        return Row(
            name: name,
            figure: "median \(Bench.ms(scaled.median)) against \(Bench.ms(base.median)) "
                + "(\(String(format: "%.2f", medianRatio))×), p99 \(Bench.ms(scaled.p99)) against "
                + "\(Bench.ms(base.p99)) (\(String(format: "%.2f", p99Ratio))×)",
            target: target, passed: medianRatio <= targetRatio && p99Ratio <= targetRatio,
            values: ["medianRatio": medianRatio, "p99Ratio": p99Ratio])
    }

    static let memoryTargetMegabytes = 110.0

    /// The app's peak memory holding 100,000 lines at scale 1.5 after a stroke (its 2880x1620-pixel wl_shm buffers
    /// are counted in it).
    static func memoryRow() async -> Row {
        let name =
            "peak memory of the Wayland host holding \(AppMemory.lineCount) lines at scale 1.5 (KWin headless, "
            + "1920x1080-unit window, after a stroke)"
        let target = "< \(Int(memoryTargetMegabytes)) MB"
        do {
            let session = try await KWinAppSession.launch(scale: 1.5, lineCount: AppMemory.lineCount)
            defer { session.stop() }
            let input = session.touch
            try input.post(.begin, id: 1, x: 300, y: 300)
            for step in 1...10 { try input.post(.update, id: 1, x: 300 + 20 * Double(step), y: 300) }
            try input.post(.end, id: 1, x: 500, y: 300)
            let memory = try await AppMemory.megabytesAfterSave(app: session.app, document: session.document)
            return Row(
                name: name,
                figure: String(
                    format: "%.1f MB peak (%.1f MB resident at the end: %.1f MB anonymous, %.1f MB shared memory, "
                        + "%.1f MB files)", memory.peak, memory.resident, memory.anonymous, memory.sharedMemory,
                    memory.files),
                target: target, passed: memory.peak < memoryTargetMegabytes,
                values: [
                    "peakMegabytes": memory.peak, "residentMegabytes": memory.resident,
                    "anonymousMegabytes": memory.anonymous, "sharedMemoryMegabytes": memory.sharedMemory,
                    "fileMegabytes": memory.files,
                ])
        } catch {
            return notMeasured(name, target, error)
        }
    }

    /// A row that could not run (no root, no KWin, no release `touchtracker`), saying why.
    private static func notMeasured(_ name: String, _ target: String, _ error: Error) -> Row {
        let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        return Row(
            name: name, figure: "not measured: \(reason.prefix(240))", target: target, passed: false, values: [:])
    }

    // MARK: Measuring

    /// Both apps' moves, in turns (`MoversInTurns`).
    static func measure() async -> [Double: Result<WaylandLatency.Run, Error>] {
        await MoversInTurns.measure(scales, warmUp: warmUpMoves, moves: moves) { try await KWinMover.start(scale: $0) }
    }
}

/// One app under its KWin, moved as the weston rows move it: one finger down on the canvas and 40 units along
/// (past the tap slop), then moves of 3 units back and forth along a row, each timed to the app's frame.
struct KWinMover: TurnTakingMover {
    let scale: Double
    var key: Double { scale }
    func stop() { session.stop() }
    let session: KWinAppSession
    private(set) var run: WaylandLatency.Run
    private var finger: TraceFinger
    private let y: Double
    private let start: Double

    static func start(scale: Double) async throws -> KWinMover {
        let session = try await KWinAppSession.launch(
            scale: scale, lineCount: KWinLatency.lineCount, extraArguments: ["--trace-frames"])
        do {
            var finger = TraceFinger(device: session.touch, trace: AppTrace(app: session.app))
            _ = try await finger.trace.tilesComplete()
            let y = 540.0
            let begin = 480.0
            try finger.post(.begin, id: 1, x: begin, y: y)
            let first = try await finger.sendForFrame(.update, id: 1, x: begin + 40, y: y).frame
            try await Task.sleep(for: WaylandLatency.settleTime)
            return KWinMover(
                scale: scale, session: session, run: WaylandLatency.Run(width: first.width, height: first.height),
                finger: finger, y: y, start: begin + 40)
        } catch {
            session.stop()
            throw error
        }
    }

    mutating func move(_ move: Int, measured: Bool) async throws {
        let clock = ContinuousClock()
        let began = clock.now
        let step = move % 400
        let x = start + 3 * Double(step < 200 ? step : 400 - step)
        let (sent, posted, frame) = try await finger.sendForFrame(.update, id: 1, x: x, y: y)
        // One touch event in, one counted: else a frame drawn before the move could pass for its frame.
        guard frame.touches == finger.sent else {
            throw EndToEndLatency.Failure(
                description: "the app at scale \(scale) counted \(frame.touches) touch events for the \(finger.sent) "
                    + "sent")
        }
        if measured { run.record(frame, sent: sent, posted: posted) }
        try await Task.sleep(until: began.advanced(by: WaylandLatency.quietTime(after: move)), clock: clock)
    }

    mutating func lift() async throws {
        _ = try await finger.send(.end, id: 1, x: start, y: y)
    }
}

/// KWin's fake input as a `TraceFinger`'s source, in one window's logical coordinates: each event goes in a touch
/// frame of its own, and `post` returns once KWin has handled it (a roundtrip of the fake-input client).
struct KWinWindowTouch: TouchSource {
    let input: KWinInput
    let origin: (x: Double, y: Double)

    func post(_ phase: TraceFinger.Phase, id: UInt32, x: Double, y: Double) throws {
        switch phase {
        case .begin: try input.touchDown(id: Int(id), x: origin.x + x, y: origin.y + y)
        case .update: try input.touchMotion(id: Int(id), x: origin.x + x, y: origin.y + y)
        case .end: try input.touchUp(id: Int(id))
        }
        try input.touchFrame()
        try input.sync()
    }
}

/// The release `touchtracker` under a private headless KWin at `scale` (an output of 2000x1200 logical units), in a
/// 1920x1080 window, opened on a document of random lines. Call `stop()` when done.
struct KWinAppSession {
    let server: KWinServer
    let app: AppProcess
    let document: URL
    /// The touch source in the window's logical coordinates.
    let touch: KWinWindowTouch
    private let directory: String

    static func launch(scale: Double, lineCount: Int, extraArguments: [String] = []) async throws -> KWinAppSession {
        let executable = try AppProcess.locateExecutable()
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw EndToEndLatency.Failure(description: "\(executable.path) is not an executable")
        }
        // One folder per scale: the two apps run side by side, and a second app on the same document would hand it
        // over to the first (one owner per document) and exit.
        let directory = NSTemporaryDirectory() + "touchtracker-bench-kwin-\(scale)-\(getpid())"
        var cleanUp: [() -> Void] = [{ try? FileManager.default.removeItem(atPath: directory) }]
        do {
            let document = try BenchAppSession.writeDocument(in: directory, lineCount: lineCount)
            let server = try await KWinServer.start(width: 2000, height: 1200, scale: scale)
            cleanUp.append { server.stop() }
            var environment: [String: String?] = server.environment.mapValues { $0 }
            environment["DISPLAY"] = .some(nil)
            let app = try AppProcess(
                arguments: [
                    "--backend", "wayland", "--document", document.path, "--verbose", "--geometry",
                    "\(Workloads.width)x\(Workloads.height)",
                ] + extraArguments,
                environment: environment)
            cleanUp.append { app.stop() }
            try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(60))
            let window = try await server.waitForWindow("the app's window shown and active", timeout: .seconds(30)) {
                $0.pid == app.pid && $0.active && $0.client.width > 0
            }
            return KWinAppSession(
                server: server, app: app, document: document,
                touch: KWinWindowTouch(input: server.input, origin: (window.client.x, window.client.y)),
                directory: directory)
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
