/// One batch of touch changes delivered together, as UIEvent is.
public final class TouchEvent {
    /// Every touch currently on the screen, the changed ones included.
    public internal(set) var allTouches: Set<Touch>
    /// The touches that changed in this event (UIKit passes them as the `touches` argument as well).
    public internal(set) var changedTouches: Set<Touch> = []
    /// When the event happened.
    public internal(set) var timestamp: TimeInterval

    init(allTouches: Set<Touch>, timestamp: TimeInterval) {
        self.allTouches = allTouches
        self.timestamp = timestamp
    }

    /// The touches that belong to `view`.
    public func touches(for view: View) -> Set<Touch> {
        allTouches.filter { $0.view === view }
    }

    /// The touches delivered to `recognizer`.
    public func touches(for recognizer: GestureRecognizer) -> Set<Touch> {
        allTouches.filter { touch in touch.gestureRecognizers.contains { $0 === recognizer } }
    }
}

/// What a platform reports about one contact: the input side of TouchKit.
///
/// The platform sends these to `Window.send(_:)`. It need not keep them consistent: ends for unknown ids, repeated
/// begins and non-finite coordinates are all handled.
public struct TouchInput: Sendable, Hashable {
    public enum Phase: Sendable, Hashable {
        case began, moved, ended
        /// The system took the touch away (device removed, grab taken). Lines complete; gestures cancel.
        case cancelled
        /// The window system claimed the touch for a gesture of its own (Wayland's `wl_touch.cancel`: a compositor
        /// swipe took the fingers). As when a recognizer claims a touch, its work is dropped; gestures cancel.
        case claimed
    }

    public var id: UInt64
    public var phase: Phase
    /// Location in window coordinates.
    public var location: Point
    /// Seconds on the window clock's time line.
    public var timestamp: TimeInterval
    /// Normalised pressure, when the device has a pressure axis.
    public var force: Double?
    /// What made the touch (a finger unless the platform says otherwise). Read when the touch begins.
    public var type: TouchType
    /// How a stylus leans, when the device reports it.
    public var tilt: StylusTilt?

    public init(
        id: UInt64, phase: Phase, location: Point, timestamp: TimeInterval, force: Double? = nil,
        type: TouchType = .direct, tilt: StylusTilt? = nil
    ) {
        self.id = id
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
        self.force = force
        self.type = type
        self.tilt = tilt
    }
}
