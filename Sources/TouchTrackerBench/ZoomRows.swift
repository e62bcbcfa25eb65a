import Foundation

/// The zoom group's rows (`--only zoom`): a zoom step's and a scroll's frame, sharp after zooming and after fitting
/// a million lines, memory and the worst wait zoomed out, from `ZoomSession` and `FitWholeDrawing`; and Ctrl+wheel
/// zoom steps in Xournal++ beside this app (`XournalComparison`).
enum ZoomRows {
    static let zoomStepP99Target = 0.008
    static let scrollP99Target = 0.004
    static let sharpAfterZoomTarget = 0.5
    static let sharpAtFitTarget = 2.0
    static let memoryTarget = 150.0
    static let worstWaitTarget = 0.008

    static func rows() async -> [Row] {
        var rows: [Row] = []
        let drawing = "\(ZoomSession.lineCount) lines over 8 x 8 windows"
        do {
            rows += sessionRows(try await ZoomSession.measure(), drawing: drawing)
        } catch {
            rows.append(notMeasured("zoom and scroll, \(drawing)", error))
        }
        do {
            rows.append(fitRow(try await FitWholeDrawing.measure()))
        } catch {
            rows.append(notMeasured("fit the whole drawing, \(FitWholeDrawing.lineCount) lines", error))
        }
        do {
            rows += xournalRows(try await XournalComparison.measure())
        } catch {
            rows.append(notMeasured("Ctrl+wheel zoom step against Xournal++", error))
        }
        return rows
    }

    static func sessionRows(_ session: ZoomSession, drawing: String) -> [Row] {
        let whileZooming = (session.fingerWhileZooming.max() ?? .nan, session.stepsWhileDrawing.max() ?? .nan)
        let zoomedOut = session.fingerZoomedOut.max() ?? .nan
        let memory = session.memory
        let range = String(format: "%.0f–%.0f %%", session.zoomRange.low * 100, session.zoomRange.high * 100)
        return [
            p99Row(
                name: "a zoom step's frame: Ctrl+wheel click → frame presented, \(drawing), 1920x1080",
                samples: session.zoomLatencies, how: "clicks 50 ms apart, \(range)", target: zoomStepP99Target),
            p99Row(
                name: "a scroll frame: wheel click → frame presented, \(drawing), 1920x1080",
                samples: session.scrollLatencies, how: "clicks of 60 units 50 ms apart, down, right, up, left",
                target: scrollP99Target),
            p99Row(
                name: "a scroll frame: a touchpad's two-finger travel → frame presented, \(drawing), 1920x1080",
                samples: session.travelLatencies,
                how: "events of \(Int(ZoomSession.travelStep)) px 8 ms apart, down and up", target: scrollP99Target),
            Row(
                name: "sharp after the zoom ends: the last Ctrl+wheel click (back at 100 %) → every tile painted, "
                    + drawing,
                figure: String(format: "%.3f s", session.sharpAfterZoom),
                target: String(format: "≤ %.1f s", sharpAfterZoomTarget),
                passed: session.sharpAfterZoom <= sharpAfterZoomTarget, values: ["seconds": session.sharpAfterZoom]),
            Row(
                name: "peak memory of the app zoomed out to the whole drawing (Ctrl+Shift+J), \(drawing)",
                figure: String(
                    format: "%.1f MB peak (%.1f MB resident: %.1f MB anonymous, %.1f MB shared memory, %.1f MB files); "
                        + "zoom %.1f %%, every tile sharp %.3f s after Ctrl+Shift+J (its frame after %@)",
                    memory.peak, memory.resident, memory.anonymous, memory.sharedMemory, memory.files,
                    session.fitZoom * 100, session.fitSharp, Bench.ms(session.fitFrame)),
                target: "≤ \(Int(memoryTarget)) MB", passed: memory.peak <= memoryTarget,
                values: [
                    "peakMegabytes": memory.peak, "residentMegabytes": memory.resident, "zoom": session.fitZoom,
                    "fitSharpSeconds": session.fitSharp, "fitFrameSeconds": session.fitFrame,
                ]),
            Row(
                name: "worst wait while zooming: a finger's move → frame, and a Ctrl+wheel click's, both at once, "
                    + drawing,
                figure: "finger worst \(Bench.ms(whileZooming.0)) (median "
                    + "\(Bench.ms(Measure.median(session.fingerWhileZooming))), \(session.fingerWhileZooming.count) "
                    + "moves 8 ms apart); zoom steps worst \(Bench.ms(whileZooming.1)) "
                    + "(\(session.stepsWhileDrawing.count))",
                target: "worst ≤ \(Bench.ms(worstWaitTarget))",
                passed: max(whileZooming.0, whileZooming.1) <= worstWaitTarget,
                values: ["fingerWorstSeconds": whileZooming.0, "zoomStepWorstSeconds": whileZooming.1]),
            Row(
                name: "worst wait zoomed out to the whole drawing: a finger's move → frame from Ctrl+Shift+J on, while "
                    + "the tiles are painted, \(drawing)",
                figure: "worst \(Bench.ms(zoomedOut)), median \(Bench.ms(Measure.median(session.fingerZoomedOut))) "
                    + "(\(session.fingerZoomedOut.count) moves 8 ms apart)",
                target: "worst ≤ \(Bench.ms(worstWaitTarget))", passed: zoomedOut <= worstWaitTarget,
                values: ["worstSeconds": zoomedOut, "medianSeconds": Measure.median(session.fingerZoomedOut)]),
        ]
    }

    static func fitRow(_ fit: FitWholeDrawing) -> Row {
        Row(
            name: "sharp at \"fit the whole drawing\": Ctrl+Shift+J → every tile painted, "
                + "\(FitWholeDrawing.lineCount) lines over 8 x 8 windows",
            figure: String(
                format: "%.3f s (zoom %.1f %%, its first frame after %@; peak memory %.0f MB)", fit.sharp,
                fit.zoom * 100, Bench.ms(fit.frame), fit.memory.peak),
            target: String(format: "≤ %.0f s", sharpAtFitTarget), passed: fit.sharp <= sharpAtFitTarget,
            values: [
                "seconds": fit.sharp, "frameSeconds": fit.frame, "zoom": fit.zoom, "peakMegabytes": fit.memory.peak,
            ])
    }

    static func xournalRows(
        _ pairs: (drawing: XournalComparison.Pair, baseline: XournalComparison.Pair)
    ) -> [Row] {
        let lines = "\(XournalComparison.lineCount) lines"
        func describe(_ result: XournalComparison.Clicks) -> (figure: String, median: Double, p99: Double) {
            let first = WaylandLatency.Stats(result.firstChange)
            let settled = Measure.median(result.settled)
            let pixels = Measure.median(result.pixels) / Double(Workloads.width * Workloads.height)
            return (
                "median \(Bench.ms(first.median)), p99 \(Bench.ms(first.p99)); still again after "
                    + "\(Bench.ms(settled)) (median; \(String(format: "%.1f", pixels)) windows of pixels changed)",
                first.median, first.p99
            )
        }
        let xournal = describe(pairs.drawing.xournal)
        let app = describe(pairs.drawing.app)
        let traced = WaylandLatency.Stats(pairs.drawing.app.traced)
        let ratio = (median: app.median / xournal.median, p99: app.p99 / xournal.p99)
        let baseline = (xournal: describe(pairs.baseline.xournal), app: describe(pairs.baseline.app))
        let version = xournalVersion()
        return [
            Row(
                name: "Xournal++ \(version): Ctrl+wheel zoom step → first change of its window (XDamage), \(lines), "
                    + "1920x1080",
                figure: xournal.figure + " (\(pairs.drawing.xournal.firstChange.count) clicks)",
                target: "for comparison", passed: true,
                values: ["medianSeconds": xournal.median, "p99Seconds": xournal.p99]),
            Row(
                name: "this app: Ctrl+wheel zoom step → first change of its window (XDamage), \(lines), 1920x1080",
                figure: app.figure + "; its own trace: median \(Bench.ms(traced.median)), p99 \(Bench.ms(traced.p99))",
                target: "for comparison", passed: true,
                values: [
                    "medianSeconds": app.median, "p99Seconds": app.p99, "tracedMedianSeconds": traced.median,
                    "tracedP99Seconds": traced.p99,
                ]),
            Row(
                name: "this app against Xournal++ \(version): Ctrl+wheel zoom step → first change, \(lines)",
                figure: String(format: "median %.3f×, p99 %.3f×", ratio.median, ratio.p99),
                target: "for comparison", passed: true, values: ["medianRatio": ratio.median, "p99Ratio": ratio.p99]),
            Row(
                name: "the same with \(XournalComparison.baselineCount) lines: Ctrl+wheel zoom step → first change",
                figure: "Xournal++ median \(Bench.ms(baseline.xournal.median)), p99 \(Bench.ms(baseline.xournal.p99)); "
                    + "this app median \(Bench.ms(baseline.app.median)), p99 \(Bench.ms(baseline.app.p99))",
                target: "for comparison", passed: true,
                values: [
                    "xournalMedianSeconds": baseline.xournal.median, "xournalP99Seconds": baseline.xournal.p99,
                    "appMedianSeconds": baseline.app.median, "appP99Seconds": baseline.app.p99,
                ]),
        ]
    }

    /// A row of frame latencies held to a p99 target: the median, p99 and max of `samples`, then how many and how
    /// they were made.
    private static func p99Row(name: String, samples: [Double], how: String, target: Double) -> Row {
        let stats = WaylandLatency.Stats(samples)
        return Row(
            name: name, figure: stats.figure(how), target: "p99 ≤ \(Bench.ms(target))", passed: stats.p99 <= target,
            values: stats.values)
    }

    /// The installed xournalpp's Debian version.
    static func xournalVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
        process.arguments = ["-W", "-f=${Version}", "xournalpp"]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    private static func notMeasured(_ name: String, _ error: Error) -> Row {
        let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
        return Row(name: name, figure: "not measured: \(reason.prefix(240))", target: "-", passed: false, values: [:])
    }
}
