/// Seconds on a monotonic time line. The platform decides where zero is.
public typealias TimeInterval = Double

/// A handle to a scheduled timer, used to cancel it.
public struct TimerToken: Hashable, Sendable {
    let id: UInt64
}

/// The only source of time for TouchKit: a time line that moves only when its driver advances it.
///
/// Tests drive it with `advance(by:)`; the X11 event loop reads the monotonic clock once per turn and calls
/// `advance(to:)`. Timers fire in deadline order (ties in scheduling order) as time passes their deadline, with
/// `now` set to the deadline while each fires, so a recognizer sees exactly the time it asked for.
public final class Clock {
    private struct Timer {
        let token: TimerToken
        let deadline: TimeInterval
        let action: () -> Void
    }

    /// The current time. It never goes backwards.
    public private(set) var now: TimeInterval
    private var timers: [Timer] = []
    private var nextID: UInt64 = 0

    public init(now: TimeInterval = 0) {
        self.now = now
    }

    /// Schedules `action` to run once `delay` seconds from now.
    @discardableResult
    public func schedule(after delay: TimeInterval, _ action: @escaping () -> Void) -> TimerToken {
        schedule(at: now + (delay.isFinite ? Swift.max(0, delay) : 0), action)
    }

    /// Event times are decimal seconds, which binary floating point rounds either way: 0.05 + 0.35 is a hair below
    /// 0.40, 0.07 + 0.5 a hair above 0.57. Limits are given this much room so that "exactly the limit" falls on the
    /// side the contract says, whatever the rounding.
    public static let boundaryTolerance: TimeInterval = 1e-6

    /// Schedules `action` to run once more than `limit` seconds have passed: an event at exactly `limit` from now
    /// (give or take `boundaryTolerance`) comes first, so a limit "at most `limit`" holds at its boundary (a tap
    /// lifted at exactly 0.5 s is a tap).
    @discardableResult
    public func schedule(afterMoreThan limit: TimeInterval, _ action: @escaping () -> Void) -> TimerToken {
        schedule(at: Self.lastMoment(within: limit, after: now), action)
    }

    /// Whether `time` is still within "at most `limit` after `start`", as `schedule(afterMoreThan:)` sees it: for
    /// checks made when an event comes rather than by a timer (a touch's tap count, a circle's pairing).
    public static func isWithin(_ limit: TimeInterval, after start: TimeInterval, at time: TimeInterval) -> Bool {
        time <= lastMoment(within: limit, after: start)
    }

    /// The end of "at most `limit` after `start`", with `boundaryTolerance` for rounding. An infinite limit never
    /// ends.
    private static func lastMoment(within limit: TimeInterval, after start: TimeInterval) -> TimeInterval {
        limit == .infinity ? .infinity : start + (limit.isFinite ? Swift.max(0, limit) : 0) + boundaryTolerance
    }

    /// Schedules `action` at `deadline` (now, if that has passed).
    private func schedule(at deadline: TimeInterval, _ action: @escaping () -> Void) -> TimerToken {
        nextID += 1
        let token = TimerToken(id: nextID)
        let deadline = Swift.max(now, deadline)
        // Keep the list sorted by deadline, later insertions after equal deadlines.
        let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
        timers.insert(Timer(token: token, deadline: deadline, action: action), at: index)
        return token
    }

    /// Cancels a timer; cancelling one that already fired or was cancelled does nothing.
    public func cancel(_ token: TimerToken) {
        // Tokens are unique, so at most one timer goes; `removeAll(where:)` would rewrite the whole list for it.
        guard let index = timers.firstIndex(where: { $0.token == token }) else { return }
        timers.remove(at: index)
    }

    /// The deadline of the earliest pending timer, if any.
    public var nextDeadline: TimeInterval? { timers.first?.deadline }

    /// Whether any timer is pending.
    public var hasPendingTimers: Bool { !timers.isEmpty }

    /// Moves time forward to `time`, firing every timer due on the way. Earlier times are ignored.
    public func advance(to time: TimeInterval) {
        guard time.isFinite else { return }
        while let first = timers.first, first.deadline <= time {
            timers.removeFirst()
            now = Swift.max(now, first.deadline)
            first.action()
        }
        now = Swift.max(now, time)
    }

    /// Moves time forward by `interval` seconds.
    public func advance(by interval: TimeInterval) {
        advance(to: now + interval)
    }

    /// Fires pending timers until none is left (timers scheduled by timers included), up to `limit` seconds ahead.
    public func runUntilIdle(limit: TimeInterval = 3600) {
        let end = now + limit
        while let deadline = nextDeadline, deadline <= end {
            advance(to: deadline)
        }
    }
}
