import Foundation
import XorgTestSupport

/// What a person zooming and scrolling a large drawing waits for: the release app under a private Xorg
/// (1920x1080) on 100,000 lines spread over 8 x 8 windows (`Workloads.spreadOverWindows`), its tiles complete;
/// real wheel clicks through the inputtest pointer, with Ctrl held on the inputtest keyboard for a zoom step, and
/// Ctrl+Shift+J to fit the whole drawing, each timed by the app's trace (`--trace-frames` counts the scrolls and
/// touch events each frame includes, and says the zoom). All of it in one session, in this order:
/// 1. scrolling: wheel clicks down, right, up and left, one every `interval`; then a touchpad's two-finger travel,
///    `travelStep` pixels an event every `moveInterval`, down and up;
/// 2. zooming: Ctrl+wheel clicks in and out about the window's centre, one every `interval`, ending at 100 %; then
///    the time from the last one until every tile is sharp;
/// 3. a finger drawing, a move every `moveInterval`, while Ctrl+wheel clicks zoom in and out every `interval`;
/// 4. Ctrl+Shift+J: the whole drawing fitted in the window, a finger drawing at once while the tiles are painted
///    at that zoom; the time until they are; the app's memory then.
struct ZoomSession {
    static let lineCount = 100_000
    /// Wheel clicks (and zoom steps) are sent this far apart, as a hand turning a wheel briskly.
    static let interval = 0.050
    /// A finger's moves while zooming, as a 120 Hz touch screen reports them.
    static let moveInterval = 0.008
    static let clicks = 96
    /// Pixels of a touchpad's travel an event, and events.
    static let travelStep = 5.0
    static let travelEvents = 300
    /// How long a finger draws in steps 3 and 4.
    static let drawingSeconds = 3.0

    var scrollLatencies: [Double] = []
    var travelLatencies: [Double] = []
    var zoomLatencies: [Double] = []
    var zoomRange = (low: 1.0, high: 1.0)
    /// From the last zoom step (back at 100 %) until every tile was sharp.
    var sharpAfterZoom = 0.0
    /// Step 3: each finger move's and each zoom step's time to its frame.
    var fingerWhileZooming: [Double] = []
    var stepsWhileDrawing: [Double] = []
    /// Step 4: the zoom that fits the drawing, Ctrl+Shift+J's time to its frame and to every tile sharp, the finger's
    /// moves meanwhile and the app's memory at the end.
    var fitZoom = 0.0
    var fitFrame = 0.0
    var fitSharp = 0.0
    var fingerZoomedOut: [Double] = []
    var memory = AppMemory.Megabytes(peak: 0, resident: 0, anonymous: 0, sharedMemory: 0, files: 0)

    static func measure() async throws -> ZoomSession {
        let session = try await BenchAppSession.launch(
            lineCount: lineCount, lines: Workloads.spreadOverWindows(lineCount), extraArguments: ["--trace-frames"])
        defer { session.stop() }
        var result = ZoomSession()
        var wheel = try TraceWheel(server: session.server, trace: AppTrace(app: session.app))
        var finger = try TraceFinger(device: session.server.touch, trace: AppTrace(app: session.app))
        _ = try await wheel.trace.tilesComplete()
        try await wheel.point(at: Double(Workloads.width) / 2, Double(Workloads.height) / 2)

        // 1. Down, right, up, left, eight clicks each, over and over.
        for click in 0..<clicks {
            let notch = [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)][click / 8 % 4]
            let sent = try await wheel.send(horizontal: notch.0, vertical: notch.1)
            guard sent.frame.zoom == 1 else { throw failure("a wheel click changed the zoom to \(sent.frame.zoom)") }
            result.scrollLatencies.append(sent.frame.time - sent.start)
            try await pace(from: sent.start, interval)
        }

        // Down and up, 60 events each way (300 pixels), over and over: 625 pixels a second.
        for event in 0..<travelEvents {
            let sent = try await wheel.travel(vertical: event / 60 % 2 == 0 ? travelStep : -travelStep)
            guard sent.frame.zoom == 1 else {
                throw failure("a touchpad's travel changed the zoom to \(sent.frame.zoom)")
            }
            result.travelLatencies.append(sent.frame.time - sent.start)
            try await pace(from: sent.start, moveInterval)
        }

        // 2. Four clicks in, eight out, four in (100 % → 200 % → 50 % → 100 %), over and over.
        var lastStep = (start: 0.0, frame: AppTrace.Frame(time: 0, width: 0, height: 0, touches: 0))
        for click in 0..<clicks {
            let step = click % 16
            lastStep = try await wheel.send(vertical: step < 4 || step >= 12 ? -1 : 1, zoom: true)
            result.zoomLatencies.append(lastStep.frame.time - lastStep.start)
            result.zoomRange = (
                min(result.zoomRange.low, lastStep.frame.zoom), max(result.zoomRange.high, lastStep.frame.zoom)
            )
            try await pace(from: lastStep.start, interval)
        }
        guard lastStep.frame.zoom == 1, result.zoomRange.low < 0.6, result.zoomRange.high > 1.9 else {
            throw failure("the Ctrl+wheel clicks zoomed over \(result.zoomRange), ending at \(lastStep.frame.zoom)")
        }
        result.sharpAfterZoom = try await wheel.trace.tilesComplete(atOrAfter: lastStep.frame.time) - lastStep.start

        // 3. A finger draws back and forth along the bottom while the wheel zooms in twice and out twice, over and over.
        let start = EndToEndLatency.now()
        try finger.post(.begin, id: 1, x: 200, y: 1000)
        var move = 0
        var nextStep = start + interval
        while EndToEndLatency.now() < start + drawingSeconds {
            let moved = EndToEndLatency.now()
            let x = 240 + 3 * Double(move % 200 < 100 ? move % 200 : 200 - move % 200)
            result.fingerWhileZooming.append(try await finger.send(.update, id: 1, x: x, y: 1000))
            move += 1
            if EndToEndLatency.now() >= nextStep {
                let step = result.stepsWhileDrawing.count % 4
                let sent = try await wheel.send(vertical: step < 2 ? -1 : 1, zoom: true)
                result.stepsWhileDrawing.append(sent.frame.time - sent.start)
                nextStep = sent.start + interval
            }
            try await pace(from: moved, moveInterval)
        }
        _ = try await finger.send(.end, id: 1, x: 240, y: 1000)

        // 4. The whole drawing in the window, and a finger drawing there at once.
        let fitStart = try wheel.fitDrawing()
        var fitted = try await wheel.trace.frame(atOrAfter: fitStart, what: "the frame after Ctrl+Shift+J")
        while fitted.zoom >= 0.5 {
            fitted = try await wheel.trace.frame(atOrAfter: fitted.time + 1e-6, what: "the frame fitting the drawing")
        }
        result.fitZoom = fitted.zoom
        result.fitFrame = fitted.time - fitStart
        try finger.post(.begin, id: 2, x: 200, y: 900)
        move = 0
        while EndToEndLatency.now() < fitStart + drawingSeconds {
            let moved = EndToEndLatency.now()
            let x = 240 + 3 * Double(move % 200 < 100 ? move % 200 : 200 - move % 200)
            result.fingerZoomedOut.append(try await finger.send(.update, id: 2, x: x, y: 900))
            move += 1
            try await pace(from: moved, moveInterval)
        }
        _ = try await finger.send(.end, id: 2, x: 240, y: 900)
        result.fitSharp = try await wheel.trace.tilesComplete(atOrAfter: fitted.time) - fitStart
        result.memory = try AppMemory.megabytes(of: session.app)
        return result
    }

    /// Sleeps until `interval` seconds after `start` (at once when that has passed).
    static func pace(from start: Double, _ interval: Double) async throws {
        let left = start + interval - EndToEndLatency.now()
        if left > 0 { try await Task.sleep(for: .microseconds(Int(left * 1e6))) }
    }

    private static func failure(_ description: String) -> EndToEndLatency.Failure {
        EndToEndLatency.Failure(description: description)
    }
}
