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
    private var touchesByPlatformID: [UInt64: Touch] = [:]
    private var nextTouchIdentifier: UInt64 = 0
    /// The last ended touch, for counting multi-taps.
    private var lastTap: (location: Point, time: TimeInterval, count: Int)?

    /// Maximum time between taps, and distance from the first, for `Touch.tapCount` to count up (UIKit's).
    public var multiTapInterval: TimeInterval = 0.35
    public var multiTapDistance: Double = 45

    public init(frame: Rect, clock: Clock = Clock()) {
        self.clock = clock
        super.init(frame: frame)
        isMultipleTouchEnabled = true
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
        switch input.phase {
        case .began:
            guard input.location.isFinite else { return }
            if touchesByPlatformID[input.id] != nil {
                // The platform reused an id we still hold: the old contact is gone without an end.
                cancel(platformID: input.id, reason: .system, at: time)
            }
            begin(input, at: time)
        case .moved:
            guard let touch = touchesByPlatformID[input.id], input.location.isFinite else { return }
            touch.previousWindowLocation = touch.windowLocation
            touch.windowLocation = input.location
            touch.timestamp = time
            touch.force = input.force ?? touch.force
            touch.phase = .moved
            deliver([touch], phase: .moved, at: time)
        case .ended:
            guard let touch = touchesByPlatformID.removeValue(forKey: input.id) else { return }
            if input.location.isFinite, input.location != touch.windowLocation {
                touch.previousWindowLocation = touch.windowLocation
                touch.windowLocation = input.location
            }
            touch.timestamp = time
            touch.phase = .ended
            lastTap = (touch.initialWindowLocation, time, touch.tapCount)
            deliver([touch], phase: .ended, at: time)
        case .cancelled:
            cancel(platformID: input.id, reason: .system, at: time)
        }
    }

    /// Cancels every live touch on behalf of the system: a device was removed or the window lost its input.
    public func cancelAllTouches() {
        for id in touchesByPlatformID.keys.sorted() {
            cancel(platformID: id, reason: .system, at: clock.now)
        }
    }

    private func begin(_ input: TouchInput, at time: TimeInterval) {
        nextTouchIdentifier += 1
        let tapCount: Int
        if let last = lastTap, time - last.time <= multiTapInterval,
            last.location.distance(to: input.location) <= multiTapDistance
        {
            tapCount = last.count + 1
        } else {
            tapCount = 1
        }
        let touch = Touch(
            identifier: nextTouchIdentifier, platformID: input.id, location: input.location, timestamp: time,
            force: input.force, tapCount: tapCount, window: self)
        guard let view = hitTest(input.location) else { return }
        if !view.isMultipleTouchEnabled, touchesByPlatformID.values.contains(where: { $0.view === view }) {
            return
        }
        touch.view = view
        touchesByPlatformID[input.id] = touch
        deliver([touch], phase: .began, at: time)
    }

    private func cancel(platformID: UInt64, reason: TouchCancellationReason, at time: TimeInterval) {
        guard let touch = touchesByPlatformID.removeValue(forKey: platformID) else { return }
        touch.phase = .cancelled
        touch.cancellationReason = reason
        touch.timestamp = time
        deliver([touch], phase: .cancelled, at: time)
    }

    private func deliver(_ touches: Set<Touch>, phase: TouchPhase, at time: TimeInterval) {
        var all = Set(touchesByPlatformID.values)
        all.formUnion(touches)
        let event = TouchEvent(allTouches: all, timestamp: time)
        var byView: [ObjectIdentifier: (View, Set<Touch>)] = [:]
        for touch in touches {
            guard let view = touch.view else { continue }
            byView[ObjectIdentifier(view), default: (view, [])].1.insert(touch)
        }
        for (view, viewTouches) in byView.values {
            switch phase {
            case .began: view.touchesBegan(viewTouches, with: event)
            case .moved, .stationary: view.touchesMoved(viewTouches, with: event)
            case .ended: view.touchesEnded(viewTouches, with: event)
            case .cancelled: view.touchesCancelled(viewTouches, with: event)
            }
        }
    }

    func viewWillLeave(_ view: View) {
        let leaving = touchesByPlatformID.filter { $0.value.view?.isDescendant(of: view) == true }
        for id in leaving.keys.sorted() { cancel(platformID: id, reason: .system, at: clock.now) }
    }

    func recognizerWillLeave(_ recognizer: GestureRecognizer) {}
}
