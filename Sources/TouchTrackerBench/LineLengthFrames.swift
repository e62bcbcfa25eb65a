import TouchKit
import TouchTracker
import TouchTrackerRender

extension Bench {
    /// The app's own part of the long-line row, without the X server: one move and its frame (the pixels it
    /// redraws, ready to present) for a line corner to corner across a 1920x1080 canvas of 1,000 lines, against a
    /// 40 px line held at the same time, their moves alternating as in the end-to-end row.
    static func lineLengthFrameRow() throws -> Row {
        let controller = DrawingController(
            size: Size(width: 1920, height: 1080), drawing: Drawing(lines: Workloads.randomLines(1_000)))
        let renderer = try DrawingRenderer(width: 1920, height: 1080)
        _ = renderer.frame(for: controller.drawingView)
        let long = (id: UInt64(1), begin: Point(x: 15, y: 15), end: Point(x: 1905, y: 1065))
        let short = (id: UInt64(2), begin: Point(x: 900, y: 500), end: Point(x: 940, y: 500))
        var time = 0.0
        func send(_ id: UInt64, _ phase: TouchInput.Phase, _ point: Point) -> Double {
            time += 0.004
            let start = Measure.now()
            controller.send(TouchInput(id: id, phase: phase, location: point, timestamp: time))
            _ = renderer.frame(for: controller.drawingView)
            return Double(Measure.now() - start) / 1e9
        }
        for finger in [long, short] {
            _ = send(finger.id, .began, finger.begin)
            _ = send(finger.id, .moved, finger.end)
        }
        var longSamples: [Double] = []
        var shortSamples: [Double] = []
        for move in 0..<1_020 {
            let wiggle = Double(move % 2 == 0 ? 3 : 0)
            let longSeconds = send(long.id, .moved, Point(x: long.end.x - wiggle, y: long.end.y))
            let shortSeconds = send(short.id, .moved, Point(x: short.end.x - wiggle, y: short.end.y))
            if move >= 20 {
                longSamples.append(longSeconds)
                shortSamples.append(shortSeconds)
            }
        }
        let longMedian = Measure.median(longSamples)
        let shortMedian = Measure.median(shortSamples)
        return Row(
            name: "the app's move + frame (no X server) of a line across a 1920x1080 canvas against a 40 px line",
            figure:
                "\(ms(longMedian)) against \(ms(shortMedian)) (\(String(format: "%.2f", longMedian / shortMedian))×)",
            target: "for comparison", passed: true,
            values: ["longSeconds": longMedian, "shortSeconds": shortMedian])
    }
}
