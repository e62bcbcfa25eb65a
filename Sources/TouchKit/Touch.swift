/// Where a touch is in its life.
public enum TouchPhase: Sendable, Hashable {
    case began, moved, stationary, ended, cancelled

    /// Whether the touch has ended or been cancelled.
    public var isFinished: Bool { self == .ended || self == .cancelled }
}

/// One finger (or the mouse's button 1, or a stylus) on the screen, from the moment it goes down until it lifts.
///
/// A `Touch` is a reference: the same object is handed out for the whole life of a contact, and no other contact
/// ever shares it, even when the platform reuses its numeric id at once.
public final class Touch: Hashable, CustomStringConvertible {
    /// TouchKit's own serial number for this contact, unique for the life of the window.
    public let identifier: UInt64
    /// The id the platform gave the contact (an XI2 touch id, say). Platforms may reuse it.
    public let platformID: UInt64
    public internal(set) var phase: TouchPhase
    /// When the touch last changed, in the window's clock.
    public internal(set) var timestamp: TimeInterval
    /// How many quick taps in the same place this touch completes (1 for a first tap).
    public internal(set) var tapCount: Int
    /// Pressure, 0...1 with 1/3 a normal press, when the device reports it.
    public internal(set) var force: Double?
    /// What made the touch: a finger, a pointer, a stylus's tip or its eraser.
    public let type: TouchType
    /// How a stylus leans, when the device reports it (`altitudeAngle` and `azimuthAngle` read it as UIKit does).
    public internal(set) var tilt: StylusTilt?
    /// UIKit's `altitudeAngle`: π/2 for a finger, a pointer and an upright stylus.
    public var altitudeAngle: Double { tilt?.altitudeAngle ?? Double.pi / 2 }
    /// UIKit's `azimuthAngle` (in the window's coordinates): 0 when there is no tilt.
    public var azimuthAngle: Double { tilt?.azimuthAngle ?? 0 }
    /// The view the touch began in. Every later event of the touch goes to it.
    ///
    /// Held strongly while the touch is live (as UIKit does) and weakly once the view has seen its end, so a view
    /// that keeps finished touches (in a dictionary of strokes, say) does not keep itself alive through them.
    public internal(set) var view: View? {
        get { strongView ?? weakView }
        set {
            strongView = newValue
            weakView = nil
            viewRef = newValue.map { Unmanaged.passUnretained($0) }
        }
    }
    private var strongView: View?
    private weak var weakView: View?
    /// `view` without reference counting, for the per-event calls; valid while `strongView` holds the view.
    private(set) var viewRef: Unmanaged<View>?

    /// Stops owning the view once the touch and its delivery are over.
    func releaseView() {
        guard let view = strongView else { return }
        weakView = view
        strongView = nil
        viewRef = nil
    }
    /// The window of the touch's view.
    public var window: Window? { view?.window }
    /// The recognizers that receive this touch.
    public internal(set) var gestureRecognizers: [GestureRecognizer] = []
    /// Why the touch was cancelled, once it is.
    public internal(set) var cancellationReason: TouchCancellationReason?

    var windowLocation: Point
    var previousWindowLocation: Point
    /// Where and when the touch went down, for tap slop and multi-tap checks.
    let initialWindowLocation: Point
    let beganAt: TimeInterval

    /// Where the series of taps this touch belongs to began (its own place for a first tap), for `tapCount`.
    var tapSeriesOrigin: Point = .zero
    /// Whether the touch has ever been farther than the tap slop from where it went down (a scribble that comes
    /// home is not a tap).
    var leftTapSlop = false

    /// How far the touch's delivery to its view has got (see `GestureArena`).
    var viewDelivery: ViewDelivery = .withheld
    /// A move or end arrived while a recognizer held the view's delivery back.
    var pendingMoveForView = false
    var pendingEndForView = false
    var isHeld = false

    init(
        identifier: UInt64, platformID: UInt64, location: Point, timestamp: TimeInterval, force: Double?,
        type: TouchType = .direct, tilt: StylusTilt? = nil, tapCount: Int, window: Window?
    ) {
        self.identifier = identifier
        self.platformID = platformID
        self.phase = .began
        self.timestamp = timestamp
        self.tapCount = tapCount
        self.force = force.flatMap { $0.isFinite ? $0 : nil }
        self.type = type
        self.tilt = tilt
        self.windowLocation = location
        self.previousWindowLocation = location
        self.initialWindowLocation = location
        self.beganAt = timestamp
    }

    /// The touch's location in `view`'s coordinates, or in the window's when `view` is nil.
    ///
    /// Runs for every move. `switch` borrows the view where `guard let` would copy it: a retain and a release per
    /// call, and slow ones, as recognizers and finished touches reference views weakly.
    public func location(in view: View?) -> Point {
        switch view {
        case .some(let view): view.convertFromRoot(windowLocation)
        case .none: windowLocation
        }
    }

    /// The location before the last change, in `view`'s coordinates, or in the window's when `view` is nil.
    public func previousLocation(in view: View?) -> Point {
        switch view {
        case .some(let view): view.convertFromRoot(previousWindowLocation)
        case .none: previousWindowLocation
        }
    }

    public static func == (lhs: Touch, rhs: Touch) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    public var description: String { "Touch#\(identifier)(\(phase), \(windowLocation))" }
}
