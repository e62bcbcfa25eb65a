/// A recognizer's requests to change state, decided by UIKit's rules: failure requirements, exclusion and
/// simultaneous recognition.
extension GestureArena {
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

    func finishContinuous(_ recognizer: GestureRecognizer, as state: GestureRecognizer.State) {
        recognizer.storedState = state
        recognizer.cancelAllTimers()
        enqueue(.action(recognizer, state))
        needsCheck(recognizer)
    }

    func fail(_ recognizer: GestureRecognizer) {
        guard recognizer.storedState == .possible else { return }
        recognizer.storedState = .failed
        recognizer.pendingState = nil
        recognizer.cancelAllTimers()
        needsCheck(recognizer)
        needsSettle = true
    }

    /// Resolves waiting recognizers until nothing changes.
    func settle() {
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

    func shouldBegin(_ recognizer: GestureRecognizer) -> Bool { Self.shouldBegin(recognizer) }

    enum Verdict { case wait, fail, proceed }

    func verdict(for recognizer: GestureRecognizer) -> Verdict {
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

    func requiresFailure(of other: GestureRecognizer, by recognizer: GestureRecognizer) -> Bool {
        recognizer.shouldRequireFailure(of: other) || other.shouldBeRequiredToFail(by: recognizer)
            || (recognizer.delegate?.gestureRecognizer(recognizer, shouldRequireFailureOf: other) ?? false)
            || (other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: recognizer) ?? false)
    }

    /// Whether two recognizers compete: they have received a touch in common.
    func competes(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        for touch in a.trackedTouches where b.tracks(touch) { return true }
        return false
    }

    func simultaneous(_ a: GestureRecognizer, _ b: GestureRecognizer) -> Bool {
        (a.delegate?.gestureRecognizer(a, shouldRecognizeSimultaneouslyWith: b) ?? false)
            || (b.delegate?.gestureRecognizer(b, shouldRecognizeSimultaneouslyWith: a) ?? false)
    }

    /// Takes a recognizer out of possible: fails its competitors, takes its touches from the view, queues its action.
    func recognize(_ recognizer: GestureRecognizer, as target: GestureRecognizer.State) {
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
}
