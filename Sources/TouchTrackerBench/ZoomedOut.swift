import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender

/// The zoomed-out rows: a large drawing fitted into a 1920x1080 window, and the time from the first frame until
/// every tile is painted sharp by two painter threads, with Cairo stroking every shape and with the tiles' level of
/// detail (strokes whose shape a tile cannot show laid in as ink), measured one after the other in the same run.
enum ZoomedOut {
    /// How many windows wide and high the drawing is: `Workloads.randomLines` with their starts spread over 20 x 20
    /// windows, so the drawing fits at a scale near 0.05, the middle of what fitting a large drawing asks for
    /// (0.02 to 0.1).
    static let spread = 20.0
    static let painterThreads = 2
    static let targetSeconds = 2.0

    /// Short strokes (hatching, handwriting: 4 to 20 units, 0.2 to 1 px at this scale), where most lines are
    /// shorter than a pixel; and the responsiveness rows' lines (20 to 400 units, 1 to 20 px). The default pen is
    /// 0.5 px at this scale, so both are hairlines, laid in as ink.
    static let lengths: [(name: String, units: ClosedRange<Double>)] = [
        ("strokes of 4 to 20 units", 4...20), ("lines of 20 to 400 units", 20...400),
    ]

    static func rows() throws -> [Row] {
        var rows: [Row] = []
        for (name, units) in lengths {
            for count in [100_000, 1_000_000] { rows.append(try row(count, name: name, lengths: units)) }
        }
        return rows
    }

    /// The drawing of `count` lines of `lengths` units: `Workloads.randomLines`, each line's start moved out
    /// `spread` times as far from the window's corner, its length and direction kept.
    static func drawing(_ count: Int, lengths: ClosedRange<Double>) -> Drawing {
        Drawing(
            lines: Workloads.randomLines(count, seed: 13, length: lengths).map { line in
                line.translated(by: line.begin * (spread - 1))
            })
    }

    /// Pixels per unit that fit every stroke of `view` into a `width` x `height` window.
    static func fittingScale(_ view: DrawingView, width: Int, height: Int) -> Double {
        var bounds = Rect.null
        for id in view.shapes.order {
            bounds = bounds.union(view.shapes[id]!.strokeBounds(defaultWidth: view.lineWidth))
        }
        return min(Double(width) / bounds.maxX, Double(height) / bounds.maxY)
    }

    static func row(_ count: Int, name: String, lengths: ClosedRange<Double>) throws -> Row {
        let (width, height) = (Workloads.width, Workloads.height)
        let drawing = drawing(count, lengths: lengths)
        let probe = DrawingView(frame: Rect(x: 0, y: 0, width: 1, height: 1), drawing: drawing)
        let scale = fittingScale(probe, width: width, height: height)
        let frame = Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        // Every view and renderer lives until both are measured: a million shapes' teardown, on whichever thread
        // lets go last, is not painting.
        var kept: [AnyObject] = []
        defer { withExtendedLifetime(kept) {} }
        func sharp(levelOfDetail: Bool) throws -> (seconds: Double, processor: Double, complete: Bool) {
            let view = DrawingView(frame: frame, drawing: drawing)
            let renderer = try DrawingRenderer(
                width: width, height: height, scale: scale, painterThreads: painterThreads)
            renderer.levelOfDetail = levelOfDetail
            let start = (Measure.now(), processorSeconds())
            _ = renderer.frame(for: view)
            let complete = renderer.waitUntilTilesComplete(for: view, timeout: 120)
            let seconds = Double(Measure.now() - start.0) / 1e9
            kept += [view, renderer]
            return (seconds, processorSeconds() - start.1, complete)
        }
        // Every shape stroked by Cairo, as before the tiles had a level of detail: the same drawing, in the same run.
        let cairo = try sharp(levelOfDetail: false)
        let result = try sharp(levelOfDetail: true)
        let peak = peakMegabytes()
        return Row(
            name: "zoomed out to the whole drawing: every tile sharp, \(count) \(name)",
            figure: String(
                format: "%.3f s, %.2f s of processor (Cairo stroking every shape: %.3f s, %.2f s of processor); "
                    + "scale %.4f, %d painters; this process's peak memory %.0f MB",
                result.seconds, result.processor, cairo.seconds, cairo.processor, scale, painterThreads, peak),
            target: count == 1_000_000 ? "≤ \(Int(targetSeconds)) s" : "-",
            passed: result.complete && (count != 1_000_000 || result.seconds <= targetSeconds),
            values: [
                "seconds": result.seconds, "processorSeconds": result.processor, "cairoSeconds": cairo.seconds,
                "cairoProcessorSeconds": cairo.processor, "scale": scale, "peakMegabytes": peak,
            ])
    }

    /// Processor time this process has used, every thread's (the painters' most of it while tiles are painted):
    /// on a machine shared with other work, what the painting cost apart from waiting for a processor.
    static func processorSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// This process's peak resident memory (VmHWM), in MB; NaN where /proc does not say.
    static func peakMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.filter(\.isNumber))
        else { return .nan }
        return kilobytes / 1024
    }
}
