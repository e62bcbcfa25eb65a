/// The root of a view tree and the place where platform input enters TouchKit (UIWindow's `sendEvent`).
///
/// The platform calls `send(_:)` with what its device reported; the window gives each contact one `Touch` for its
/// whole life, finds the view it began in, lets gesture recognizers see it, and delivers it to the view.
open class Window: View {
    /// The time line every recognizer's timers run on.
    public let clock: Clock
    /// The responder that receives key events.
    public internal(set) weak var firstResponder: Responder?

    /// Live touches by the platform's id.
    private var touchesByPlatformID: [UInt64: Touch] = [:] {
        // Any change may remove or replace the cached touch.
        didSet { cachedTouch = nil }
    }
    /// The last touch looked up, so a finger's stream of moves skips hashing. Valid while the dictionary holds it.
    private var cachedID: UInt64 = 0
    private var cachedTouch: Unmanaged<Touch>?
    private var nextTouchIdentifier: UInt64 = 0
    /// The last touch that ended as a tap, for counting multi-taps: where its series began, when it lifted, its
    /// count and the view it was in.
    private var lastTap: (origin: Point, time: TimeInterval, count: Int, view: ObjectIdentifier?)?

    /// Maximum time between taps, and distance from the first, for `Touch.tapCount` to count up (UIKit's). The
    /// rules are the tap recognizer's: each tap stays within `tapSlop` for its whole life and lasts at most
    /// `maximumTapDuration`; the next starts within `multiTapInterval` of the last lift, within `multiTapDistance` of
    /// the first tap, and in the same view (a tap on a popup menu does not count towards a double tap below it).
    public var multiTapInterval: TimeInterval = 0.35
    public var multiTapDistance: Double = 45
    /// How far and how long a touch may move and last and still count as a tap for `Touch.tapCount`.
    public var tapSlop: Double = 10
    public var maximumTapDuration: TimeInterval = 0.5

    /// The gesture engine: delivery to recognizers and views, and arbitration.
    let arena: GestureArena

    public init(frame: Rect, clock: Clock = Clock()) {
        self.clock = clock
        self.arena = GestureArena(clock: clock)
        super.init(frame: frame)
        isMultipleTouchEnabled = true
    }

    deinit {
        for touch in touchesByPlatformID.values {
            touch.releaseView()
            touch.gestureRecognizers.removeAll()
        }
        arena.tearDown()
    }

    /// Every touch on the screen now.
    public var activeTouches: Set<Touch> { Set(touchesByPlatformID.values) }

    /// Feeds platform input in, in order. Time advances to each input's timestamp first (firing due timers); a
    /// timestamp earlier than the clock is taken as now.
    public func send(_ inputs: [TouchInput]) {
        for input in inputs { send(input) }
    }

    public func send(_ input: TouchInput) {
        clock.advance(to: input.timestamp)
        let time = clock.now
        arena.performTurn {
            switch input.phase {
            case .began:
                guard input.location.isFinite else { return }
                if touchesByPlatformID[input.id] != nil {
                    // The platform reused an id we still hold: the old contact is gone without an end.
                    cancel(platformID: input.id, reason: .system, at: time)
                }
                begin(input, at: time)
            case .moved:
                guard let touch = liveTouch(input.id), input.location.isFinite else { return }
                touch.previousWindowLocation = touch.windowLocation
                touch.windowLocation = input.location
                touch.timestamp = time
                if let force = input.force, force.isFinite { touch.force = force }
                if let tilt = input.tilt { touch.tilt = tilt }
                if !touch.leftTapSlop, !(input.location.distance(to: touch.initialWindowLocation) <= tapSlop) {
                    touch.leftTapSlop = true
                }
                touch.phase = .moved
                arena.touchMoved(touch)
            case .ended:
                guard let touch = touchesByPlatformID.removeValue(forKey: input.id) else { return }
                if input.location.isFinite, input.location != touch.windowLocation {
                    touch.previousWindowLocation = touch.windowLocation
                    touch.windowLocation = input.location
                }
                touch.timestamp = time
                touch.phase = .ended
                let isTap =
                    !touch.leftTapSlop && touch.windowLocation.distance(to: touch.initialWindowLocation) <= tapSlop
                    && Clock.isWithin(maximumTapDuration, after: touch.beganAt, at: time)
                lastTap =
                    isTap
                    ? (touch.tapSeriesOrigin, time, touch.tapCount, touch.view.map { ObjectIdentifier($0) }) : nil
                arena.touchEnded(touch)
                arena.touchLeft(touch)
            case .cancelled:
                cancel(platformID: input.id, reason: .system, at: time)
            case .claimed:
                cancel(platformID: input.id, reason: .claimedBySystem, at: time)
            }
        }
    }

    private func liveTouch(_ id: UInt64) -> Touch? {
        if let cached = cachedTouch, cachedID == id { return cached.takeUnretainedValue() }
        guard let touch = touchesByPlatformID[id] else { return nil }
        cachedID = id
        cachedTouch = Unmanaged.passUnretained(touch)
        return touch
    }

    /// Cancels every live touch on behalf of the system (a device was removed, the window lost its input), and
    /// with them every gesture in progress: afterwards every recognizer is back in `possible`.
    public func cancelAllTouches() {
        arena.performTurn {
            for id in touchesByPlatformID.keys.sorted() {
                cancel(platformID: id, reason: .system, at: clock.now)
            }
            arena.cancelAllGestures()
        }
    }

    private func begin(_ input: TouchInput, at time: TimeInterval) {
        guard let view = hitTest(input.location) else { return }
        // A view that is not multiple-touch enabled does not see further fingers; its recognizers still do (as in
        // UIKit, a pinch works on a single-touch view).
        let hiddenFromView =
            !view.isMultipleTouchEnabled && touchesByPlatformID.values.contains(where: { $0.view === view })
        nextTouchIdentifier += 1
        let tapCount: Int
        let origin: Point
        // Limits compared as the recognizers' timers see them.
        if let last = lastTap, Clock.isWithin(multiTapInterval, after: last.time, at: time),
            last.origin.distance(to: input.location) <= multiTapDistance, last.view == ObjectIdentifier(view)
        {
            tapCount = last.count + 1
            origin = last.origin
        } else {
            tapCount = 1
            origin = input.location
        }
        let touch = Touch(
            identifier: nextTouchIdentifier, platformID: input.id, location: input.location, timestamp: time,
            force: input.force, type: input.type, tilt: input.tilt, tapCount: tapCount, window: self)
        touch.tapSeriesOrigin = origin
        touch.view = view
        touchesByPlatformID[input.id] = touch
        if hiddenFromView { touch.viewDelivery = .finished }
        arena.touchBegan(touch, view: view)
    }

    private func cancel(platformID: UInt64, reason: TouchCancellationReason, at time: TimeInterval) {
        guard let touch = touchesByPlatformID.removeValue(forKey: platformID) else { return }
        touch.phase = .cancelled
        touch.cancellationReason = reason
        touch.timestamp = time
        arena.touchCancelled(touch)
        arena.touchLeft(touch)
    }

    func viewWillLeave(_ view: View) {
        let leaving = touchesByPlatformID.filter { $0.value.view?.isDescendant(of: view) == true }
        arena.performTurn {
            for id in leaving.keys.sorted() { cancel(platformID: id, reason: .system, at: clock.now) }
            arena.dropHeldTouches(in: view)
            // Recognizers of the leaving views stop now rather than finish (from a timer) on a detached view.
            var stack = [view]
            var leavingRecognizers: [GestureRecognizer] = []
            while let current = stack.popLast() {
                leavingRecognizers += current.gestureRecognizers.filter { $0.arena === arena }
                stack.append(contentsOf: current.subviews)
            }
            arena.detach(leavingRecognizers)
        }
    }

    func recognizerWillLeave(_ recognizer: GestureRecognizer) {
        (recognizer.arena ?? arena).detach([recognizer])
    }

    /// How many touches have a delivery to their view held back by a recognizer that is still deciding.
    public var heldTouchCount: Int { arena.heldTouches.count }
}
