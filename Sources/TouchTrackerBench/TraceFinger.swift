import XorgTestSupport

/// Sends touch events through the inputtest device and times each one to the first frame that includes it: the
/// app's trace counts the touch events it handled, so a frame drawn for another reason (a tile finished) is never
/// taken for the frame of a move.
struct TraceFinger {
    enum Phase {
        case begin, update, end
    }

    let device: InputTestDevice
    var trace: AppTrace
    /// Touch events sent so far (every one of them reaches the app as one event).
    private(set) var sent = 0

    init(device: InputTestDevice, trace: AppTrace) {
        self.device = device
        self.trace = trace
    }

    /// Sends one event that changes what the window shows and returns the seconds until the frame that includes
    /// it was presented. (An event that shows nothing, such as a finger going down, has no frame: `post` it.)
    mutating func send(_ phase: Phase, id: UInt32, x: Double, y: Double) async throws -> Double {
        let start = EndToEndLatency.now()
        try post(phase, id: id, x: x, y: y)
        let frame = try await trace.frame(including: sent, what: "the frame of touch event \(sent)")
        trace.forget(before: frame.time)
        return frame.time - start
    }

    /// Sends one event without waiting for its frame.
    mutating func post(_ phase: Phase, id: UInt32, x: Double, y: Double) throws {
        switch phase {
        case .begin: try device.touchBegin(id: id, x: x, y: y)
        case .update: try device.touchUpdate(id: id, x: x, y: y)
        case .end: try device.touchEnd(id: id, x: x, y: y)
        }
        sent += 1
    }
}
