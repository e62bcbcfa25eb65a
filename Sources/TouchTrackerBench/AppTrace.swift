import Foundation
import XorgTestSupport

/// Reads, in order as they arrive on the app's stderr, the lines `--trace-frames` prints:
/// `frame presented t=SECONDS size=WxH touches=N scrolls=S zoom=Z received=R began=B drawn=D [sent=S]` (and `floor=0`
/// or `1` with the benchmark's floor switch) after every frame, `tiles complete t=SECONDS` when the tile painters have caught up and, on Wayland,
/// `frame shown t=SECONDS` when the compositor's presentation feedback says a committed frame reached the output.
/// Times are CLOCK_MONOTONIC seconds, the clock of `EndToEndLatency.now()`.
struct AppTrace {
    struct Frame {
        var time: Double
        var width: Int
        var height: Int
        /// Touch events the app had handled when it drew the frame.
        var touches: Int
        /// Scrolls (wheel clicks, smooth travel) the app had handled when it drew the frame, and the view's zoom.
        var scrolls = 0
        var zoom = 1.0
        /// Its place among the app's `frame presented` lines (0 for the first), to tell which frames came between two.
        var ordinal = 0
        /// Whether the benchmark's floor drew it (nothing drawn, its region presented); nil when the app was not
        /// started with the floor switch.
        var floor: Bool?
        /// When the latest touch event or scroll reached the app's session; 0 from an app that does not say.
        var received = 0.0
        /// On Wayland, when the frame's commit left for the compositor (the send's own processor time counted, not
        /// the compositor's turn on the core it woke on); nil from a host that does not say.
        var sent: Double?

        /// When the frame was committed: sent, where the app says, else its line's time (right after `present`).
        var committed: Double { sent ?? time }
    }

    /// A `frame shown` line. It does not say which commit it was for: only its place among the frame lines does.
    struct Shown {
        var time: Double
        /// `frame presented` lines printed before it.
        var framesBefore: Int
    }

    let app: AppProcess
    /// Bytes of stderr already looked at (whole lines only).
    private var consumed = 0
    private var frames: [Frame] = []
    private var shownFrames: [Shown] = []
    /// `frame presented` lines read so far.
    private var framesSeen = 0
    private var tilesCompleted: [Double] = []
    private var documentRead: Double?

    init(app: AppProcess) {
        self.app = app
    }

    /// The first frame that includes the first `touches` touch events and `scrolls` scrolls sent (and, if given, is
    /// `width` x `height`), presented at or after `time`.
    mutating func frame(
        including touches: Int = 0, scrolls: Int = 0, size: (width: Int, height: Int)? = nil,
        atOrAfter time: Double = 0, what: String = "a frame", timeout: Duration = .seconds(10)
    ) async throws -> Frame {
        try await wait(what, timeout: timeout) { trace in
            trace.frames.first { frame in
                frame.time >= time && frame.touches >= touches && frame.scrolls >= scrolls
                    && (size.map { frame.width == $0.width && frame.height == $0.height } ?? true)
            }
        }
    }

    /// When the document (read while the window opened) was put on the canvas.
    mutating func documentRead(timeout: Duration = .seconds(60)) async throws -> Double {
        try await wait("the document to be read", timeout: timeout) { $0.documentRead }
    }

    /// When the tiles were complete with the document on the canvas, the first time at or after `time`. (Before
    /// the document is read, the empty canvas's tiles are complete at once: that does not count.)
    mutating func tilesComplete(atOrAfter time: Double = 0, timeout: Duration = .seconds(60)) async throws -> Double {
        let read = try await documentRead(timeout: timeout)
        return try await wait("every tile painted", timeout: timeout) { trace in
            trace.tilesCompleted.first { $0 >= max(time, read) }
        }
    }

    /// The first `frame shown` line after `frame`'s own line, at or after its time: when the compositor showed it.
    /// A frame replaced before the compositor's next repaint is never shown (its feedback is discarded, which the app
    /// does not print), so this is the frame's own feedback only when no other commit was still waiting for its
    /// feedback: the caller's to make sure of (`framesSoFar`).
    mutating func shown(after frame: Frame, timeout: Duration = .seconds(10)) async throws -> Shown {
        try await wait("the compositor to show frame \(frame.ordinal)", timeout: timeout) { trace in
            trace.shownFrames.first { $0.framesBefore > frame.ordinal && $0.time >= frame.time }
        }
    }

    /// How many `frame presented` lines the app has printed so far (the next frame's `ordinal`).
    mutating func framesSoFar() -> Int {
        scan()
        return framesSeen
    }

    /// Frames before `time` are of no more interest (keeps the searches short).
    mutating func forget(before time: Double) {
        frames.removeAll { $0.time < time }
        shownFrames.removeAll { $0.time < time }
    }

    private mutating func wait<T>(
        _ what: String, timeout: Duration, _ find: (AppTrace) -> T?
    ) async throws -> T {
        var result: T?
        try await waitUntil(what, timeout: timeout, poll: .milliseconds(1)) {
            scan()
            result = find(self)
            if result == nil, !app.isRunning {
                throw EndToEndLatency.Failure(description: "touchtracker exited: \(app.transcript)")
            }
            return result != nil
        }
        return result!
    }

    /// Reads the lines that arrived since the last scan; only those bytes are copied, so polling every
    /// millisecond through a long run does not keep a core busy (which would slow the app being measured).
    private mutating func scan() {
        let bytes = app.stderrBytes(from: consumed)
        var lineStart = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            parse(String(decoding: bytes[lineStart..<index], as: UTF8.self))
            lineStart = index + 1
        }
        consumed += lineStart
    }

    private mutating func parse(_ line: String) {
        func field(_ name: String) -> Substring? {
            guard let range = line.range(of: name + "=") else { return nil }
            return line[range.upperBound...].prefix { $0 != " " }
        }
        if line.contains("frame presented"), let time = field("t").flatMap({ Double($0) }) {
            let size = field("size")?.split(separator: "x").compactMap { Int($0) } ?? []
            frames.append(
                Frame(
                    time: time, width: size.first ?? 0, height: size.last ?? 0,
                    touches: field("touches").flatMap { Int($0) } ?? 0,
                    scrolls: field("scrolls").flatMap { Int($0) } ?? 0, zoom: field("zoom").flatMap { Double($0) } ?? 1,
                    ordinal: framesSeen, floor: field("floor").map { $0 == "1" },
                    received: field("received").flatMap { Double($0) } ?? 0, sent: field("sent").flatMap { Double($0) })
            )
            framesSeen += 1
        } else if line.contains("frame shown"), let time = field("t").flatMap({ Double($0) }) {
            shownFrames.append(Shown(time: time, framesBefore: framesSeen))
        } else if line.contains("tiles complete"), let time = field("t").flatMap({ Double($0) }) {
            tilesCompleted.append(time)
        } else if line.contains("document read t="), let time = field("t").flatMap({ Double($0) }) {
            documentRead = time
        }
    }
}
