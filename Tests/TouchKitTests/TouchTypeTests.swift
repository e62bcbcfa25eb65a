import Testing

@testable import TouchKit

@Suite struct TouchTypeTests {
    @Test("a touch keeps the type its platform reported when it began")
    func typeFromInput() {
        let h = Harness()
        h.down(1, 10, 10, at: 0, type: .pencil)
        h.down(2, 50, 50, at: 0, type: .eraser)
        let types = Set(h.window.activeTouches.map(\.type))
        #expect(types == [.pencil, .eraser])
    }

    @Test("a touch is a finger unless the platform says otherwise")
    func fingerByDefault() {
        let h = Harness()
        h.down(1, 10, 10, at: 0)
        #expect(h.window.activeTouches.first?.type == .direct)
    }

    @Test("a recognizer never receives a touch of a type it does not allow; the view still does")
    func allowedTouchTypesFilter() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(), "tap")
        tap.allowedTouchTypes = [.direct, .pencil]
        h.down(1, 100, 100, at: 0, type: .eraser)
        h.up(1, 100, 100, at: 0.05)
        #expect(!h.log.entries.contains("tap:ended"))
        #expect(h.log.entries == ["view.began", "view.ended"])
    }

    @Test("a pen landing during a finger's pan is left to the view, not taken into the pan (exclusive touch type)")
    func penJoiningAFingerPanIsLeftToTheView() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        pan.cancelsTouchesInView = false
        h.down(1, 100, 100, at: 0)
        h.move(1, 160, 100, at: 0.1)
        h.down(2, 400, 400, at: 0.2, type: .pencil)
        #expect(pan.numberOfTouches == 1)
        #expect(pan.location(in: nil) == Point(x: 160, y: 100))
        #expect(h.log.entries.filter { $0 == "view.began" }.count == 2)
    }

    @Test("with requiresExclusiveTouchType off, a pen joins the finger's pan as a second touch")
    func penJoinsWhenExclusivityIsOff() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        pan.requiresExclusiveTouchType = false
        h.down(1, 100, 100, at: 0)
        h.move(1, 160, 100, at: 0.1)
        h.down(2, 400, 400, at: 0.2, type: .pencil)
        #expect(pan.numberOfTouches == 2)
    }

    @Test("a recognizer that allows a type recognizes its touches")
    func allowedTypeRecognizes() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(), "tap")
        tap.allowedTouchTypes = [.pencil]
        h.down(1, 100, 100, at: 0, type: .pencil)
        h.up(1, 100, 100, at: 0.05)
        #expect(h.log.entries.contains("tap:ended"))
    }

    @Test("an upright stylus has altitude π/2; one leaning 45° towards +x has altitude π/4 and azimuth 0")
    func tiltAngles() {
        let upright = StylusTilt(x: 0, y: 0)
        #expect(abs(upright.altitudeAngle - .pi / 2) < 1e-9)
        let leaning = StylusTilt(x: 45, y: 0)
        #expect(abs(leaning.altitudeAngle - .pi / 4) < 1e-9)
        #expect(abs(leaning.azimuthAngle) < 1e-9)
        #expect(abs(StylusTilt(x: 0, y: 30).azimuthAngle - .pi / 2) < 1e-9)
    }

    @Test("a touch takes the tilt of its latest move")
    func tiltFollowsMoves() {
        let h = Harness()
        h.down(1, 10, 10, at: 0, type: .pencil, tilt: StylusTilt(x: 10, y: 0))
        h.window.send(
            TouchInput(
                id: 1, phase: .moved, location: Point(x: 20, y: 10), timestamp: 0.01, type: .pencil,
                tilt: StylusTilt(x: 40, y: 0)))
        #expect(h.window.activeTouches.first?.tilt == StylusTilt(x: 40, y: 0))
    }
}
