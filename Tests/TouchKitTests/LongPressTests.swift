import Testing

@testable import TouchKit

@Suite struct LongPressTests {
    @Test("releasing at 0.3 s gives no long press")
    func releaseEarly() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.up(1, 100, 100, at: 0.3)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("holding 0.5 s begins the long press without any event arriving")
    func beginsOnTime() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.49)
        #expect(h.actions.isEmpty)
        h.advance(to: 0.5)
        #expect(h.actions == ["press:began"])
        #expect(press.state == .began)
    }

    @Test("at every start time in hundredths, a finger held exactly 0.5 s begins the long press", arguments: 0..<300)
    func exactDurationBeginsWhateverTheRounding(hundredths: Int) {
        let h = Harness()
        h.add(LongPressGestureRecognizer(), "hold")
        h.down(1, 100, 100, at: Double(hundredths) / 100)
        h.up(1, 100, 100, at: Double(hundredths + 50) / 100)
        #expect(h.actions == ["hold:began", "hold:ended"])
    }

    @Test("movement after the long press began reports changed, not cancelled")
    func movementAfterBegin() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.6)
        h.move(1, 200, 150, at: 0.7)
        h.move(1, 300, 150, at: 0.8)
        h.up(1, 300, 150, at: 0.9)
        #expect(h.actions == ["press:began", "press:changed", "press:changed", "press:ended"])
    }

    @Test("moving 11 px before the duration fails the long press")
    func movementBeforeBegin() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.move(1, 111, 100, at: 0.2)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("moving 10 px before the duration is within the allowance")
    func movementWithinAllowance() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.move(1, 106, 108, at: 0.2)
        h.advance(to: 0.5)
        #expect(h.actions == ["press:began"])
    }

    @Test("the long press's location follows the finger after it began")
    func locationFollows() {
        let h = Harness()
        var locations: [Point] = []
        let press = LongPressGestureRecognizer { p in locations.append(p.location(in: nil)) }
        h.view.addGestureRecognizer(press)
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.5)
        h.move(1, 150, 120, at: 0.6)
        h.up(1, 150, 120, at: 0.7)
        #expect(locations == [pt(100, 100), pt(150, 120), pt(150, 120)])
    }

    @Test("minimumPressDuration and allowableMovement are properties")
    func customThresholds() {
        let h = Harness()
        let press = LongPressGestureRecognizer()
        press.minimumPressDuration = 1
        press.allowableMovement = 40
        h.add(press, "press")
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 100, at: 0.5)
        h.advance(to: 0.9)
        #expect(h.actions.isEmpty)
        h.advance(to: 1)
        #expect(h.actions == ["press:began"])
    }

    @Test("a two-finger long press needs both fingers")
    func twoFingerPress() {
        let h = Harness()
        let press = LongPressGestureRecognizer()
        press.numberOfTouchesRequired = 2
        h.add(press, "press")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.6)
        #expect(h.actions.isEmpty)
        h.down(2, 200, 100, at: 0.7)
        h.advance(to: 1.2)
        #expect(h.actions == ["press:began"])
    }

    @Test("a two-finger press fails when one finger lifts before the duration, though the other stays down")
    func twoFingerPressFailsWhenAFingerLifts() {
        let h = Harness()
        let press = LongPressGestureRecognizer()
        press.numberOfTouchesRequired = 2
        h.add(press, "press")
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 100, at: 0.05)
        h.up(2, 200, 100, at: 0.2)
        h.advance(to: 1.0)
        #expect(h.actions.isEmpty)
        #expect(press.state != .began)
    }

    @Test("a tap then a press makes a long press with one required tap")
    func tapThenPress() {
        let h = Harness()
        let press = LongPressGestureRecognizer()
        press.numberOfTapsRequired = 1
        h.add(press, "press")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.down(1, 100, 100, at: 0.2)
        h.advance(to: 0.69)
        #expect(h.actions.isEmpty)
        h.advance(to: 0.7)
        #expect(h.actions == ["press:began"])
    }

    @Test("a press without the required tap first is not a long press")
    func pressWithoutTap() {
        let h = Harness()
        let press = LongPressGestureRecognizer()
        press.numberOfTapsRequired = 1
        h.add(press, "press")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 2)
        #expect(h.actions.isEmpty)
    }

    @Test("a second finger after the long press began is left to the view")
    func extraFingerIgnored() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.5)
        h.log.clear()
        h.down(2, 300, 300, at: 0.6)
        h.move(2, 350, 300, at: 0.7)
        h.up(2, 350, 300, at: 0.8)
        #expect(h.log.entries == ["view.began", "view.moved", "view.ended"])
        #expect(press.state == .began)
    }

    @Test("a long press that begins takes the finger from the view with reason gestureRecognized")
    func cancelsTouchInView() {
        let h = Harness()
        h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.move(1, 103, 100, at: 0.1)
        h.advance(to: 0.5)
        h.move(1, 150, 100, at: 0.6)
        h.up(1, 150, 100, at: 0.7)
        #expect(
            h.log.entries == [
                "view.began", "view.moved", "view.cancelled(gesture)", "press:began", "press:changed", "press:ended",
            ])
    }
}
