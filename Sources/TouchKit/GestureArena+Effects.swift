/// What a turn's decisions do once it settles: touches cancelled in views, actions sent, and the end of the turn.
extension GestureArena {
    // MARK: Effects and the end of a turn

    func enqueue(_ effect: Effect) {
        effects.append(effect)
    }

    func needsCheck(_ recognizer: GestureRecognizer) {
        guard !recognizer.isQueuedForCheck else { return }
        recognizer.isQueuedForCheck = true
        checkList.append(recognizer)
    }

    /// Cancels claimed touches in their views, then sends actions, in the order the state changes happened.
    func runEffects() {
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

    func cancelInViews(_ touches: [Touch]) {
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

    func flush() {
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
    func offerTouchesToRecognizersReset() {
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

    func processChecks() {
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

    func resetRecognizer(_ recognizer: GestureRecognizer) {
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
}
