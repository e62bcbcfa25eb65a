import Testing

@testable import TouchKit

@Suite struct LifecycleTests {
    @Test("disabling a pan mid-gesture cancels it, with an action")
    func disableCancels() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 2, lift: false)
        pan.isEnabled = false
        #expect(pan.state == .cancelled)
        #expect(h.actions == ["pan:began", "pan:changed", "pan:cancelled"])
        h.move(1, 250, 100, at: 0.3)
        h.up(1, 250, 100, at: 0.4)
        #expect(h.actions == ["pan:began", "pan:changed", "pan:cancelled"])
        #expect(pan.state == .possible)
    }

    @Test("disabling a possible recognizer fails it silently and lets the ones waiting on it go")
    func disableFailsPossible() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer()
        single.require(toFail: double)
        h.add(double, "double")
        h.add(single, "single")
        h.tap(100, 100, at: 0, duration: 0.05)
        double.isEnabled = false
        #expect(h.actions == ["single:ended"])
    }

    @Test("a disabled recognizer receives no touches and re-enabling restores it")
    func disabledReceivesNothing() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(), "tap")
        tap.isEnabled = false
        h.tap(100, 100, at: 0)
        #expect(h.log.entries == ["view.began", "view.ended"])
        tap.isEnabled = true
        h.tap(100, 100, at: 1)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("removing a recognizer mid-gesture stops it without further actions")
    func removeMidGesture() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 2, lift: false)
        h.view.removeGestureRecognizer(pan)
        h.move(1, 250, 100, at: 0.3)
        h.up(1, 250, 100, at: 0.4)
        #expect(h.actions == ["pan:began", "pan:changed"])
        #expect(pan.state == .possible)
        #expect(pan.view == nil)
    }

    @Test("a recognized gesture stays in its end state until its touches lift, then resets")
    func resetAfterTouchesEnd() {
        let h = Harness()
        final class Counting: SwipeGestureRecognizer {
            var resets = 0
            override func reset() {
                super.reset()
                resets += 1
            }
        }
        let swipe = h.add(Counting(), "swipe")
        h.drag(from: pt(100, 100), to: pt(300, 100), at: 0, duration: 0.1, lift: false)
        #expect(swipe.state == .ended)
        #expect(swipe.resets == 0)
        h.up(1, 300, 100, at: 0.2)
        #expect(swipe.state == .possible)
        #expect(swipe.resets == 1)
    }

    @Test("a failed recognizer ignores new fingers until all its touches lift")
    func failedIgnoresNewFingers() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.move(1, 150, 100, at: 0.1)
        #expect(tap.state == .failed)
        h.tap(400, 400, at: 0.2, id: 2)
        #expect(h.actions.isEmpty)
        h.up(1, 150, 100, at: 0.4)
        h.tap(400, 400, at: 0.5, id: 2)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("several actions all fire, in the order added")
    func severalActions() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        var order: [Int] = []
        tap.addTarget { _ in order.append(1) }
        tap.addTarget { _ in order.append(2) }
        tap.addTarget { _ in order.append(3) }
        h.view.addGestureRecognizer(tap)
        h.tap(100, 100, at: 0)
        #expect(order == [1, 2, 3])
    }

    @Test("removeTarget with a token removes just that action")
    func removeByToken() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        var order: [Int] = []
        tap.addTarget { _ in order.append(1) }
        let token = tap.addTarget { _ in order.append(2) }
        h.view.addGestureRecognizer(tap)
        tap.removeTarget(token)
        tap.removeTarget(token)
        h.tap(100, 100, at: 0)
        #expect(order == [1])
        #expect(tap.numberOfActions == 1)
    }

    final class Controller {
        var taps = 0
        func handle(_ tap: TapGestureRecognizer) { taps += 1 }
    }

    @Test("a target is held weakly and removeTarget(target) removes its actions")
    func weakTarget() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        h.view.addGestureRecognizer(tap)
        let controller = Controller()
        tap.addTarget(controller) { c, t in c.handle(t) }
        h.tap(100, 100, at: 0)
        #expect(controller.taps == 1)
        tap.removeTarget(controller)
        h.tap(100, 100, at: 1)
        #expect(controller.taps == 1)
        weak var gone: Controller?
        do {
            let temporary = Controller()
            gone = temporary
            tap.addTarget(temporary) { c, t in c.handle(t) }
        }
        #expect(gone == nil)
        h.tap(100, 100, at: 2)
    }

    @Test("actions never fire for possible or failed")
    func noActionsForPossibleOrFailed() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.add(LongPressGestureRecognizer(), "press")
        h.drag(from: pt(100, 100), to: pt(300, 100), at: 0)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("a recognizer outside any window applies its transitions at once")
    func detachedRecognizer() {
        let tap = TapGestureRecognizer()
        var states: [GestureRecognizer.State] = []
        tap.addTarget { t in states.append(t.state) }
        tap.state = .ended
        #expect(states == [.ended])
        #expect(tap.state == .possible)
    }

    @Test("invalid transitions requested by a subclass are ignored")
    func invalidTransitions() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        pan.state = .changed
        #expect(pan.state == .possible)
        pan.state = .possible
        #expect(pan.state == .possible)
        h.up(1, 100, 100, at: 0.1)
        #expect(h.actions.isEmpty)
    }

    @Test("a recognizer added to a second view leaves the first")
    func moveBetweenViews() {
        let h = Harness()
        let other = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        h.view.addSubview(other)
        let tap = h.add(TapGestureRecognizer(), "tap")
        other.addGestureRecognizer(tap)
        #expect(h.view.gestureRecognizers.isEmpty)
        #expect(other.gestureRecognizers.count == 1)
        #expect(tap.view === other)
    }
}

/// A custom recognizer written the documented way: override the touch methods and set `state`.
final class CheckmarkGestureRecognizer: GestureRecognizer {
    private var lowest: Point?
    private var start: Point?

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        if touches.count != 1 || start != nil {
            state = .failed
            return
        }
        start = touches.first?.location(in: nil)
        lowest = start
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let touch = touches.first, let lowest else { return }
        let p = touch.location(in: nil)
        if p.y > lowest.y { self.lowest = p }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let start, let lowest, let end = touches.first?.location(in: nil) else { return }
        let down = lowest.y - start.y > 30 && lowest.x > start.x
        let up = lowest.y - end.y > 60 && end.x > lowest.x
        state = down && up ? .recognized : .failed
    }

    override func reset() {
        super.reset()
        lowest = nil
        start = nil
    }
}

/// A continuous custom recognizer driven by a timer: "hold still for 1 s, then each second reports changed".
final class MetronomeGestureRecognizer: GestureRecognizer {
    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        tick()
    }

    private func tick() {
        scheduleTimer(after: 1) { [weak self] in
            guard let self else { return }
            self.state = self.state == .possible ? .began : .changed
            self.tick()
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        state = state == .possible ? .failed : .ended
    }
}

@Suite struct CustomRecognizerTests {
    @Test("a custom discrete recognizer recognizes its stroke and fails others")
    func checkmark() {
        let h = Harness()
        h.add(CheckmarkGestureRecognizer(), "check")
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 150, at: 0.1)
        h.move(1, 200, 50, at: 0.2)
        h.up(1, 200, 50, at: 0.3)
        #expect(h.log.entries == ["view.began", "view.moved", "view.moved", "view.cancelled(gesture)", "check:ended"])
    }

    @Test("a custom recognizer that sees the wrong stroke fails")
    func notCheckmark() {
        let h = Harness()
        h.add(CheckmarkGestureRecognizer(), "check")
        h.drag(from: pt(100, 100), to: pt(300, 100), at: 0)
        #expect(h.actions.isEmpty)
    }

    @Test("a custom continuous recognizer can drive itself with timers, which stop at reset")
    func metronome() {
        let h = Harness()
        let metronome = h.add(MetronomeGestureRecognizer(), "tick")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 3.5)
        h.up(1, 100, 100, at: 3.6)
        #expect(h.actions == ["tick:began", "tick:changed", "tick:changed", "tick:ended"])
        #expect(!h.clock.hasPendingTimers)
        #expect(metronome.state == .possible)
    }

    @Test("a custom recognizer that never decides is failed once its touches and timers are gone")
    func undecidedIsFailed() {
        let h = Harness()
        final class Undecided: GestureRecognizer {}
        let undecided = h.add(Undecided(), "undecided")
        let single = h.add(TapGestureRecognizer(), "tap")
        single.require(toFail: undecided)
        h.tap(100, 100, at: 0)
        #expect(h.actions == ["tap:ended"])
        #expect(undecided.state == .possible)
    }

    @Test("canPrevent false lets a recognizer recognize without failing the others")
    func canPreventOverride() {
        let h = Harness()
        final class Polite: TapGestureRecognizer {
            override func canPrevent(_ other: GestureRecognizer) -> Bool { false }
        }
        h.add(Polite(), "polite")
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        #expect(h.actions == ["polite:ended", "polite:ended", "double:ended"])
    }
}
