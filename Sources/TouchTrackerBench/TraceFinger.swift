import XorgTestSupport

/// Where a `TraceFinger`'s touch events go in: Xorg's inputtest device, or weston's input module
/// (`WestonInput`, conformed in WestonAppSession.swift). Each event must reach the app as one touch event.
protocol TouchSource {
    /// Sends one touch event; returns once it is on its way to the app.
    func post(_ phase: TraceFinger.Phase, id: UInt32, x: Double, y: Double) throws
}

extension InputTestDevice: TouchSource {
    func post(_ phase: TraceFinger.Phase, id: UInt32, x: Double, y: Double) throws {
        switch phase {
        case .begin: try touchBegin(id: id, x: x, y: y)
        case .update: try touchUpdate(id: id, x: x, y: y)
        case .end: try touchEnd(id: id, x: x, y: y)
        }
    }
}

/// A tablet's pen (Xorg's inputtest pen) as a touch source: its tip goes down where it hovers, moves pressed with a
/// middling pressure and lifts; each of these reaches the app as one pen touch event (its hover before the press is
/// no touch event). The pen has one tip, so `id` is not used.
struct PenSource: TouchSource {
    let pen: InputTestDevice

    func post(_ phase: TraceFinger.Phase, id: UInt32, x: Double, y: Double) throws {
        switch phase {
        case .begin:
            try pen.proximity(inReach: true, x: x, y: y)
            try pen.moveTo(x: x, y: y, pressure: 400)
            try pen.buttonDown()
        case .update: try pen.moveTo(x: x, y: y, pressure: 400)
        case .end: try pen.buttonUp()
        }
    }
}

/// Sends touch events through a `TouchSource` and times each one to the first frame that includes it: the app's
/// trace counts the touch events it handled, so a frame drawn for another reason (a tile finished) is never taken
/// for the frame of a move.
struct TraceFinger {
    enum Phase {
        case begin, update, end
    }

    let device: any TouchSource
    var trace: AppTrace
    /// Touch events sent so far (every one of them reaches the app as one event).
    private(set) var sent = 0

    init(device: any TouchSource, trace: AppTrace) {
        self.device = device
        self.trace = trace
    }

    /// Sends one event that changes what the window shows and returns the seconds until the frame that includes
    /// it was presented. (An event that shows nothing, such as a finger going down, has no frame: `post` it.)
    mutating func send(_ phase: Phase, id: UInt32, x: Double, y: Double) async throws -> Double {
        let sending = try await sendForFrame(phase, id: id, x: x, y: y)
        return sending.frame.time - sending.start
    }

    /// As `send`, returning when the event was sent (just before), when the source returned (weston's: once it
    /// wrote the event to its clients) and the frame that includes it, for callers that go on to wait for what
    /// became of that frame (the compositor showing it) or tell the server's part from the app's.
    mutating func sendForFrame(
        _ phase: Phase, id: UInt32, x: Double, y: Double
    ) async throws -> (start: Double, posted: Double, frame: AppTrace.Frame) {
        let start = EndToEndLatency.now()
        try post(phase, id: id, x: x, y: y)
        let posted = EndToEndLatency.now()
        let frame = try await trace.frame(including: sent, what: "the frame of touch event \(sent)")
        trace.forget(before: frame.time)
        return (start, posted, frame)
    }

    /// Sends one event without waiting for its frame.
    mutating func post(_ phase: Phase, id: UInt32, x: Double, y: Double) throws {
        try device.post(phase, id: id, x: x, y: y)
        sent += 1
    }
}
