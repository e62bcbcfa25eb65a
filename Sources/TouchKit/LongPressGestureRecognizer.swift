/// Recognizes fingers held down for `minimumPressDuration` without moving more than `allowableMovement`
/// (continuous): it begins when the time is up, reports `changed` as the fingers move (the movement allowance no
/// longer applies) and ends when they lift. With `numberOfTapsRequired` > 0 the press must follow that many taps.
open class LongPressGestureRecognizer: GestureRecognizer {
    /// How long the fingers must stay down (UIKit's default 0.5 s).
    public var minimumPressDuration: TimeInterval = 0.5
    /// How far a finger may move before the gesture begins (UIKit's default 10 px).
    public var allowableMovement: Double = 10
    /// Taps before the press (UIKit's default 0).
    public var numberOfTapsRequired = 0
    /// Fingers that must press (UIKit's default 1).
    public var numberOfTouchesRequired = 1
    /// For the taps before the press: how long each may last and the most time between them.
    public var maximumTapDuration: TimeInterval = 0.5
    public var maximumIntervalBetweenTaps: TimeInterval = 0.35

    private var tapsCompleted = 0
    private var down: [Touch] = []
    private var timer: TimerToken?
    /// The press lasted its duration and asked to begin (it may still wait for its failure requirements).
    private var pressHeldLongEnough: Bool { heldWindowLocation != nil }
    /// Where the fingers were (their centroid, in the window) when the press lasted its duration.
    private var heldWindowLocation: Point?

    /// Where the fingers were held when the press lasted its duration, in `view`'s coordinates (the window's when
    /// nil): the place that was pressed. It differs from `location(in:)` at `.began` only when the press had to wait
    /// for another recognizer to fail and the fingers moved meanwhile; nil before the duration.
    public func heldLocation(in view: View?) -> Point? {
        guard let heldWindowLocation else { return nil }
        return view?.convert(heldWindowLocation, from: nil) ?? heldWindowLocation
    }

    open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            switch state {
            case .began, .changed:
                // Fingers added once the press began are not part of it.
                ignore(touch, for: event)
                continue
            case .possible:
                break
            default:
                return
            }
            if down.allSatisfy({ $0.phase.isFinished }) { down.removeAll() }
            down.append(touch)
            let live = down.count(where: { !$0.phase.isFinished })
            if live > numberOfTouchesRequired {
                state = .failed
                return
            }
            if live == numberOfTouchesRequired {
                cancelTimer(timer)
                if tapsCompleted < numberOfTapsRequired {
                    timer = scheduleTimeout(afterMoreThan: maximumTapDuration) { [self] in
                        guard state == .possible else { return }
                        state = .failed
                    }
                } else {
                    // "At least" the duration: fired a hair early, so a lift at exactly the duration comes after it.
                    timer = scheduleTimer(after: minimumPressDuration - Clock.boundaryTolerance) { [self] in
                        guard state == .possible else { return }
                        heldWindowLocation = location(in: nil)
                        state = .began
                    }
                }
            }
        }
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        switch state {
        case .possible:
            // Held long enough and waiting only for its failure requirements (a swipe that may still be made at
            // the very instant the press's duration ends): it has recognized, and moving now is the drag that
            // follows, as lifting now ends the press it recognized (`GestureArena`), not a press that wandered.
            if pressHeldLongEnough { return }
            for touch in touches
            where !(touch.windowLocation.distance(to: touch.initialWindowLocation) <= allowableMovement) {
                state = .failed
                return
            }
        case .began, .changed:
            state = .changed
        default:
            break
        }
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        switch state {
        case .possible:
            // The press itself: any finger lifting before it began ends it, even while others stay down. UIKit
            // begins only while `numberOfTouchesRequired` fingers have been down for the whole duration.
            if tapsCompleted >= numberOfTapsRequired {
                state = .failed
                return
            }
            guard down.allSatisfy({ $0.phase.isFinished }) else { return }
            if down.count == numberOfTouchesRequired {
                tapsCompleted += 1
                cancelTimer(timer)
                timer = scheduleTimeout(afterMoreThan: maximumIntervalBetweenTaps) { [self] in
                    guard state == .possible else { return }
                    state = .failed
                }
            } else {
                state = .failed
            }
        case .began, .changed:
            state = .ended
        default:
            break
        }
    }

    open override func reset() {
        super.reset()
        tapsCompleted = 0
        heldWindowLocation = nil
        down.removeAll()
        timer = nil
    }
}
