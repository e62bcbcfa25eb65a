import Foundation
import Glibc
import TouchTracker
import XorgTestSupport

/// The peer: Debian's Xournal++ (`xournalpp`, `make bench` installs it) and this app, one after the other under one
/// private Xorg (1920x1080, no window manager), each in a window the size of the screen on the same 10,000 lines
/// (`Workloads.spreadLines`, 10 units wide; for Xournal++ a `.xopp` of as many two-point pen strokes). The same
/// Ctrl+wheel clicks (inputtest keyboard and pointer) zoom each in and out about the middle of the drawing; each
/// click is sent once the window has been still for `quiet`, and timed to the first change of the window's pixels
/// the X server reports after it (`WindowDamage`): Xournal++ prints no trace, so both are timed alike. This app's
/// own trace times its frames as well, to show what the damage adds.
enum XournalComparison {
    static let lineCount = 10_000
    static let steps = 32
    /// How long a window must have shown no change before the next click: its sharp repaint after the last one
    /// done, so the next change reported is the click's.
    static let quiet = 0.150

    /// One program's clicks: each one's time to the first damage and to the last before the window was still,
    /// and the damaged pixels in between.
    struct Clicks {
        var firstChange: [Double] = []
        var settled: [Double] = []
        var pixels: [Double] = []
        /// This app's trace: each click's time to its frame presented.
        var traced: [Double] = []
    }

    /// Both programs' clicks on `lineCount` lines, and on `baselineCount` (what a zoom step costs each with next
    /// to nothing to draw).
    static func measure() async throws -> (drawing: Pair, baseline: Pair) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xournalpp") else {
            throw EndToEndLatency.Failure(
                description: "no /usr/bin/xournalpp (Debian's xournalpp; make bench installs it)")
        }
        let directory = NSTemporaryDirectory() + "touchtracker-bench-xournal-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await XorgServer.start(screenSize: (Workloads.width, Workloads.height))
        defer { server.stop() }
        let drawing = try await pair(lineCount, server: server, directory: directory + "/\(lineCount)")
        let baseline = try await pair(baselineCount, server: server, directory: directory + "/\(baselineCount)")
        return (drawing, baseline)
    }

    typealias Pair = (xournal: Clicks, app: Clicks)
    static let baselineCount = 10

    private static func pair(_ count: Int, server: XorgServer, directory: String) async throws -> Pair {
        try FileManager.default.createDirectory(atPath: directory + "/home", withIntermediateDirectories: true)
        let lines = Workloads.spreadLines(count)
        let xopp = directory + "/drawing.xopp"
        try XournalDocument.write(lines, to: xopp, width: Workloads.width, height: Workloads.height, lineWidth: 10)
        let xournal = try await xournalClicks(server: server, document: xopp, home: directory + "/home")
        let document = try BenchAppSession.writeDocument(in: directory + "/app", lineCount: count, lines: lines)
        let app = try AppProcess(
            display: server.display, document: document, geometry: (server.width, server.height, 0, 0),
            extraArguments: ["--trace-frames"])
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(30))
        var trace = AppTrace(app: app)
        // Not `tilesComplete`: a few lines are painted before the frame after the document's is drawn, and the
        // trace says "tiles complete" only when they were not at the frame before. The clicks wait for the window
        // to be still.
        _ = try await trace.documentRead()
        guard let window = app.windowID else { throw EndToEndLatency.Failure(description: "no window id from the app") }
        return (xournal, try await clicks(server: server, window: window, trace: trace))
    }

    private static func xournalClicks(server: XorgServer, document: String, home: String) async throws -> Clicks {
        var environment = ["PATH": "/usr/bin:/bin", "DISPLAY": server.display, "HOME": home, "GDK_BACKEND": "x11"]
        // No accessibility bus to look for, and no session bus to start.
        environment["NO_AT_BRIDGE"] = "1"
        let xournal = try ChildProcess(
            executable: "/usr/bin/xournalpp", arguments: [document], environment: environment)
        defer { _ = xournal.stop() }
        let window = try await waitForValue("the Xournal++ window", timeout: .seconds(30), poll: .milliseconds(100)) {
            guard xournal.isRunning else {
                throw EndToEndLatency.Failure(
                    description: "xournalpp exited: \(String(decoding: xournal.stderr, as: UTF8.self).suffix(400))")
            }
            return try WindowDamage.topLevelWindows(display: server.display).first
        }
        try server.resizeWindow(window, width: server.width, height: server.height)
        // Its document read and drawn at the new size.
        try await Task.sleep(for: .seconds(3))
        return try await clicks(server: server, window: window, trace: nil)
    }

    /// Four clicks in, eight out, four in, over and over, with the pointer over the middle of the drawing.
    private static func clicks(server: XorgServer, window: UInt, trace: AppTrace?) async throws -> Clicks {
        let damage = try WindowDamage(display: server.display, window: window)
        defer { damage.stop() }
        let pointer = try server.pointer
        let keyboard = try server.keyboard
        var trace = trace
        try pointer.moveTo(x: Double(server.width) / 2, y: Double(server.height) / 2 + 40)
        try pointer.sync()
        // Opened: the whole drawing painted.
        _ = try await damage.quiet(for: 0.5, since: EndToEndLatency.now(), timeout: 30)
        var result = Clicks()
        for step in 0..<steps {
            // Still for `quiet` from now on, not only since the last step's last change: Xournal++ renders its pages
            // on threads of its own, and a page finished late would pass for the next step's first change (without
            // this wait its median zoom step measured 22 ms, against ~110 ms with it).
            _ = try await damage.quiet(for: quiet, since: EndToEndLatency.now(), timeout: 20)
            try keyboard.keyDown(keycode: TraceWheel.controlKey)
            try keyboard.sync()
            let start = EndToEndLatency.now()
            try pointer.scroll(vertical: (step % 16 < 4 || step % 16 >= 12 ? -1 : 1) * TraceWheel.click)
            let first = try await waitForValue(
                "a change of the window after zoom step \(step)", timeout: .seconds(5), poll: .microseconds(500)
            ) { damage.seen(atOrAfter: start).first }
            if var known = trace {
                let frame = try await known.frame(scrolls: step + 1, what: "the frame of zoom step \(step)")
                result.traced.append(frame.time - start)
                known.forget(before: frame.time)
                trace = known
            }
            try keyboard.keyUp(keycode: TraceWheel.controlKey)
            let last = try await damage.quiet(for: quiet, since: start, timeout: 20) ?? first.time
            result.firstChange.append(first.time - start)
            result.settled.append(last - start)
            let changed = damage.seen(atOrAfter: start).filter { $0.time <= last }
            result.pixels.append(Double(changed.map(\.area).reduce(0, +)))
        }
        return result
    }
}
