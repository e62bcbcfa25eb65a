/// Estimates velocity as Flutter's `VelocityTracker` does: a least-squares fit of position against time over the
/// most recent samples within a 100 ms horizon, ignoring anything before a pause of more than 40 ms, and zero once
/// the newest sample is more than 40 ms old.
///
/// Samples live in a fixed ring, so adding one never allocates.
public struct VelocityTracker: Sendable {
    /// How far back samples count.
    public var horizon: TimeInterval = 0.1
    /// A gap longer than this between samples (or since the newest) means the motion stopped.
    public var pauseThreshold: TimeInterval = 0.04

    private static let capacity = 20
    private var times = [TimeInterval](repeating: 0, count: VelocityTracker.capacity)
    private var xs = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var ys = [Double](repeating: 0, count: VelocityTracker.capacity)
    private var head = 0
    private var count = 0

    public init() {}

    /// Forgets every sample.
    public mutating func clear() {
        count = 0
        head = 0
    }

    /// Records the position at a time. Non-finite samples are ignored; a time earlier than the newest is clamped.
    public mutating func add(_ position: Point, at time: TimeInterval) {
        guard position.isFinite, time.isFinite else { return }
        var time = time
        if count > 0 {
            let newest = head == 0 ? VelocityTracker.capacity - 1 : head - 1
            time = Swift.max(time, times[newest])
        }
        times[head] = time
        xs[head] = position.x
        ys[head] = position.y
        head = head + 1 == VelocityTracker.capacity ? 0 : head + 1
        count = Swift.min(count + 1, VelocityTracker.capacity)
    }

    /// Velocity in units per second at time `now`.
    ///
    /// Runs on every move of a stroke drawn with width by speed, so the ring is walked with a wrapping decrement
    /// (no integer division) over the buffers' memory directly (no bounds checks or reference counting per sample).
    public func velocity(at now: TimeInterval) -> Point {
        guard count >= 2 else { return .zero }
        let capacity = VelocityTracker.capacity
        let newest = head == 0 ? capacity - 1 : head - 1
        return times.withUnsafeBufferPointer { times in
            xs.withUnsafeBufferPointer { xs in
                ys.withUnsafeBufferPointer { ys in
                    let newestTime = times[newest]
                    guard now - newestTime <= pauseThreshold else { return .zero }
                    // Walk back from the newest sample while within the horizon and without a pause.
                    var used = 1
                    var previousTime = newestTime
                    var index = newest
                    while used < count {
                        index = index == 0 ? capacity - 1 : index - 1
                        let t = times[index]
                        if newestTime - t > horizon || previousTime - t > pauseThreshold { break }
                        previousTime = t
                        used += 1
                    }
                    guard used >= 2 else { return .zero }
                    var meanT = 0.0
                    var meanX = 0.0
                    var meanY = 0.0
                    index = newest
                    for _ in 0..<used {
                        meanT += times[index] - newestTime
                        meanX += xs[index]
                        meanY += ys[index]
                        index = index == 0 ? capacity - 1 : index - 1
                    }
                    let n = Double(used)
                    meanT /= n
                    meanX /= n
                    meanY /= n
                    var stt = 0.0
                    var stx = 0.0
                    var sty = 0.0
                    index = newest
                    for _ in 0..<used {
                        let dt = times[index] - newestTime - meanT
                        stt += dt * dt
                        stx += dt * (xs[index] - meanX)
                        sty += dt * (ys[index] - meanY)
                        index = index == 0 ? capacity - 1 : index - 1
                    }
                    guard stt > 1e-12 else { return .zero }
                    let velocity = Point(x: stx / stt, y: sty / stt)
                    return velocity.isFinite ? velocity : .zero
                }
            }
        }
    }
}
