import TouchKit

/// Palm rejection (DESIGN.md §2.21): while a stylus is near the screen, and for `grace` after it leaves, a finger
/// that goes down is taken for the hand holding the stylus: it draws nothing and no gesture sees it. Fingers already
/// down when the stylus arrives are left alone, and pointers (a mouse) are never rejected.
///
/// It decides per touch when the touch begins and then drops every later event of a rejected touch, by the
/// platform's id, until it ends.
public struct PalmRejection: Sendable {
    /// How long after the stylus leaves a finger that goes down is still taken for the palm.
    public static let grace: TimeInterval = 0.5

    /// Whether a stylus is near the screen now: hovering within reach or touching it.
    public private(set) var isStylusNear = false
    /// When the stylus last left, if it has.
    private var stylusLeftAt: TimeInterval?
    /// Whether a stylus has ever been seen by this window (the settings menu offers the switch from then on).
    public private(set) var hasSeenStylus = false
    /// The touches rejected and not yet ended, by platform id, with where each is now (for the inspector).
    public private(set) var rejectedTouches: [UInt64: Point] = [:]

    public init() {}

    /// A stylus came near (it hovers, or it touches).
    public mutating func stylusCameNear() {
        isStylusNear = true
        hasSeenStylus = true
        stylusLeftAt = nil
    }

    /// The stylus left (out of the tablet's reach) at `time`.
    public mutating func stylusLeft(at time: TimeInterval) {
        guard isStylusNear else { return }
        isStylusNear = false
        stylusLeftAt = time
    }

    /// Whether `input` is to be dropped: a finger that began while the stylus is near or within `grace` of its
    /// leaving (when `enabled`), or any later event of a touch rejected so. Updates what it remembers.
    public mutating func rejects(_ input: TouchInput, enabled: @autoclosure () -> Bool) -> Bool {
        switch input.phase {
        case .began:
            if input.type.isStylus { stylusCameNear() }
            // A platform that reuses an id starts a new contact: whatever the old one was is over.
            if !rejectedTouches.isEmpty { rejectedTouches[input.id] = nil }
            guard input.type == .direct, isStylusRecent(at: input.timestamp), enabled() else { return false }
            rejectedTouches[input.id] = input.location
            return true
        case .moved:
            // Every move of every touch comes here: with no palm down (nearly always) no hashing at all.
            guard !rejectedTouches.isEmpty, let index = rejectedTouches.index(forKey: input.id) else { return false }
            if input.location.isFinite { rejectedTouches.values[index] = input.location }
            return true
        case .ended, .cancelled, .claimed:
            guard !rejectedTouches.isEmpty else { return false }
            return rejectedTouches.removeValue(forKey: input.id) != nil
        }
    }

    /// The stylus is near, or left at most `grace` before `time`.
    private func isStylusRecent(at time: TimeInterval) -> Bool {
        if isStylusNear { return true }
        guard let left = stylusLeftAt else { return false }
        return time - left <= Self.grace
    }
}
