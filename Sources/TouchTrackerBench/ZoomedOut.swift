import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender

/// The zoomed-out rows: a large drawing fitted into a 1920x1080 window, where most lines are a few pixels long and
/// thinner than one, and the time from the first frame until every tile is painted sharp by two painter threads.
enum ZoomedOut {
    /// How many windows wide and high the drawing is: the responsiveness rows' lines (20 to 400 units, in every
    /// direction) with their starts spread over 20 x 20 windows, so the drawing fits at a scale near 0.05, the
    /// middle of what fitting a large drawing asks for (0.02 to 0.1).
    static let spread = 20.0
    static let painterThreads = 2
    static let targetSeconds = 2.0

    static func rows() throws -> [Row] {
        try [100_000, 1_000_000].map(row)
    }

    /// The drawing of `count` lines: `Workloads.spreadLines`, each line's start moved out `spread` times as far
    /// from the window's corner, its length and direction kept.
    static func drawing(_ count: Int) -> Drawing {
        Drawing(
            lines: Workloads.spreadLines(count).map { line in
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

    static func row(_ count: Int) throws -> Row {
        let (width, height) = (Workloads.width, Workloads.height)
        let drawing = drawing(count)
        let probe = DrawingView(frame: Rect(x: 0, y: 0, width: 1, height: 1), drawing: drawing)
        let scale = fittingScale(probe, width: width, height: height)
        let frame = Rect(x: 0, y: 0, width: Double(width) / scale, height: Double(height) / scale)
        func sharp(levelOfDetail: Bool) throws -> (seconds: Double, complete: Bool, tiles: Int) {
            let view = DrawingView(frame: frame, drawing: drawing)
            let renderer = try DrawingRenderer(
                width: width, height: height, scale: scale, painterThreads: painterThreads)
            renderer.levelOfDetail = levelOfDetail
            let start = Measure.now()
            _ = renderer.frame(for: view)
            let complete = renderer.waitUntilTilesComplete(for: view, timeout: 120)
            let seconds = Double(Measure.now() - start) / 1e9
            return (seconds, complete, renderer.tilesPainted)
        }
        // Every shape stroked by Cairo, as before the tiles had a level of detail: the same drawing, in the same run.
        let cairo = try sharp(levelOfDetail: false)
        let result = try sharp(levelOfDetail: true)
        let peak = peakMegabytes()
        let target = count == 1_000_000 ? "≤ \(Int(targetSeconds)) s" : "-"
        return Row(
            name: "zoomed out to the whole drawing: every tile sharp, \(count) lines",
            figure: String(
                format: "%.3f s (Cairo stroking every shape: %.3f s; scale %.4f, %d tiles, %d painters; this "
                    + "process's peak memory %.0f MB)",
                result.seconds, cairo.seconds, scale, result.tiles, painterThreads, peak),
            target: target,
            passed: result.complete && (count != 1_000_000 || result.seconds <= targetSeconds),
            values: [
                "seconds": result.seconds, "cairoSeconds": cairo.seconds, "scale": scale, "peakMegabytes": peak,
            ])
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
