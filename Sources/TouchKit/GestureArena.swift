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

    private enum Effect {
        case cancelInView([Touch])
        /// An action for a change of state, with the state it changed to: a recognizer that began and ended in
        /// one turn reports `.began`, then `.ended`, not its final state twice.
        case action(GestureRecognizer, GestureRecognizer.State)
    }

    /// Recognizers that hold touches or wait; the only candidates for arbitration.
    private var engaged: [GestureRecognizer] = []
    /// Recognizers that asked to begin or recognize and wait for failure requirements.
    private var waiting: [GestureRecognizer] = []
    /// Recognizers to look at after the turn (reset, safety-net failure, list pruning).
    private var checkList: [GestureRecognizer] = []
    private var effects: [Effect] = []
    private var effectIndex = 0
    /// Touches whose view delivery is held back by a recognizer still deciding.
    private(set) var heldTouches: [Touch] = []
    /// Touches that went down this turn while some recognizer was waiting, with their views. A waiting recognizer
    /// cannot take a new touch; if the same turn settles and resets it (the new touch failed the recognizer it
    /// waited for: a far second tap fails a double tap, and the single tap recognizes), it is offered the touch at
    /// the end of the turn, so a quick tap elsewhere is a tap of its own rather than lost.
    private var begunWhileWaiting: [(touch: Touch, view: View)] = []
    private var depth = 0
    /// Touches down now, and the event sequence they belong to: a sequence starts when a finger goes down while
    /// none is, and is over when the last one lifts. UIKit: a recognizer that failed or ended "remains in one of
    /// those final states until the current event sequence ends", and is reset only then.
    private var liveTouches = 0
    private var sequence = 0
    private var lastChangedTouch: ObjectIdentifier?
    private var isFlushing = false
    private var isSettling = false
    private var needsSettle = false

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
    private var hasWorkAtEndOfTurn: Bool {
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
    private func engage(_ recognizers: [GestureRecognizer], with touch: Touch) {
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
    private func deliverBegan(of touch: Touch, to recognizers: [GestureRecognizer]) {
        let changed = event.changedTouches
        for recognizer in recognizers where recognizer.isEnabled && recognizer.acceptsTouches {
            guard recognizer.isTrackingLive(touch) else { continue }
            recognizer.touchesBegan(changed, with: event)
        }
    }

    /// One touch fewer is down; when none is, the sequence is over and every recognizer that failed or ended in it
    /// is looked at (and reset) at the end of the turn.
    private func noteLifted() {
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

    private func prepareEvent(_ touch: Touch, adding: Bool) {
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

    private func holdsBegan(_ touch: Touch) -> Bool {
        touch.gestureRecognizers.contains { recognizer in
            recognizer.delaysTouchesBegan && recognizer.isEnabled && recognizer.storedState == .possible
                && recognizer.tracks(touch)
        }
    }

    private func holdsEnded(_ touch: Touch) -> Bool {
        touch.gestureRecognizers.contains { recognizer in
            recognizer.delaysTouchesEnded && recognizer.isEnabled && recognizer.storedState == .possible
                && recognizer.tracks(touch)
        }
    }

    private func hold(_ touch: Touch) {
        guard !touch.isHeld else { return }
        touch.isHeld = true
        heldTouches.append(touch)
    }

    /// Delivers what recognizers no longer hold back, in order: began, the latest move, then the end.
    private func releaseHeld() {
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

    // MARK: State requests

    static func isValidTransition(from old: GestureRecognizer.State, to new: GestureRecognizer.State) -> Bool {
        switch (old, new) {
        case (.possible, .began), (.possible, .ended), (.possible, .failed), (.possible, .cancelled): true
        case (.began, .changed), (.began, .ended), (.began, .cancelled), (.began, .failed): true
        case (.changed, .changed), (.changed, .ended), (.changed, .cancelled), (.changed, .failed): true
        default: false
        }
    }

    /// The commonest transition, a continuous gesture moving on: no arbitration needed.
    func changed(_ recognizer: GestureRecognizer) {
        recognizer.storedState = .changed
        effects.append(.action(recognizer, .changed))
        if depth == 0 { flush() }
    }

    func request(_ recognizer: GestureRecognizer, _ newState: GestureRecognizer.State) {
        let old = recognizer.storedState
        guard Self.isValidTransition(from: old, to: newState) else { return }
        switch (old, newState) {
        case (.possible, .began), (.possible, .ended):
            guard recognizer.pendingState != .ended else { return }
            guard recognizer.isEnabled else { return fail(recognizer) }
            recognizer.pendingState = newState
            if !waiting.contains(where: { $0 === recognizer }) { waiting.append(recognizer) }
            settle()
        case (.possible, _):
            // A discrete gesture that recognized and waits has decided; a later change of mind (its own timer) is
            // ignored. Only its failure requirements, a cancel from outside or the reset end the wait.
            if recognizer.pendingState == .ended { return }
            // A continuous gesture that asked to begin and waits sees itself still possible; its fingers lifting
            // then (all ended, none cancelled) end the gesture it asked for: it begins and ends once it may.
            if recognizer.pendingState == .began, newState == .failed, !recognizer.trackedTouches.isEmpty,
                recognizer.trackedTouches.allSatisfy({ $0.phase == .ended })
            {
                recognizer.endsOnceBegun = true
                return settle()
            }
            fail(recognizer)
            settle()
        case (_, .failed), (_, .cancelled):
            finishContinuous(recognizer, as: .cancelled)
        case (_, .ended):
            finishContinuous(recognizer, as: .ended)
        default:
            recognizer.storedState = newState
            enqueue(.action(recognizer, newState))
        }
    }

    private func finishContinuous(_ recognizer: GestureRecognizer, as state: GestureRecognizer.State) {
        recognizer.storedState = state
        recognizer.cancelAllTimers()
        enqueue(.action(recognizer, state))
        needsCheck(recognizer)
    }

    private func fail(_ recognizer: GestureRecognizer) {
        guard recognizer.storedState == .possible else { return }
        recognizer.storedState = .failed
        recognizer.pendingState = nil
        recognizer.cancelAllTimers()
        needsCheck(recognizer)
        needsSettle = true
    }

    /// Resolves waiting recognizers until nothing changes.
    private func settle() {
        needsSettle = true
        guard !isSettling else { return }
        isSettling = true
        defer { isSettling = false }
        while needsSettle {
            needsSettle = false
            var index = 0
            while index < waiting.count {
                let recognizer = waiting[index]
                guard recognizer.storedState == .possible, let target = recognizer.pendingState else {
                    recognizer.pendingState = nil
                    waiting.remove(at: index)
                    continue
                }
                switch verdict(for: recognizer) {
                case .wait:
                    index += 1
                case .fail:
                    waiting.remove(at: index)
                    fail(recognizer)
                case .proceed:
                    waiting.remove(at: index)
                    if shouldBegin(recognizer) && recognizer.storedState == .possible {
                        recognize(recognizer, as: target)
                        if target == .began, recognizer.endsOnceBegun { finishContinuous(recognizer, as: .ended) }
                    } else {
                        fail(recognizer)
                    }
                }
            }
        }
    }

    /// Asks the view, then the delegate (once, when the view is its own delegate).
    /// Asks, as UIKit does, every view between the touches and the recognizer's view (the touched views and their
    /// superviews below it: a control can keep a parent's tap or swipe from taking its touches), then the
    /// recognizer's own view, then its delegate.
    static func shouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        let view = recognizer.view
        var asked: [View] = []
        for touch in recognizer.sessionTouches where view.map({ touch.view?.isDescendant(of: $0) ?? false }) ?? false {
            var current = touch.view
            while let candidate = current, candidate !== view {
                if !asked.contains(where: { $0 === candidate }) {
                    asked.append(candidate)
                    if !candidate.gestureRecognizerShouldBegin(recognizer) { return false }
                }
                current = candidate.superview
            }
        }
        if let view, !view.gestureRecognizerShouldBegin(recognizer) { return false }
        guard let delegate = recognizer.delegate, delegate !== view else { return true }
        return delegate.gestureRecognizerShouldBegin(recognizer)
    }

    private func shouldBegin(_ recognizer: GestureRecognizer) -> Bool { Self.shouldBegin(recognizer) }

    private enum Verdict { case wait, fail, proceed }

    private func verdict(for recognizer: GestureRecognizer) -> Verdict {
        guard recognizer.isEnabled, recognizer.view != nil else { return .fail }
        // Exclusivity: a competitor already recognized prevents this one unless both may be simultaneous.
        for other in engaged where other !== recognizer {
            switch other.storedState {
            case .began, .changed, .ended:
                if competes(recognizer, other), !simultaneous(recognizer, other), other.canPrevent(recognizer),
                    recognizer.canBePrevented(by: other)
                {
                    return .fail
                }
            default: break
            }
        }
        var result = Verdict.proceed
        func consider(_ other: GestureRecognizer) {
            switch other.storedState {
            case .began, .changed, .ended, .cancelled:
                result = .fail
            case .possible:
                if other.isEngaged, result == .proceed { result = .wait }
            case .failed:
                break
            }
        }
        for other in recognizer.explicitFailureRequirements {
            guard other.view != nil, other.isEnabled else { continue }
            consider(other)
            if result == .fail { return .fail }
        }
        for other in engaged where other !== recognizer {
            if requiresFailure(of: other, by: recognizer) {
                consider(other)
                if result == .fail { return .fail }
            }
        }
        return result
    }

    private func requiresFailure(of other: GestureRecognizer, by recognizer: GestureRecognizer) -> Bool {
        recognizer.shouldRequireFailure(of: other) || other.shouldBeRequiredToFail(by: recognizer)
            || (recognizer.delegate?.gestureRecognizer(recognizer, shouldRequireFailureOf: other) ?? false)
            || (other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: recognizer) ?? false)
    }

    /// Whether two recognizers compete: they have received a touch in common.
    private func competes(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        for touch in a.trackedTouches where b.tracks(touch) { return true }
        return false
    }

    private func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        (a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) ?? false)
            || (b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) ?? false)
    }

    /// Takes a recognizer out of possible: fails its competitors, takes its touches from the view, queues its action.
    private func recognize(_ recognizer: GestureRecognizer, as target: GestureRecognizer.State) {
        recognizer.storedState = target
        recognizer.pendingState = nil
        for other in engaged where other !== recognizer && other.storedState == .possible {
            if competes(recognizer, other), !simultaneous(recognizer, other), recognizer.canPrevent(other),
                other.canBePrevented(by: recognizer)
            {
                fail(other)
            }
        }
        if recognizer.cancelsTouchesInView {
            let claimed = recognizer.trackedTouches.filter { $0.viewDelivery != .finished }
            if !claimed.isEmpty { enqueue(.cancelInView(claimed)) }
        }
        enqueue(.action(recognizer, target))
        if target == .ended {
            recognizer.cancelAllTimers()
            needsCheck(recognizer)
        }
        needsSettle = true
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

    // MARK: Effects and the end of a turn

    private func enqueue(_ effect: Effect) {
        effects.append(effect)
    }

    func needsCheck(_ recognizer: GestureRecognizer) {
        guard !recognizer.isQueuedForCheck else { return }
        recognizer.isQueuedForCheck = true
        checkList.append(recognizer)
    }

    /// Cancels claimed touches in their views, then sends actions, in the order the state changes happened.
    private func runEffects() {
        while effectIndex < effects.count {
            let effect = effects[effectIndex]
            effectIndex += 1
            switch effect {
            case .cancelInView(let touches):
                cancelInViews(touches)
            case .action(let recognizer, let state):
                // A recognizer reset (or failed) since the change has nothing to report.
                if recognizer.storedState != .possible, recognizer.storedState != .failed {
                    recognizer.reportedState = state
                    recognizer.sendActions()
                    recognizer.reportedState = nil
                }
            }
        }
        // Compact now and then rather than after every event: clearing costs more than the few stale entries.
        if effects.count >= 64 {
            effects.removeAll(keepingCapacity: true)
            effectIndex = 0
        }
    }

    private func cancelInViews(_ touches: [Touch]) {
        var groups: [(View, Set<Touch>)] = []
        for touch in touches {
            switch touch.viewDelivery {
            case .delivered:
                touch.viewDelivery = .finished
                touch.pendingEndForView = false
                // A touch the system cancelled stays the system's.
                if touch.phase != .cancelled { touch.cancellationReason = .gestureRecognized }
                guard let view = touch.view else { continue }
                if let index = groups.firstIndex(where: { $0.0 === view }) {
                    groups[index].1.insert(touch)
                } else {
                    groups.append((view, [touch]))
                }
            case .withheld:
                touch.viewDelivery = .finished
                touch.pendingEndForView = false
                touch.pendingMoveForView = false
            case .finished:
                break
            }
        }
        event.timestamp = clock.now
        for (view, set) in groups { view.touchesCancelled(set, with: event) }
    }

    private func flush() {
        guard !isFlushing else { return }
        isFlushing = true
        defer { isFlushing = false }
        depth += 1
        defer { depth -= 1 }
        var rounds = 0
        while rounds < 100_000 {
            rounds += 1
            if effectIndex < effects.count {
                runEffects()
                continue
            }
            if !heldTouches.isEmpty { releaseHeld() }
            if !checkList.isEmpty {
                processChecks()
                continue
            }
            if effectIndex < effects.count { continue }
            if !begunWhileWaiting.isEmpty {
                offerTouchesToRecognizersReset()
                continue
            }
            break
        }
    }

    /// Gives each touch that went down while recognizers were waiting to those of its view's recognizers that did
    /// not take it then and, reset since, would take it now.
    private func offerTouchesToRecognizersReset() {
        let list = begunWhileWaiting
        begunWhileWaiting.removeAll()
        for (touch, view) in list where !touch.phase.isFinished {
            let late = recognizers(for: touch, in: view).filter { candidate in
                !touch.gestureRecognizers.contains { $0 === candidate }
            }
            guard !late.isEmpty else { continue }
            touch.gestureRecognizers += late
            engage(late, with: touch)
            prepareEvent(touch, adding: false)
            deliverBegan(of: touch, to: late)
        }
    }

    private func processChecks() {
        let list = checkList
        checkList.removeAll(keepingCapacity: true)
        for recognizer in list {
            recognizer.isQueuedForCheck = false
            if recognizer.storedState == .possible, recognizer.pendingState == nil, recognizer.isEngaged,
                !recognizer.hasLiveTouch, recognizer.timerTokens.isEmpty
            {
                // Safety net: nothing can ever decide for it any more (no touch, no timer), so it fails.
                fail(recognizer)
            }
            if recognizer.storedState == .began || recognizer.storedState == .changed, !recognizer.hasLiveTouch,
                recognizer.timerTokens.isEmpty
            {
                // Likewise a continuous gesture whose touches are all gone and that did not end itself.
                finishContinuous(recognizer, as: .cancelled)
            }
            // Failed or ended: reset once its event sequence is over (no finger down, or the fingers down now came
            // after a moment when none was), so a finger joining a sequence in which it failed is not taken.
            if recognizer.storedState.isTerminal, !recognizer.hasLiveTouch,
                liveTouches == 0 || recognizer.sequence != sequence
            {
                resetRecognizer(recognizer)
            }
            if recognizer.storedState == .possible, recognizer.pendingState == nil, !recognizer.isEngaged,
                recognizer.isInEngagedList
            {
                recognizer.isInEngagedList = false
                engaged.removeAll { $0 === recognizer }
            }
        }
        if needsSettle { settle() }
    }

    private func resetRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.cancelAllTimers()
        recognizer.generation &+= 1
        recognizer.storedState = .possible
        recognizer.pendingState = nil
        recognizer.endsOnceBegun = false
        recognizer.sessionTouches.removeAll(keepingCapacity: true)
        recognizer.trackedTouches.removeAll(keepingCapacity: true)
        recognizer.reset()
        recognizer.arena = nil
        if recognizer.isInEngagedList {
            recognizer.isInEngagedList = false
            engaged.removeAll { $0 === recognizer }
        }
        needsSettle = true
    }

    /// Breaks the arena's references to recognizers when its window goes away.
    func tearDown() {
        // Recognizers (and their subclasses' state) hold touches, and touches hold recognizers: reset them all.
        let list = engaged
        engaged.removeAll()
        for recognizer in list {
            recognizer.isInEngagedList = false
            resetRecognizer(recognizer)
        }
        waiting.removeAll()
        checkList.removeAll()
        effects.removeAll()
        effectIndex = 0
        for touch in heldTouches { touch.releaseView() }
        heldTouches.removeAll()
        for touch in event.allTouches { touch.releaseView() }
    }

    // MARK: Introspection for tests and debugging

    var engagedRecognizers: [GestureRecognizer] { engaged }
    var waitingRecognizers: [GestureRecognizer] { waiting }
}
