import Testing

@testable import TouchKit

@Suite struct TapTests {
    @Test("a tap that stays within the slop is recognized when the finger lifts")
    func tapWithinSlop() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.move(1, 110, 100, at: 0.05)
        h.up(1, 110, 100, at: 0.1)
        #expect(h.actions == ["tap:ended"])
        #expect(tap.state == .possible)
    }

    @Test("a tap that moves 1 px beyond the slop fails")
    func tapBeyondSlop() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.move(1, 111, 100, at: 0.05)
        h.up(1, 100, 100, at: 0.1)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("a finger that wanders out of the slop and back still fails the tap")
    func tapOutAndBack() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.move(1, 100, 125, at: 0.05)
        h.move(1, 100, 100, at: 0.08)
        h.up(1, 100, 100, at: 0.1)
        #expect(h.actions.isEmpty)
    }

    @Test("a press longer than the maximum tap duration is not a tap")
    func tapTooLong() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.up(1, 100, 100, at: 0.6)
        #expect(h.actions.isEmpty)
    }

    @Test("a press just under the maximum tap duration is still a tap")
    func tapAtMaximumDuration() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.up(1, 100, 100, at: 0.49)
        #expect(h.actions == ["tap:ended"])
    }

    @Test(
        "a press of exactly the maximum tap duration is a tap: the limit is at most 0.5 s", arguments: [0.0, 1.0, 7.3])
    func tapOfExactlyMaximumDuration(start: TimeInterval) {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.advance(to: start)
        h.down(1, 100, 100, at: start)
        h.up(1, 100, 100, at: start + 0.5)
        #expect(h.actions == ["tap:ended"])
    }

    @Test(
        "at every start time in hundredths, a press of exactly 0.5 s is a tap and a gap of exactly 0.35 s a double tap",
        arguments: 5..<300)
    func boundariesHoldWhateverTheRounding(hundredths: Int) {
        let h = Harness()
        let single = h.add(TapGestureRecognizer(), "tap")
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        single.require(toFail: double)
        let start = Double(hundredths) / 100
        // Decimal times as a script gives them: the end is its own decimal, not start + 0.5 worked out in binary.
        h.down(1, 100, 100, at: start - 0.05)
        h.up(1, 100, 100, at: start)
        h.down(2, 100, 100, at: Double(hundredths + 35) / 100)
        h.up(2, 100, 100, at: Double(hundredths + 85) / 100)
        #expect(h.actions == ["double:ended"])
    }

    @Test("a tap with no time limit (an infinite maximum duration) is a tap however long it is held")
    func tapWithoutTimeLimit() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.maximumTapDuration = .infinity
        h.add(tap, "tap")
        h.down(1, 100, 100, at: 0)
        h.up(1, 100, 100, at: 30)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("a second tap exactly the maximum interval after the first lifted makes a double tap")
    func doubleTapAtExactlyMaximumInterval() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.down(1, 100, 100, at: 1.0)
        h.up(1, 100, 100, at: 1.1)
        h.down(2, 100, 100, at: 1.1 + 0.35)
        h.up(2, 100, 100, at: 1.5)
        #expect(h.actions == ["double:ended"])
    }

    @Test("the tap's location is where the finger lifted, in any view's coordinates")
    func tapLocation() {
        let h = Harness()
        let inner = View(frame: Rect(x: 50, y: 60, width: 200, height: 200))
        h.view.addSubview(inner)
        var seen: [Point] = []
        let tap = TapGestureRecognizer { tap in seen = [tap.location(in: nil), tap.location(in: inner)] }
        h.view.addGestureRecognizer(tap)
        h.tap(100, 100, at: 0)
        #expect(seen == [pt(100, 100), pt(50, 40)])
        #expect(tap.numberOfTouches == 0)
    }

    @Test("a double tap with a 0.34 s gap is recognized")
    func doubleTapInTime() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.39, duration: 0.05)
        #expect(h.actions == ["double:ended"])
    }

    @Test("a double tap reports the first tap's place as its location, as UIKit does, not the last tap's")
    func doubleTapLocationIsTheFirstTap() {
        let h = Harness()
        let double = h.add(TapGestureRecognizer(), "double")
        double.numberOfTapsRequired = 2
        var reported: Point?
        double.addTarget { (r: TapGestureRecognizer) in if r.state == .ended { reported = r.location(in: nil) } }
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(130, 120, at: 0.2, duration: 0.05)
        #expect(h.actions == ["double:ended"])
        #expect(reported == pt(100, 100))
    }

    @Test(
        """
        a tap that failed stays failed until every finger has lifted: a quick tap by a third finger while a second \
        is still down is ignored, and taps work again once all have lifted
        """)
    func failedTapWaitsForTheEventSequenceToEnd() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.move(1, 200, 100, at: 0.05)
        h.down(2, 300, 300, at: 0.1)
        h.up(1, 200, 100, at: 0.15)
        h.tap(500, 500, at: 0.2, duration: 0.05, id: 3)
        h.advance(to: 0.4)
        #expect(h.actions.isEmpty)
        h.up(2, 300, 300, at: 0.5)
        h.tap(500, 500, at: 0.6, duration: 0.05, id: 4)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("a double tap with a 0.36 s gap is not recognized")
    func doubleTapTooSlow() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.41, duration: 0.05)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("a second tap 50 px from the first is not a double tap")
    func doubleTapTooFar() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(150, 100, at: 0.2, duration: 0.05)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("a second tap 40 px from the first is a double tap")
    func doubleTapNearEnough() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(140, 100, at: 0.2, duration: 0.05)
        #expect(h.actions == ["double:ended"])
    }

    @Test("a third tap after a too-slow second forms a double tap with the second")
    func thirdTapPairsWithSecond() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.5, duration: 0.05)
        #expect(h.actions.isEmpty)
        h.tap(100, 100, at: 0.7, duration: 0.05)
        #expect(h.actions == ["double:ended"])
    }

    @Test("overlapping fingers are not a double tap")
    func overlappingFingers() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.down(1, 100, 100, at: 0)
        h.down(2, 105, 100, at: 0.05)
        h.up(1, 100, 100, at: 0.1)
        h.up(2, 105, 100, at: 0.15)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("a triple tap needs three taps in a row")
    func tripleTap() {
        let h = Harness()
        let triple = TapGestureRecognizer()
        triple.numberOfTapsRequired = 3
        h.add(triple, "triple")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        #expect(h.actions.isEmpty)
        h.tap(100, 100, at: 0.4, duration: 0.05)
        #expect(h.actions == ["triple:ended"])
    }

    @Test("a two-finger tap needs both fingers down and up within the duration")
    func twoFingerTap() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.numberOfTouchesRequired = 2
        h.add(tap, "two")
        var count = 0
        tap.addTarget { t in count = t.numberOfTouches }
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 100, at: 0.02)
        h.up(1, 100, 100, at: 0.1)
        h.up(2, 200, 100, at: 0.12)
        #expect(h.actions == ["two:ended"])
        #expect(count == 2)
    }

    @Test("a two-finger tap's location is the centroid of its fingers")
    func twoFingerTapCentroid() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.numberOfTouchesRequired = 2
        var location = Point.zero
        tap.addTarget { t in location = t.location(in: nil) }
        h.view.addGestureRecognizer(tap)
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 200, at: 0.02)
        h.up(1, 100, 100, at: 0.1)
        h.up(2, 200, 200, at: 0.12)
        #expect(location == pt(150, 150))
    }

    @Test("one finger does not make a two-finger tap")
    func oneFingerIsNotTwo() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.numberOfTouchesRequired = 2
        h.add(tap, "two")
        h.tap(100, 100, at: 0)
        h.settle()
        #expect(h.actions.isEmpty)
        #expect(tap.state == .possible)
    }

    @Test("two fingers fail a one-finger tap")
    func twoFingersFailOneFingerTap() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 100, at: 0.02)
        h.up(1, 100, 100, at: 0.1)
        h.up(2, 200, 100, at: 0.12)
        #expect(h.actions.isEmpty)
    }

    @Test("every threshold of the tap is a property")
    func tapThresholdsAreProperties() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.allowableMovement = 30
        tap.maximumTapDuration = 2
        h.add(tap, "tap")
        h.down(1, 100, 100, at: 0)
        h.move(1, 125, 100, at: 0.5)
        h.up(1, 125, 100, at: 1.5)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("Touch.tapCount counts quick taps in the same place")
    func touchTapCount() {
        let h = Harness()
        var counts: [Int] = []
        let view = h.view
        h.tap(100, 100, at: 0, duration: 0.05)
        counts.append(view.finishedTouches.first { $0.timestamp == 0.05 }?.tapCount ?? 0)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        h.tap(100, 100, at: 0.4, duration: 0.05)
        h.tap(300, 100, at: 0.6, duration: 0.05)
        let all = view.finishedTouches.sorted { $0.identifier < $1.identifier }.map(\.tapCount)
        #expect(all == [1, 2, 3, 1])
        #expect(counts == [1])
    }

    @Test("a tap counts once: its action fires once and the recognizer is ready for the next")
    func tapRepeats() {
        let h = Harness()
        h.add(TapGestureRecognizer(), "tap")
        h.tap(100, 100, at: 0)
        h.tap(400, 100, at: 1)
        h.tap(100, 400, at: 2)
        #expect(h.actions == ["tap:ended", "tap:ended", "tap:ended"])
    }
}

/// Qt's QGestureRecognizer tests re-expressed: a single tap that must wait for a double tap to fail.
@Suite struct SingleDoubleTapExclusivityTests {
    func setUp() -> (Harness, TapGestureRecognizer, TapGestureRecognizer) {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer()
        single.require(toFail: double)
        h.add(double, "double")
        h.add(single, "single")
        return (h, single, double)
    }

    @Test("one tap gives the single tap only after the double-tap interval")
    func singleAfterInterval() {
        let (h, _, _) = setUp()
        h.tap(100, 100, at: 0, duration: 0.05)
        #expect(h.actions.isEmpty)
        h.advance(to: 0.39)
        #expect(h.actions.isEmpty)
        h.advance(to: 0.41)
        #expect(h.actions == ["single:ended"])
    }

    @Test("two taps give the double tap only")
    func doubleOnly() {
        let (h, single, double) = setUp()
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        h.settle()
        #expect(h.actions == ["double:ended"])
        #expect(single.state == .possible)
        #expect(double.state == .possible)
    }

    @Test("two slow taps give two single taps")
    func twoSlowTaps() {
        let (h, _, _) = setUp()
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 1, duration: 0.05)
        h.settle()
        #expect(h.actions == ["single:ended", "single:ended"])
    }

    @Test("a single tap's location is reported when it finally recognizes")
    func singleLocationAfterWait() {
        let (h, single, _) = setUp()
        var location = Point.zero
        single.addTarget { t in location = t.location(in: h.view) }
        h.tap(123, 45, at: 0, duration: 0.05)
        h.settle()
        #expect(location == pt(123, 45))
    }

    @Test("a quick second tap far from the first gives two single taps (the far touch fails the double tap)")
    func quickTapElsewhere() {
        let (h, _, _) = setUp()
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(400, 400, at: 0.15, duration: 0.05)
        h.settle()
        #expect(h.actions == ["single:ended", "single:ended"])
    }

    @Test("a tap followed quickly by a drag gives the single tap once the drag fails the double tap")
    func tapThenDrag() {
        let (h, _, _) = setUp()
        h.tap(100, 100, at: 0, duration: 0.05)
        h.down(2, 100, 100, at: 0.15)
        #expect(h.actions.isEmpty)
        h.move(2, 130, 100, at: 0.2)
        #expect(h.actions == ["single:ended"])
    }
}
