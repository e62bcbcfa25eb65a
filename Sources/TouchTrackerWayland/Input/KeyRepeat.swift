import TouchTracker

/// Repeats a held key, which on Wayland is the client's job: after the compositor's `repeat_info` delay, then
/// `rate` times a second, until the key is released, another key is pressed or the window loses the keyboard. It
/// hands back the key, not what it meant when pressed: each repeat is read with the modifiers held then, as X's
/// repeats are (Ctrl let go while Z is held stops the undos).
struct KeyRepeat {
    /// Repeats per second; 0 turns repeating off.
    private(set) var rate = 25
    /// Seconds from the press to the first repeat.
    private(set) var delay = 0.6
    private var held: (code: UInt32, next: Double)?

    /// The compositor's `repeat_info` (rate per second, delay in milliseconds).
    mutating func configure(rate: Int32, delayMilliseconds: Int32) {
        self.rate = max(0, Int(rate))
        delay = Double(max(0, delayMilliseconds)) / 1000
        if self.rate == 0 { held = nil }
    }

    mutating func pressed(code: UInt32, repeats: Bool, at now: Double) {
        held = repeats && rate > 0 ? (code, now + delay) : nil
    }

    mutating func released(code: UInt32) {
        if held?.code == code { held = nil }
    }

    mutating func stop() {
        held = nil
    }

    /// When the next repeat is due, on the monotonic clock.
    var nextDeadline: Double? { held?.next }

    /// The key whose repeat is due at `now`, if any. A loop that woke late gets one repeat, not a burst of the ones
    /// it missed.
    mutating func due(at now: Double) -> UInt32? {
        guard let current = held, now >= current.next else { return nil }
        let interval = 1 / Double(rate)
        let following = current.next + interval
        held = (current.code, following > now ? following : now + interval)
        return current.code
    }
}
