import Foundation

extension ScrollView {
    /// How quickly a glide slows down: the velocity is multiplied by `rawValue` every millisecond (UIKit's
    /// `UIScrollView.DecelerationRate`).
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        /// UIKit's default, 0.998: a flick at 1,000 points a second glides about 500 points.
        public static let normal = DecelerationRate(rawValue: 0.998)
        /// 0.99: a flick at 1,000 points a second glides about 100 points.
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    /// Ends a drag whose content moved at `velocity` (points per second) when the fingers lifted: asks the
    /// delegate where to come to rest, tells it the drag ended, and glides there on the window's clock.
    func endDragging(velocity: Point) {
        var glide = Deceleration(
            start: contentOffset, velocity: velocity, startTime: window?.clock.now ?? 0,
            rate: decelerationRate.rawValue)
        var target = glide.map { clampedContentOffset($0.restingOffset) } ?? contentOffset
        let reported = glide?.velocity ?? .zero
        delegate?.scrollViewWillEndDragging(self, withVelocity: reported / 1000, targetContentOffset: &target)
        if target.isFinite, target != glide.map({ clampedContentOffset($0.restingOffset) }) ?? contentOffset {
            // The delegate moved the resting point: glide there with the velocity that reaches it.
            glide = Deceleration(
                start: contentOffset, to: target, startTime: window?.clock.now ?? 0,
                rate: decelerationRate.rawValue)
        }
        guard let glide, window != nil, target.distance(to: contentOffset) >= Deceleration.restThreshold else {
            delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
            return
        }
        delegate?.scrollViewDidEndDragging(self, willDecelerate: true)
        deceleration = glide
        delegate?.scrollViewWillBeginDecelerating(self)
        scheduleDecelerationFrame()
    }

    private func scheduleDecelerationFrame() {
        guard let clock = window?.clock else { return stopDecelerating() }
        decelerationTimer = clock.schedule(after: animationFrameInterval) { [weak self] in
            self?.decelerationFrame()
        }
    }

    /// One frame of the glide: the content moves by what the closed form travelled since the last frame (so an
    /// offset set meanwhile, by a wheel say, is carried on from), held at the edges. The glide ends when less than
    /// half a point is left to go on each axis (or the axis is held at an edge), the rest of the way travelled.
    private func decelerationFrame() {
        decelerationTimer = nil
        guard var glide = deceleration, let now = window?.clock.now else { return stopDecelerating() }
        let free = glide.offset(at: now)
        let toRest = glide.restingOffset - glide.reached
        let candidate = contentOffset + (free - glide.reached)
        glide.reached = free
        let held = clampedContentOffset(candidate)
        let left = glide.remaining(at: now)
        let doneX = abs(left.x) < Deceleration.restThreshold || held.x != candidate.x
        let doneY = abs(left.y) < Deceleration.restThreshold || held.y != candidate.y
        if doneX && doneY {
            contentOffset = clampedContentOffset(contentOffset + toRest)
            stopDecelerating()
        } else {
            deceleration = glide
            contentOffset = held
            scheduleDecelerationFrame()
        }
    }

    /// Stops a glide where it is (a touch went down, a drag or zoom began, the program scrolled or zoomed) and tells the delegate it ended.
    func stopDecelerating() {
        guard deceleration != nil else { return }
        if let token = decelerationTimer { window?.clock.cancel(token) }
        decelerationTimer = nil
        deceleration = nil
        delegate?.scrollViewDidEndDecelerating(self)
    }
}

/// A glide after a flick: the velocity decays by `rate` every millisecond, v(t) = v₀·rate^(1000·t), so the offset
/// follows the closed form start + v₀·(1 − e^(−k·t))/k with k = −1000·ln(rate), and comes to rest v₀/k away. The
/// offset depends only on the time, never on how often frames come.
struct Deceleration {
    /// Less than this left to travel, in points, and the glide is over.
    static let restThreshold = 0.5

    let start: Point
    /// Points per second, of the content offset.
    let velocity: Point
    /// Where the closed form was at the last frame.
    var reached: Point
    let startTime: TimeInterval
    /// The decay constant per second.
    let k: Double

    /// Nil when nothing would move: no velocity, or a rate outside (0, 1).
    init?(start: Point, velocity: Point, startTime: TimeInterval, rate: Double) {
        guard rate > 0, rate < 1, velocity.isFinite, velocity != .zero else { return nil }
        self.start = start
        self.reached = start
        self.velocity = velocity
        self.startTime = startTime
        self.k = -1000 * log(rate)
    }

    /// The glide that comes to rest at `target`.
    init?(start: Point, to target: Point, startTime: TimeInterval, rate: Double) {
        guard rate > 0, rate < 1 else { return nil }
        self.init(start: start, velocity: (target - start) * (-1000 * log(rate)), startTime: startTime, rate: rate)
    }

    var restingOffset: Point { start + velocity / k }

    func offset(at time: TimeInterval) -> Point {
        let t = Swift.max(0, time - startTime)
        return start + velocity * ((1 - exp(-k * t)) / k)
    }

    /// What is left to travel, per axis, at `time`.
    func remaining(at time: TimeInterval) -> Point {
        let t = Swift.max(0, time - startTime)
        return velocity * (exp(-k * t) / k)
    }
}
