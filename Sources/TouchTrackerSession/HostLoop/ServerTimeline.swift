/// Maps a window system's event timestamps (32-bit milliseconds that wrap every 49.7 days: X server times, Wayland
/// event times) onto the app's monotonic seconds.
///
/// Event times keep their spacing, which gestures need (double-tap intervals, velocity), while the offset between
/// the two clocks is learned from the first event and corrected whenever an event would land in the future.
public struct ServerTimeline {
    public init() {}

    private var offset: Double?
    private var lastServerTime: UInt32 = 0
    private var wraps: Double = 0

    /// Seconds on the monotonic time line for a server time seen at monotonic time `now`.
    public mutating func seconds(forServerTime time: UInt32, now: Double) -> Double {
        if offset != nil, time < lastServerTime, lastServerTime - time > 0x8000_0000 { wraps += 1 }
        lastServerTime = time
        let serverSeconds = (Double(time) + wraps * 4_294_967_296) / 1000
        if offset == nil || serverSeconds + offset! > now { offset = now - serverSeconds }
        return serverSeconds + offset!
    }
}
