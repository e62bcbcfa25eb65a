import Testing

@testable import TouchKit

@Suite struct PanTests {
    @Test("a pan begins only once the finger has travelled more than 10 px")
    func beginsAfterSlop() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 110, 100, at: 0.05)
        #expect(pan.state == .possible)
        h.move(1, 111, 100, at: 0.1)
        #expect(h.actions == ["pan:began"])
        h.move(1, 130, 100, at: 0.15)
        h.up(1, 130, 100, at: 0.2)
        #expect(h.actions == ["pan:began", "pan:changed", "pan:ended"])
    }

    @Test("a tap competing with a pan fails exactly when the pan begins")
    func tapFailsWhenPanBegins() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.allowableMovement = 50
        h.add(tap, "tap")
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 110, 100, at: 0.05)
        #expect(tap.state == .possible)
        h.move(1, 111, 100, at: 0.1)
        #expect(tap.state == .failed)
        #expect(pan.state == .began)
        h.up(1, 111, 100, at: 0.15)
        #expect(h.actions == ["pan:began", "pan:ended"])
    }

    @Test("a finger that never leaves the slop fails the pan when it lifts")
    func panFailsOnLift() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        var states: [GestureRecognizer.State] = []
        h.down(1, 100, 100, at: 0)
        h.move(1, 105, 100, at: 0.05)
        h.up(1, 105, 100, at: 0.1)
        states.append(pan.state)
        #expect(h.actions.isEmpty)
        #expect(states == [.possible])
    }

    @Test("translation counts from where the finger went down")
    func translationFromDown() {
        let h = Harness()
        var translations: [Point] = []
        let pan = PanGestureRecognizer { p in translations.append(p.translation(in: nil)) }
        h.view.addGestureRecognizer(pan)
        h.down(1, 100, 100, at: 0)
        h.move(1, 112, 105, at: 0.05)
        h.move(1, 150, 120, at: 0.1)
        h.up(1, 150, 120, at: 0.15)
        #expect(translations == [pt(12, 5), pt(50, 20), pt(50, 20)])
    }

    @Test("setTranslation(.zero) in the action makes each report the step since the last")
    func setTranslationResets() {
        let h = Harness()
        var steps: [Point] = []
        let pan = PanGestureRecognizer { p in
            steps.append(p.translation(in: nil))
            p.setTranslation(.zero, in: nil)
        }
        h.view.addGestureRecognizer(pan)
        h.down(1, 100, 100, at: 0)
        h.move(1, 120, 100, at: 0.05)
        h.move(1, 125, 103, at: 0.1)
        h.move(1, 125, 110, at: 0.15)
        #expect(steps == [pt(20, 0), pt(5, 3), pt(0, 7)])
    }

    @Test("translation is reported in the coordinates of the view asked about")
    func translationInScaledView() {
        let h = Harness()
        let scaled = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        scaled.transform = AffineTransform(scaleX: 2, y: 2)
        h.view.addSubview(scaled)
        var translation = Point.zero
        let pan = PanGestureRecognizer { p in translation = p.translation(in: scaled) }
        h.view.addGestureRecognizer(pan)
        h.down(1, 300, 300, at: 0)
        h.move(1, 340, 320, at: 0.05)
        #expect(translation.isClose(to: pt(20, 10)))
    }

    @Test("setTranslation in a scaled view is converted back to window units")
    func setTranslationInScaledView() {
        let h = Harness()
        let scaled = View(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        scaled.transform = AffineTransform(scaleX: 2, y: 2)
        h.view.addSubview(scaled)
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 300, 300, at: 0)
        h.move(1, 340, 300, at: 0.05)
        pan.setTranslation(pt(5, 5), in: scaled)
        #expect(pan.translation(in: scaled).isClose(to: pt(5, 5)))
        #expect(pan.translation(in: nil).isClose(to: pt(10, 10)))
    }

    @Test("a second finger joining a pan does not make the translation jump")
    func secondFingerNoJump() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 100, at: 0.05)
        h.down(2, 300, 300, at: 0.1)
        #expect(pan.translation(in: nil) == pt(30, 0))
        h.move(1, 140, 100, at: 0.15)
        h.move(2, 310, 300, at: 0.15)
        #expect(pan.translation(in: nil).isClose(to: pt(40, 0)))
        #expect(pan.numberOfTouches == 2)
    }

    @Test("lifting one of two fingers keeps the pan going without a jump")
    func liftOneFinger() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 100, at: 0)
        h.move(1, 120, 100, at: 0.05)
        h.move(2, 220, 100, at: 0.05)
        h.up(2, 220, 100, at: 0.1)
        #expect(pan.state == .began)
        h.move(1, 130, 100, at: 0.15)
        #expect(pan.translation(in: nil).isClose(to: pt(30, 0)))
    }

    @Test("a pan with a minimum of two fingers ignores one finger")
    func minimumTwoFingers() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.minimumNumberOfTouches = 2
        h.add(pan, "pan")
        h.drag(from: pt(100, 100), to: pt(300, 100), at: 0)
        #expect(h.actions.isEmpty)
    }

    @Test("a two-finger pan counts no travel made before the second finger came: it begins on travel with both")
    func twoFingerPanIgnoresOneFingerTravel() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.minimumNumberOfTouches = 2
        h.add(pan, "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 200, 100, at: 0.05)
        h.down(2, 300, 100, at: 0.1)
        h.move(1, 201, 100, at: 0.15)
        #expect(h.actions.isEmpty)
        h.move(1, 225, 100, at: 0.2)
        #expect(h.actions == ["pan:began"])
        #expect(pan.translation(in: nil) == pt(12.5, 0))
    }

    @Test("a two-finger pan begins when both fingers move")
    func twoFingerPan() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.minimumNumberOfTouches = 2
        h.add(pan, "pan")
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 100, at: 0)
        h.move(1, 100, 130, at: 0.05)
        #expect(h.actions == ["pan:began"])
        h.move(2, 200, 130, at: 0.05)
        #expect(h.actions == ["pan:began", "pan:changed"])
        h.up(1, 100, 130, at: 0.1)
        #expect(h.actions == ["pan:began", "pan:changed", "pan:ended"])
    }

    @Test("a pan with a maximum of one finger ignores a second finger once panning")
    func maximumOneFinger() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.maximumNumberOfTouches = 1
        h.add(pan, "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 100, at: 0.05)
        h.down(2, 400, 400, at: 0.1)
        h.move(2, 500, 500, at: 0.15)
        #expect(pan.translation(in: nil) == pt(30, 0))
        #expect(pan.numberOfTouches == 1)
    }

    @Test("the minimum translation is a property")
    func customHysteresis() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.minimumTranslation = 30
        h.add(pan, "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 125, 100, at: 0.05)
        #expect(h.actions.isEmpty)
        h.move(1, 131, 100, at: 0.1)
        #expect(h.actions == ["pan:began"])
    }

    @Test("a steady drag at 1000 px/s reports that velocity")
    func steadyVelocity() {
        let h = Harness()
        var velocity = Point.zero
        let pan = PanGestureRecognizer { p in velocity = p.velocity(in: nil) }
        h.view.addGestureRecognizer(pan)
        h.down(1, 100, 100, at: 0)
        for i in 1...20 { h.move(1, 100 + Double(i) * 8, 100, at: Double(i) * 0.008) }
        #expect(velocity.x.isClose(to: 1000, within: 1))
        #expect(velocity.y.isClose(to: 0, within: 1))
    }

    @Test("velocity is zero after a 40 ms pause before lifting")
    func velocityAfterPause() {
        let h = Harness()
        var velocity = Point(x: 1, y: 1)
        let pan = PanGestureRecognizer { p in velocity = p.velocity(in: nil) }
        h.view.addGestureRecognizer(pan)
        h.down(1, 100, 100, at: 0)
        for i in 1...10 { h.move(1, 100 + Double(i) * 8, 100, at: Double(i) * 0.008) }
        h.up(1, 180, 100, at: 0.2)
        #expect(velocity == .zero)
    }

    @Test("a fling's velocity at the lift reflects only the last 100 ms")
    func velocityHorizon() {
        let h = Harness()
        var velocity = Point.zero
        let pan = PanGestureRecognizer { p in velocity = p.velocity(in: nil) }
        h.view.addGestureRecognizer(pan)
        h.down(1, 0, 300, at: 0)
        // Slow for 0.3 s, then fast: 2 px per 10 ms, then 10 px per 10 ms.
        var x = 0.0
        var t = 0.0
        for _ in 1...30 {
            x += 2
            t += 0.01
            h.move(1, x, 300, at: t)
        }
        for _ in 1...15 {
            x += 10
            t += 0.01
            h.move(1, x, 300, at: t)
        }
        h.up(1, x, 300, at: t)
        #expect(velocity.x.isClose(to: 1000, within: 1))
    }
}
