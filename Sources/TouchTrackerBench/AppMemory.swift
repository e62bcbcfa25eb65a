import Foundation
import TouchKit
import TouchTracker
import TouchTrackerStore
import WestonTestSupport
import XorgTestSupport

/// The memory rows' figures: the real `touchtracker` holding a 100,000-line document in a 1920x1080 window, after
/// it drew a stroke; its peak resident memory (VmHWM) as the kernel counts it. Under a private Xorg, and as a
/// native Wayland client under a headless weston.
enum AppMemory {
    static let lineCount = 100_000
    static let targetMegabytes = 80.0

    static func row() async -> Row {
        await row(name: "peak memory of the app holding \(lineCount) lines (1920x1080 window, after a stroke)") {
            let session = try await BenchAppSession.launch(lineCount: lineCount)
            defer { session.stop() }
            // One stroke, so the numbers include drawing, the frame and the save that follows it.
            let touch = try session.server.touch
            try touch.touchBegin(id: 1, x: 300, y: 300)
            for step in 1...10 { try touch.touchUpdate(id: 1, x: 300 + 20 * Double(step), y: 300) }
            try touch.touchEnd(id: 1, x: 500, y: 300)
            try touch.sync()
            return try await megabytesAfterSave(app: session.app, document: session.document)
        }
    }

    /// The same with the Wayland host (its window's wl_shm buffers are in its memory too).
    static func waylandRow() async -> Row {
        let name =
            "peak memory of the Wayland host holding \(lineCount) lines (weston headless, 1920x1080 window, after "
            + "a stroke)"
        return await row(name: name) {
            let session = try await WestonAppSession.launch(backend: .wayland, lineCount: lineCount)
            defer { session.stop() }
            let input = session.server.input
            try input.post(.begin, id: 1, x: 300, y: 300)
            for step in 1...10 { try input.post(.update, id: 1, x: 300 + 20 * Double(step), y: 300) }
            try input.post(.end, id: 1, x: 500, y: 300)
            return try await megabytesAfterSave(app: session.app, document: session.document)
        }
    }

    private static func row(name: String, measure: () async throws -> Megabytes) async -> Row {
        let target = "< \(Int(targetMegabytes)) MB"
        do {
            let memory = try await measure()
            // What the resident memory is made of: the window's shared-memory buffers (wl_shm on Wayland) are
            // counted in it although the compositor reads them.
            let parts = String(
                format: "%.1f MB anonymous, %.1f MB shared memory, %.1f MB files", memory.anonymous,
                memory.sharedMemory, memory.files)
            return Row(
                name: name,
                figure: String(format: "%.1f MB peak (%.1f MB resident at the end: ", memory.peak, memory.resident)
                    + parts + ")",
                target: target, passed: memory.peak < targetMegabytes,
                values: [
                    "peakMegabytes": memory.peak, "residentMegabytes": memory.resident,
                    "anonymousMegabytes": memory.anonymous, "sharedMemoryMegabytes": memory.sharedMemory,
                    "fileMegabytes": memory.files,
                ])
        } catch {
            // Without root, the display server or the release `touchtracker` this row cannot run: say why instead
            // of crashing.
            let reason = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            return Row(
                name: name, figure: "not measured: \(reason.prefix(240))", target: target, passed: false, values: [:])
        }
    }

    /// The app's memory as /proc/PID/status counts it, in MB.
    struct Megabytes {
        /// VmHWM: the most resident memory it ever had.
        var peak: Double
        /// VmRSS, and its parts RssAnon, RssShmem and RssFile.
        var resident: Double
        var anonymous: Double
        var sharedMemory: Double
        var files: Double
    }

    /// The app's memory once the stroke it was sent is saved (so the numbers include drawing, the frame and the
    /// save that follows it).
    static func megabytesAfterSave(app: AppProcess, document: URL) async throws -> Megabytes {
        try await waitUntil("the stroke to be saved", timeout: .seconds(30)) {
            (try? DocumentStore(path: document.path).load().lines.count) == lineCount + 1
        }
        return try megabytes(of: app)
    }

    /// The app's memory now.
    static func megabytes(of app: AppProcess) throws -> Megabytes {
        let status = try String(contentsOfFile: "/proc/\(app.pid)/status", encoding: .utf8)
        func megabytes(_ field: String) throws -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                let kilobytes = Double(line.filter(\.isNumber))
            else { throw EndToEndLatency.Failure(description: "no \(field) in /proc/\(app.pid)/status") }
            return kilobytes / 1024
        }
        return Megabytes(
            peak: try megabytes("VmHWM"), resident: try megabytes("VmRSS"), anonymous: try megabytes("RssAnon"),
            sharedMemory: try megabytes("RssShmem"), files: try megabytes("RssFile"))
    }
}
