import Foundation
import SeededRandom
import Testing
import XorgTestSupport

/// `make soak`: random touches through the real X server for `TOUCHTRACKER_SOAK_SECONDS` (not part of `make test`).
/// Reports the events handled and the app's resident memory after a warm-up and at the end; memory must stay flat
/// (growth under 5 %).
@Suite("Soak")
struct SoakTests {
    static let seconds = ProcessInfo.processInfo.environment["TOUCHTRACKER_SOAK_SECONDS"].flatMap(Double.init)

    @Test(
        "random touches for the configured time keep the app's memory flat (under 5 % growth after warm-up)",
        .enabled(if: seconds != nil, "set TOUCHTRACKER_SOAK_SECONDS (make soak)"))
    func soak() async throws {
        let duration = try #require(Self.seconds)
        let session = try await AppSession.launch(frame: .init(x: 0, y: 0, width: 800, height: 600))
        defer { session.stop() }
        let touch = try session.server.touch
        let keyboard = try session.server.keyboard
        var random = SplitMix64(seed: 0x50A4)
        var events = 0
        var confirmedEvents = 0
        var strokes = 0
        var clears = 0
        var retriedClears = 0
        let clock = ContinuousClock()
        let start = clock.now
        let warmUp = Duration.seconds(max(5, duration / 10))
        var baseline: Memory?

        while clock.now - start < .seconds(duration) {
            // A burst of strokes, one to four fingers at once, then a double tap that clears the drawing (so the
            // document and the undo history stay bounded and any growth is a leak).
            for _ in 0..<Int(5 + random.next() % 15) {
                let fingers = Int(1 + random.next() % 4)
                let paths = (0..<fingers).map { _ in
                    (
                        begin: (x: Double(20 + random.next() % 760), y: Double(20 + random.next() % 560)),
                        end: (x: Double(20 + random.next() % 760), y: Double(20 + random.next() % 560))
                    )
                }
                for (id, path) in paths.enumerated() {
                    try touch.touchBegin(id: UInt32(id), x: path.begin.x, y: path.begin.y)
                }
                for step in 1...10 {
                    let t = Double(step) / 10
                    for (id, path) in paths.enumerated() {
                        try touch.touchUpdate(
                            id: UInt32(id), x: path.begin.x + (path.end.x - path.begin.x) * t,
                            y: path.begin.y + (path.end.y - path.begin.y) * t + 15 * t)
                    }
                }
                for (id, path) in paths.enumerated() {
                    try touch.touchEnd(id: UInt32(id), x: path.end.x, y: path.end.y + 15)
                }
                events += fingers * 12
                strokes += fingers
            }
            try touch.sync()
            _ = try await session.savedDocument(lineCount: 1, timeout: .seconds(30))
            // A double tap clears the drawing. On a loaded machine the server can stamp the two taps too far apart;
            // then they are two single taps (the first may select a line and open its menu), so Escape closes any
            // menu and the double tap is tried again.
            var cleared = false
            for attempt in 0..<5 where !cleared {
                if attempt > 0 {
                    retriedClears += 1
                    try keyboard.keyDown(keycode: Self.keyEscape)
                    try keyboard.keyUp(keycode: Self.keyEscape)
                    try keyboard.sync()
                }
                let at = (x: Double(50 + random.next() % 700), y: Double(50 + random.next() % 500))
                for _ in 0..<2 {
                    try touch.touchBegin(id: 9, x: at.x, y: at.y)
                    try touch.touchEnd(id: 9, x: at.x, y: at.y)
                }
                events += 4
                try touch.sync()
                // Cleared: every event sent so far was handled.
                cleared =
                    (try? await waitUntil(
                        "the double tap to clear the drawing", timeout: .seconds(attempt < 4 ? 3 : 30)
                    ) {
                        SavedDocument.read(session.document)?.lines.isEmpty == true
                    }) != nil
            }
            try #require(cleared, "five double taps did not clear the drawing\n\(session.app.transcript)")
            clears += 1
            confirmedEvents = events
            if baseline == nil, clock.now - start >= warmUp { baseline = try Memory(pid: session.app.pid) }
        }
        let end = try Memory(pid: session.app.pid)
        let first = try #require(baseline, "the soak must run longer than its warm-up")
        let growth = Double(end.resident - first.resident) / Double(first.resident) * 100
        let peakGrowth = Double(end.peak - first.peak) / Double(first.peak) * 100
        print(
            String(
                format:
                    "soak: %.0f s, %d events handled (%d strokes, %d clears, %d double taps retried, %.0f events/s); RSS after warm-up "
                    + "%d KiB (peak %d KiB; anonymous %d, file-backed %d), at the end %d KiB (peak %d KiB; anonymous %d, "
                    + "file-backed %d); growth %.2f %% (peak %.2f %%)",
                (clock.now - start) / .seconds(1), confirmedEvents, strokes, clears, retriedClears,
                Double(confirmedEvents) / ((clock.now - start) / .seconds(1)), first.resident, first.peak,
                first.anonymous, first.fileBacked, end.resident, end.peak, end.anonymous, end.fileBacked, growth,
                peakGrowth))
        #expect(growth < 5, "resident memory grew \(growth) %")
        #expect(peakGrowth < 5, "peak resident memory grew \(peakGrowth) %")
        #expect(session.app.isRunning, "\(session.app.transcript)")
    }

    /// X keycode of Escape (evdev KEY_ESC 1 + 8).
    static let keyEscape: Int32 = 9

    /// VmRSS and VmHWM of a process, in KiB, and the resident memory split into anonymous memory (the heap, where a
    /// leak would show) and file-backed pages (code and data of the binary and its libraries, paged in on first use).
    struct Memory {
        let resident: Int
        let peak: Int
        let anonymous: Int
        let fileBacked: Int

        init(pid: Int32) throws {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            func field(_ name: String) throws -> Int {
                let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(name + ":") })
                return try #require(Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]))
            }
            resident = try field("VmRSS")
            peak = try field("VmHWM")
            anonymous = try field("RssAnon")
            fileBacked = try field("RssFile")
        }
    }
}
