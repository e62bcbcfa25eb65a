/// Recognizes one or more taps of one or more fingers (discrete): each tap goes down and up within
/// `allowableMovement` and `maximumTapDuration`, and each following tap starts within `maximumIntervalBetweenTaps` of
/// the previous one's lift and within `allowableMultiTapDistance` of the first.
open class TapGestureRecognizer: GestureRecognizer {
    /// Taps needed (UIKit's default 1).
    public var numberOfTapsRequired = 1
    /// Fingers per tap (UIKit's default 1).
    public var numberOfTouchesRequired = 1
    /// How far a finger may move from where it went down (tap slop).
    public var allowableMovement: Double = 10
    /// How long one tap may last, from its first finger down to its last finger up.
    public var maximumTapDuration: TimeInterval = 0.5
    /// How long after one tap's lift the next tap must start.
    public var maximumIntervalBetweenTaps: TimeInterval = 0.35
    /// How far from the first tap the following taps must start.
    public var allowableMultiTapDistance: Double = 45

    private var tapsCompleted = 0
    private var currentTap: [Touch] = []
    private var firstTapLocation: Point?
    /// Where the first tap was (the centroid of its fingers where they lifted): UIKit's `location(in:)` of a
    /// multi-tap ("if there are multiple taps, this location is the first tap").
    private var firstTapCentroid: Point?
    private var timer: TimerToken?

    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            guard state == .possible else { return }
            if currentTap.isEmpty || currentTap.allSatisfy({ $0.phase.isFinished }) {
                // A new tap starts.
                currentTap.removeAll()
                if let first = firstTapLocation,
                    touch.initialWindowLocation.distance(to: first) > allowableMultiTapDistance
                {
                    state = .failed
                    return
                }
                cancelTimer(timer)
                timer = scheduleTimeout(afterMoreThan: maximumTapDuration) { [self] in
                    guard state == .possible else { return }
                    state = .failed
                }
            }
            currentTap.append(touch)
            if currentTap.count > numberOfTouchesRequired {
                state = .failed
                return
            }
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches where movedTooFar(touch) {
            state = .failed
            return
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches where movedTooFar(touch) {
            state = .failed
            return
        }
        guard state == .possible, currentTap.allSatisfy({ $0.phase.isFinished }) else { return }
        guard currentTap.count == numberOfTouchesRequired else {
            state = .failed
            return
        }
        tapsCompleted += 1
        if firstTapLocation == nil {
            firstTapLocation = currentTap[0].initialWindowLocation
            let sum = currentTap.reduce(Point.zero) { $0 + $1.windowLocation }
            firstTapCentroid = sum / Double(currentTap.count)
        }
        cancelTimer(timer)
        timer = nil
        if tapsCompleted >= numberOfTapsRequired {
            state = .ended
        } else {
            timer = scheduleTimeout(afterMoreThan: maximumIntervalBetweenTaps) { [self] in
                guard state == .possible else { return }
                state = .failed
            }
        }
    }

    /// The first tap's location once it has been made, as UIKit reports a multi-tap's location; before that (and
    /// after a reset), the centroid of the tap's fingers.
    open override func location(in view: View?) -> Point {
        guard let firstTapCentroid else { return super.location(in: view) }
        return view?.convert(firstTapCentroid, from: nil) ?? firstTapCentroid
    }

    private func movedTooFar(_ touch: Touch) -> Bool {
        !(touch.windowLocation.distance(to: touch.initialWindowLocation) <= allowableMovement)
    }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
        currentTap.removeAll()
        firstTapLocation = nil
        firstTapCentroid = nil
        timer = nil
    }
}
