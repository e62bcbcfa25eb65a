import Testing

@testable import TouchKit

@Suite struct DelegateTests {
    @Test("shouldReceive false hides a touch from the recognizer, and the view gets it untouched")
    func shouldReceiveFalse() {
        let h = Harness()
        let delegate = TestDelegate()
        delegate.shouldReceive = { _, touch in touch.location(in: nil).x > 400 }
        let tap = h.add(TapGestureRecognizer(), "tap")
        tap.delegate = delegate
        h.tap(100, 100, at: 0)
        #expect(h.log.entries == ["view.began", "view.ended"])
        h.tap(500, 100, at: 1)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("shouldBegin false fails the recognizer and the view keeps its touch")
    func shouldBeginFalse() {
        let h = Harness()
        let delegate = TestDelegate()
        delegate.shouldBegin = { _ in false }
        let press = h.add(LongPressGestureRecognizer(), "press")
        press.delegate = delegate
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.6)
        #expect(press.state == .failed)
        h.move(1, 200, 100, at: 0.7)
        h.up(1, 200, 100, at: 0.8)
        #expect(h.log.entries == ["view.began", "view.moved", "view.ended"])
        #expect(delegate.askedToBegin == 1)
        #expect(press.state == .possible)
    }

    @Test("the view's gestureRecognizerShouldBegin can veto too")
    func viewVetoes() {
        let h = Harness()
        h.view.shouldBeginAnswer = false
        h.add(TapGestureRecognizer(), "tap")
        h.tap(100, 100, at: 0)
        #expect(h.log.entries == ["view.began", "view.ended"])
    }

    @Test("a touched subview's gestureRecognizerShouldBegin vetoes its ancestor's recognizer, as a control does")
    func touchedSubviewVetoesAncestorRecognizer() {
        let h = Harness()
        let control = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 200), log: h.log, label: "control")
        control.shouldBeginAnswer = false
        h.view.addSubview(control)
        h.add(TapGestureRecognizer(), "tap")
        h.tap(100, 100, at: 0)
        h.tap(300, 300, at: 1)
        #expect(h.actions == ["tap:ended"])
        #expect(h.log.entries.prefix(2) == ["control.began", "control.ended"])
    }

    @Test("shouldBegin is asked only when the recognizer is about to begin")
    func shouldBeginTiming() {
        let h = Harness()
        let delegate = TestDelegate()
        let pan = h.add(PanGestureRecognizer(), "pan")
        pan.delegate = delegate
        h.down(1, 100, 100, at: 0)
        h.move(1, 105, 100, at: 0.1)
        #expect(delegate.askedToBegin == 0)
        h.move(1, 120, 100, at: 0.2)
        #expect(delegate.askedToBegin == 1)
    }

    @Test("two pans on one view are exclusive: the first to begin wins")
    func twoPansExclusive() {
        let h = Harness()
        let first = h.add(PanGestureRecognizer(), "first")
        let second = h.add(PanGestureRecognizer(), "second")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 2, lift: false)
        #expect(first.state == .changed)
        #expect(second.state == .failed)
        #expect(h.actions == ["first:began", "first:changed"])
    }

    @Test("either delegate allowing simultaneous recognition lets both pans run")
    func simultaneousEitherDelegate() {
        let h = Harness()
        let delegate = TestDelegate()
        delegate.simultaneous = { _, _ in true }
        h.add(PanGestureRecognizer(), "first")
        let second = h.add(PanGestureRecognizer(), "second")
        second.delegate = delegate
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 2)
        #expect(
            h.actions == [
                "first:began", "second:began", "first:changed", "second:changed", "first:ended", "second:ended",
            ])
    }

    @Test("shouldRequireFailureOf holds a tap until the double tap fails")
    func delegateRequiresFailure() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        let single = h.add(TapGestureRecognizer(), "single")
        let delegate = TestDelegate()
        delegate.requireFailureOf = { _, other in other === double }
        single.delegate = delegate
        h.tap(100, 100, at: 0, duration: 0.05)
        #expect(h.actions.isEmpty)
        h.settle()
        #expect(h.actions == ["single:ended"])
    }

    @Test("shouldBeRequiredToFailBy makes the other recognizer wait")
    func delegateRequiredToFail() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        let single = h.add(TapGestureRecognizer(), "single")
        let delegate = TestDelegate()
        delegate.requiredToFailBy = { _, other in other === single }
        double.delegate = delegate
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        h.settle()
        #expect(h.actions == ["double:ended"])
    }

    @Test("a recognizer whose requirement recognizes fails")
    func requirementRecognizes() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        pan.require(toFail: swipe)
        h.drag(from: pt(100, 100), to: pt(300, 100), at: 0, duration: 0.1)
        #expect(h.actions == ["swipe:ended"])
    }

    @Test(
        "a pan that begins and ends in one turn (its requirement fails as the finger lifts) reports began, then ended",
        arguments: [true, false])
    func beganAndEndedInOneTurn(panFirst: Bool) {
        let h = Harness()
        let pan: PanGestureRecognizer
        let swipe: SwipeGestureRecognizer
        if panFirst {
            pan = h.add(PanGestureRecognizer(), "pan")
            swipe = h.add(SwipeGestureRecognizer(), "swipe")
        } else {
            swipe = h.add(SwipeGestureRecognizer(), "swipe")
            pan = h.add(PanGestureRecognizer(), "pan")
        }
        pan.require(toFail: swipe)
        // Too slow and short for a swipe, which fails only as the finger lifts.
        h.down(1, 100, 100, at: 0)
        h.move(1, 115, 100, at: 0.08)
        h.move(1, 130, 100, at: 0.15)
        h.up(1, 130, 100, at: 0.2)
        h.settle()
        #expect(h.actions == ["pan:began", "pan:ended"])
    }

    @Test("a pan waiting for a swipe to fail begins once the swipe fails, with its full translation")
    func panAfterSwipeFails() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        pan.require(toFail: swipe)
        var translation = Point.zero
        pan.addTarget { p in translation = p.translation(in: nil) }
        h.down(1, 100, 100, at: 0)
        h.move(1, 120, 100, at: 0.1)
        #expect(pan.state == .possible)
        // A swipe may still be made at exactly 0.5 s: it fails once that is past.
        h.advance(to: 0.5)
        #expect(h.actions.isEmpty)
        h.advance(to: 0.501)
        #expect(h.actions == ["pan:began"])
        #expect(translation == pt(20, 0))
        h.move(1, 130, 100, at: 0.6)
        #expect(h.actions == ["pan:began", "pan:changed"])
        #expect(translation == pt(30, 0))
    }

    @Test(
        """
        a long press held its 0.5 s and waiting for a swipe that may still be made at that instant is not failed by \
        a move at that instant: it begins once the swipe fails, at the finger's new place
        """)
    func longPressWaitingForASwipeKeepsAMoveAtItsDeadline() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(), "press")
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        swipe.numberOfTouchesRequired = 3
        press.require(toFail: swipe)
        var location = Point.zero
        press.addTarget { p in location = p.location(in: nil) }
        h.down(1, 100, 100, at: 0)
        h.move(1, 100, 200, at: 0.5)
        h.advance(to: 0.501)
        #expect(h.actions == ["press:began"])
        #expect(location == pt(100, 200))
    }
}
