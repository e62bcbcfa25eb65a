/// Where a touch is in its delivery to its view, which recognizers may delay or take away.
enum ViewDelivery {
    /// `touchesBegan` has not reached the view yet (a recognizer with `delaysTouchesBegan` is deciding).
    case withheld
    /// The view saw `touchesBegan` and has not seen the end.
    case delivered
    /// The view saw the end or cancel, or the touch was taken before the view ever saw it.
    case finished
}

/// The window's gesture engine: delivers touches to recognizers and then to views, and arbitrates between
/// recognizers as UIKit does (exclusivity, failure requirements, delegates, delayed and cancelled delivery).
///
/// Performance: every platform move runs through here, so the path allocates nothing, hashes nothing it can avoid,
/// and holds no weak references to views or recognizers (a weakly referenced object pays for every retain). Swift's
/// dynamic exclusivity checks stay on everywhere: a framework meant to be learned from keeps its memory-safety
/// guarantees, and the pipeline still runs millions of events a second (a ten-finger 120 Hz screen sends ~1,200).
///
/// Everything happens in turns. A turn is one platform input or one timer; state changes made during a turn take
/// effect on the recognizers at once, while their side effects (cancelling touches in views, actions) run in order
/// once the recognizers have seen the touches, and resets happen at the end of the turn.
final class GestureArena {
    let clock: Clock
    /// The event object every delivery shares, updated in place (as UIKit reuses its UIEvent).
    let event = TouchEvent(allTouches: [], timestamp: 0)

    enum Effect {
        case cancelInView([Touch])
        /// An action for a change of state, with the state it changed to: a recognizer that began and ended in
        /// one turn reports `.began`, then `.ended`, not its final state twice.
        case action(GestureRecognizer, GestureRecognizer.State)
    }

    /// Recognizers that hold touches or wait; the only candidates for arbitration.
    var engaged: [GestureRecognizer] = []
    /// Recognizers that asked to begin or recognize and wait for failure requirements.
    var waiting: [GestureRecognizer] = []
    /// Recognizers to look at after the turn (reset, safety-net failure, list pruning).
    var checkList: [GestureRecognizer] = []
    var effects: [Effect] = []
    var effectIndex = 0
    /// Touches whose view delivery is held back by a recognizer still deciding.
    var heldTouches: [Touch] = []
    /// Touches that went down this turn while some recognizer was waiting, with their views. A waiting recognizer
    /// cannot take a new touch; if the same turn settles and resets it (the new touch failed the recognizer it
    /// waited for: a far second tap fails a double tap, and the single tap recognizes), it is offered the touch at
    /// the end of the turn, so a quick tap elsewhere is a tap of its own rather than lost.
    var begunWhileWaiting: [(touch: Touch, view: View)] = []
    var depth = 0
    /// Touches down now, and the event sequence they belong to: a sequence starts when a finger goes down while
    /// none is, and is over when the last one lifts. UIKit: a recognizer that failed or ended "remains in one of
    /// those final states until the current event sequence ends", and is reset only then.
    var liveTouches = 0
    var sequence = 0
    var lastChangedTouch: ObjectIdentifier?
    var isFlushing = false
    var isSettling = false
    var needsSettle = false

    init(clock: Clock) {
        self.clock = clock
    }

    // MARK: Turns

    /// Runs `body` as part of a turn; the outermost turn flushes effects, releases held touches and resets.
    func performTurn(_ body: () -> Void) {
        depth += 1
        body()
        depth -= 1
        // Most moves leave nothing for the end of the turn; looking first skips the flush loop's bookkeeping.
        if depth == 0, hasWorkAtEndOfTurn { flush() }
    }

    /// Whether `flush` would do anything: effects to run, held touches to look at, recognizers to check.
    var hasWorkAtEndOfTurn: Bool {
        effectIndex < effects.count || !heldTouches.isEmpty || !checkList.isEmpty
    }

    var isIdle: Bool { heldTouches.isEmpty && waiting.isEmpty }

    // MARK: Delivery

    /// The recognizers a new touch in `view` goes to: those of the view and its ancestors, nearest first.
    func recognizers(for touch: Touch, in view: View) -> [GestureRecognizer] {
        var result: [GestureRecognizer] = []
        var current: View? = view
        while let candidate = current {
            for recognizer in candidate.gestureRecognizers
            where recognizer.isEnabled && recognizer.acceptsTouches
                && recognizer.allowedTouchTypes.contains(touch.type)
                && !(recognizer.requiresExclusiveTouchType && recognizer.touches.contains { $0.type != touch.type })
                && recognizer.shouldReceive(touch)
                && (recognizer.delegate?.gestureRecognizer(recognizer, shouldReceive: touch) ?? true)
            {
                result.append(recognizer)
            }
            current = candidate.superview
        }
        return result
    }

    func touchBegan(_ touch: Touch, view: View) {
        if liveTouches == 0 { sequence += 1 }
        liveTouches += 1
        if !waiting.isEmpty { begunWhileWaiting.append((touch, view)) }
        let recognizers = self.recognizers(for: touch, in: view)
        touch.gestureRecognizers = recognizers
        engage(recognizers, with: touch)
        prepareEvent(touch, adding: true)
        // Taken before the recognizers run: their effects may reuse the event for other touches.
        let changed = event.changedTouches
        deliverBegan(of: touch, to: recognizers)
        runEffects()
        // A finger that joins a gesture already recognized (and that took it) is part of that gesture: with
        // cancelsTouchesInView the view never sees it, as UIKit keeps a recognized gesture's touches from the view.
        if touch.viewDelivery != .finished,
            recognizers.contains(where: { recognizer in
                recognizer.cancelsTouchesInView && recognizer.isTrackingLive(touch)
                    && (recognizer.storedState == .began || recognizer.storedState == .changed)
            })
        {
            touch.viewDelivery = .finished
        }
        switch touch.viewDelivery {
        case .finished: break
        case .withheld, .delivered:
            if holdsBegan(touch) {
                touch.viewDelivery = .withheld
                hold(touch)
            } else {
                touch.viewDelivery = .delivered
                view.touchesBegan(changed, with: event)
            }
        }
    }

    /// Makes `recognizers` follow `touch` from now on (and this arena take part in their arbitration).
    func engage(_ recognizers: [GestureRecognizer], with touch: Touch) {
        for recognizer in recognizers {
            recognizer.add(touch)
            recognizer.sequence = sequence
            recognizer.arena = self
            if !recognizer.isInEngagedList {
                recognizer.isInEngagedList = true
                engaged.append(recognizer)
            }
        }
    }

    /// Delivers `touchesBegan` of `touch` (the event's changed touch) to those of `recognizers` still taking it.
    func deliverBegan(of touch: Touch, to recognizers: [GestureRecognizer]) {
        let changed = event.changedTouches
        for recognizer in recognizers where recognizer.isEnabled && recognizer.acceptsTouches {
            guard recognizer.isTrackingLive(touch) else { continue }
            recognizer.touchesBegan(changed, with: event)
        }
    }

    /// One touch fewer is down; when none is, the sequence is over and every recognizer that failed or ended in it
    /// is looked at (and reset) at the end of the turn.
    func noteLifted() {
        liveTouches = Swift.max(0, liveTouches - 1)
        guard liveTouches == 0 else { return }
        for recognizer in engaged where recognizer.storedState.isTerminal { needsCheck(recognizer) }
    }

    func touchMoved(_ touch: Touch) {
        prepareEvent(touch, adding: false)
        let changed = event.changedTouches
        let recognizers = touch.gestureRecognizers
        for recognizer in recognizers
        where recognizer.isEnabled && recognizer.receivesEvents && recognizer.isTrackingLive(touch) {
            recognizer.touchesMoved(changed, with: event)
        }
        if effectIndex < effects.count { runEffects() }
        switch touch.viewDelivery {
        case .delivered: touch.view?.touchesMoved(changed, with: event)
        case .withheld: touch.pendingMoveForView = true
        case .finished: break
        }
    }

    func touchEnded(_ touch: Touch) {
        prepareEvent(touch, adding: false)
        let changed = event.changedTouches
        let recognizers = touch.gestureRecognizers
        for recognizer in recognizers where recognizer.isEnabled && recognizer.receivesEvents {
            guard recognizer.isTrackingLive(touch) else { continue }
            recognizer.touchesEnded(changed, with: event)
        }
        for recognizer in recognizers { needsCheck(recognizer) }
        noteLifted()
        runEffects()
        switch touch.viewDelivery {
        case .delivered:
            if holdsEnded(touch) {
                touch.pendingEndForView = true
                hold(touch)
            } else {
                touch.viewDelivery = .finished
                touch.view?.touchesEnded(changed, with: event)
            }
        case .withheld:
            touch.pendingEndForView = true
        case .finished: break
        }
    }

    func touchCancelled(_ touch: Touch) {
        prepareEvent(touch, adding: false)
        let changed = event.changedTouches
        let recognizers = touch.gestureRecognizers
        // One that recognized with this touch and waits on a requirement cannot complete its gesture now: it fails
        // first, rather than recognizing as its requirement fails with the same cancel.
        for recognizer in recognizers
        where recognizer.pendingState != nil && recognizer.trackedTouches.contains(where: { $0 === touch }) {
            fail(recognizer)
        }
        for recognizer in recognizers where recognizer.isEnabled && recognizer.receivesEvents {
            guard recognizer.isTrackingLive(touch) else { continue }
            recognizer.touchesCancelled(changed, with: event)
        }
        settle()
        for recognizer in recognizers { needsCheck(recognizer) }
        noteLifted()
        runEffects()
        switch touch.viewDelivery {
        case .delivered:
            touch.viewDelivery = .finished
            touch.view?.touchesCancelled(changed, with: event)
        case .withheld:
            // The view never saw it begin; it need not see it go.
            touch.viewDelivery = .finished
        case .finished: break
        }
    }

    /// Removes a finished touch from the shared event once its turn is over.
    func touchLeft(_ touch: Touch) {
        event.allTouches.remove(touch)
        if !touch.isHeld { touch.releaseView() }
    }

    func prepareEvent(_ touch: Touch, adding: Bool) {
        if adding { event.allTouches.insert(touch) }
        // The event's other touches did not change in it: stationary, as UIKit reports them in `allTouches`.
        for other in event.allTouches where other !== touch && (other.phase == .began || other.phase == .moved) {
            other.phase = .stationary
        }
        event.timestamp = touch.timestamp
        // Consecutive events of one touch reuse the set as it is (no hashing, no allocation).
        if lastChangedTouch != ObjectIdentifier(touch) || event.changedTouches.count != 1 {
            event.changedTouches.removeAll(keepingCapacity: true)
            event.changedTouches.insert(touch)
            lastChangedTouch = ObjectIdentifier(touch)
        }
    }

    // MARK: Held delivery

    func holdsBegan(_ touch: Touch) -> Bool {
        touch.gestureRecognizers.contains { recognizer in
            recognizer.delaysTouchesBegan && recognizer.isEnabled && recognizer.storedState == .possible
                && recognizer.tracks(touch)
        }
    }

    func holdsEnded(_ touch: Touch) -> Bool {
        touch.gestureRecognizers.contains { recognizer in
            recognizer.delaysTouchesEnded && recognizer.isEnabled && recognizer.storedState == .possible
                && recognizer.tracks(touch)
        }
    }

    func hold(_ touch: Touch) {
        guard !touch.isHeld else { return }
        touch.isHeld = true
        heldTouches.append(touch)
    }

    /// Delivers what recognizers no longer hold back, in order: began, the latest move, then the end.
    func releaseHeld() {
        var index = 0
        while index < heldTouches.count {
            let touch = heldTouches[index]
            if touch.viewDelivery == .withheld, !holdsBegan(touch) {
                touch.viewDelivery = .delivered
                event.timestamp = clock.now
                touch.view?.touchesBegan([touch], with: event)
                if touch.pendingMoveForView, touch.viewDelivery == .delivered {
                    touch.pendingMoveForView = false
                    touch.view?.touchesMoved([touch], with: event)
                }
            }
            if touch.viewDelivery == .delivered, touch.pendingEndForView, !holdsEnded(touch) {
                touch.viewDelivery = .finished
                touch.pendingEndForView = false
                event.timestamp = clock.now
                touch.view?.touchesEnded([touch], with: event)
            }
            let stillHeld =
                touch.viewDelivery == .withheld || (touch.viewDelivery == .delivered && touch.pendingEndForView)
            if stillHeld {
                index += 1
            } else {
                touch.isHeld = false
                heldTouches.remove(at: index)
                if touch.phase.isFinished { touch.releaseView() }
            }
        }
    }

    /// Forgets held deliveries to views leaving the window. A view that saw a touch begin and whose end is held
    /// gets it cancelled for the system, as a touch still down in it does: every touch a view sees begin ends.
    func dropHeldTouches(in view: View) {
        var cancelled: [(View, Set<Touch>)] = []
        var dropped: [Touch] = []
        for touch in heldTouches where touch.view == nil || touch.view?.isDescendant(of: view) == true {
            dropped.append(touch)
            if touch.viewDelivery == .delivered, let owner = touch.view {
                touch.cancellationReason = .system
                if let index = cancelled.firstIndex(where: { $0.0 === owner }) {
                    cancelled[index].1.insert(touch)
                } else {
                    cancelled.append((owner, [touch]))
                }
            }
            touch.viewDelivery = .finished
            touch.pendingEndForView = false
            touch.isHeld = false
        }
        heldTouches.removeAll { !$0.isHeld }
        event.timestamp = clock.now
        for (owner, touches) in cancelled { owner.touchesCancelled(touches, with: event) }
        for touch in dropped where touch.phase.isFinished { touch.releaseView() }
    }

    // MARK: Disabling, removal, system cancel

    func disable(_ recognizer: GestureRecognizer) {
        performTurn {
            switch recognizer.storedState {
            case .possible:
                waiting.removeAll { $0 === recognizer }
                fail(recognizer)
                settle()
            case .began, .changed:
                finishContinuous(recognizer, as: .cancelled)
            default: break
            }
        }
    }

    /// Recognizers leave their views: they stop at once, without actions, and return to possible. All of them go
    /// before anyone waiting on them is reconsidered.
    func detach(_ recognizers: [GestureRecognizer]) {
        guard !recognizers.isEmpty else { return }
        performTurn {
            for recognizer in recognizers {
                waiting.removeAll { $0 === recognizer }
                engaged.removeAll { $0 === recognizer }
                recognizer.isInEngagedList = false
                resetRecognizer(recognizer)
            }
            needsSettle = true
            settle()
        }
    }

    /// Fails or cancels every engaged recognizer (after the system took all touches) so all return to possible.
    func cancelAllGestures() {
        performTurn {
            for recognizer in engaged {
                switch recognizer.storedState {
                case .possible:
                    fail(recognizer)
                case .began, .changed:
                    finishContinuous(recognizer, as: .cancelled)
                default:
                    needsCheck(recognizer)
                }
            }
            waiting.removeAll()
        }
    }

    // MARK: Introspection for tests and debugging

    var engagedRecognizers: [GestureRecognizer] { engaged }
    var waitingRecognizers: [GestureRecognizer] { waiting }
}
