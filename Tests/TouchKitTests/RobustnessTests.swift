import SeededRandom
import Testing

@testable import TouchKit

@Suite struct RobustnessTests {
    func standardRecognizers(_ h: Harness) -> [GestureRecognizer] {
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer()
        single.require(toFail: double)
        let press = LongPressGestureRecognizer()
        let pan = PanGestureRecognizer()
        pan.cancelsTouchesInView = false
        let delegate = TestDelegate()
        delegate.simultaneous = { a, b in (a === pan && b === press) || (a === press && b === pan) }
        press.delegate = delegate
        pan.delegate = delegate
        let all: [GestureRecognizer] = [double, single, press, pan]
        for (index, r) in all.enumerated() { h.add(r, "r\(index)") }
        // Keep the delegate alive as long as the harness.
        h.window.addGestureRecognizer(KeepAlive(delegate))
        return all
    }

    final class KeepAlive: GestureRecognizer {
        var object: AnyObject?
        convenience init(_ object: AnyObject) {
            self.init()
            self.object = object
            isEnabled = false
        }
    }

    @Test("an end without a begin is ignored")
    func endWithoutBegin() {
        let h = Harness()
        _ = standardRecognizers(h)
        h.up(7, 100, 100, at: 0.1)
        h.move(7, 120, 100, at: 0.2)
        h.settle()
        #expect(h.log.entries.isEmpty)
    }

    @Test("a cancel for an unknown id is ignored")
    func cancelUnknown() {
        let h = Harness()
        _ = standardRecognizers(h)
        h.systemCancel(42, at: 0.1)
        h.window.cancelAllTouches()
        #expect(h.log.entries.isEmpty)
    }

    @Test("a touch never ended is cancelled by cancelAllTouches and every recognizer returns to possible")
    func neverEnded() {
        let h = Harness()
        let recognizers = standardRecognizers(h)
        h.down(1, 100, 100, at: 0)
        h.move(1, 105, 100, at: 0.1)
        h.tap(300, 300, at: 0.2, id: 2)
        h.window.cancelAllTouches()
        #expect(h.log.entries.contains("view.cancelled(system)"))
        for r in recognizers { #expect(r.state == .possible) }
        #expect(h.window.activeTouches.isEmpty)
        #expect(h.view.liveTouches.isEmpty)
        #expect(h.window.heldTouchCount == 0)
    }

    @Test("cancelAllTouches during a long press cancels it with an action")
    func cancelAllDuringLongPress() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.6)
        h.window.cancelAllTouches()
        #expect(h.actions == ["press:began", "press:cancelled"])
        #expect(press.state == .possible)
        // The view already lost the touch to the press; it is not cancelled twice.
        #expect(h.view.violations.isEmpty)
        #expect(h.viewCalls == ["view.began", "view.cancelled(gesture)"])
    }

    @Test("a system cancel of one touch cancels a pan that began")
    func systemCancelPan() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.cancelsTouchesInView = false
        h.add(pan, "pan")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 2, lift: false)
        h.systemCancel(1, at: 0.3)
        #expect(h.log.entries.suffix(2) == ["pan:cancelled", "view.cancelled(system)"])
        #expect(pan.state == .possible)
    }

    @Test("the same id begun twice cancels the first touch and starts a new one")
    func sameIdTwice() {
        let h = Harness()
        h.down(1, 100, 100, at: 0)
        let first = h.window.activeTouches.first
        h.down(1, 300, 300, at: 0.1)
        let second = h.window.activeTouches.first
        #expect(first !== second)
        #expect(first?.phase == .cancelled)
        #expect(first?.cancellationReason == .system)
        #expect(h.log.entries == ["view.began", "view.cancelled(system)", "view.began"])
        #expect(second?.location(in: nil) == pt(300, 300))
    }

    @Test("an id reused at once after its end is a new touch with a new identifier")
    func idReusedAtOnce() {
        let h = Harness()
        h.down(5, 100, 100, at: 0)
        let first = h.window.activeTouches.first
        h.up(5, 100, 100, at: 0.1)
        h.down(5, 100, 100, at: 0.1)
        let second = h.window.activeTouches.first
        #expect(first !== second)
        #expect(first?.identifier != second?.identifier)
        #expect(first?.platformID == second?.platformID)
    }

    @Test("non-finite coordinates are ignored and an end at NaN ends at the last good location")
    func nonFinite() {
        let h = Harness()
        let recognizers = standardRecognizers(h)
        h.down(1, .nan, 100, at: 0)
        #expect(h.window.activeTouches.isEmpty)
        h.down(1, 100, 100, at: 0.1)
        h.move(1, .infinity, 100, at: 0.15)
        h.move(1, 100, -.infinity, at: 0.2)
        h.up(1, .nan, .nan, at: 0.25)
        h.settle()
        let touch = h.view.finishedTouches.first
        #expect(touch?.location(in: nil) == pt(100, 100))
        for r in recognizers { #expect(r.state == .possible) }
    }

    @Test("timestamps going backwards are taken as now, and timers still fire in order")
    func backwardsTime() {
        let h = Harness()
        let press = h.add(LongPressGestureRecognizer(), "press")
        h.down(1, 100, 100, at: 5)
        h.move(1, 101, 100, at: 4)
        #expect(h.clock.now == 5)
        h.move(1, 102, 100, at: 5.6)
        #expect(h.actions == ["press:began", "press:changed"])
        h.up(1, 102, 100, at: .nan)
        #expect(press.state == .possible)
    }

    @Test("non-finite force is dropped and finite force is reported")
    func force() {
        let h = Harness()
        h.down(1, 100, 100, at: 0, force: .nan)
        let touch = h.window.activeTouches.first
        #expect(touch?.force == nil)
        h.move(1, 100, 100, at: 0.1, force: 0.5)
        #expect(touch?.force == 0.5)
        h.move(1, 100, 100, at: 0.2, force: .infinity)
        #expect(touch?.force == 0.5)
    }

    @Test("hundreds of touches at once are delivered and all recognizers settle")
    func hundredsOfTouches() {
        let h = Harness()
        let recognizers = standardRecognizers(h)
        for id in 0..<300 { h.down(UInt64(id), Double(id % 30) * 25, Double(id / 30) * 50, at: 0.001 * Double(id)) }
        #expect(h.window.activeTouches.count == 300)
        for id in 0..<300 { h.move(UInt64(id), Double(id % 30) * 25 + 30, Double(id / 30) * 50, at: 0.5) }
        for id in 0..<300 { h.up(UInt64(id), 0, 0, at: 0.6) }
        h.settle()
        #expect(h.view.finishedTouches.count == 300)
        #expect(h.view.liveTouches.isEmpty)
        #expect(h.view.violations.isEmpty)
        for r in recognizers { #expect(r.state == .possible) }
    }

    @Test("removing a view with a live touch cancels it for the system")
    func viewRemoved() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        h.down(1, 50, 50, at: 0)
        child.removeFromSuperview()
        h.move(1, 60, 60, at: 0.1)
        h.up(1, 60, 60, at: 0.2)
        #expect(h.log.entries == ["child.began", "child.cancelled(system)"])
    }

    @Test("a view put inside its own subview (or itself) stays where it was: the tree never becomes a loop")
    func viewIntoItsOwnDescendantIsRefused() {
        let h = Harness()
        let outer = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let inner = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        h.view.addSubview(outer)
        outer.addSubview(inner)
        inner.addSubview(outer)
        outer.addSubview(outer)
        #expect(outer.superview === h.view && inner.superview === outer)
        #expect(inner.window === h.window)
    }

    @Test("a view brought to the front while it is dragged keeps its touch and its pan goes on")
    func viewBroughtToFrontKeepsItsGesture() {
        let h = Harness()
        let card = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "card")
        let other = View(frame: Rect(x: 200, y: 0, width: 100, height: 100))
        h.view.addSubview(card)
        h.view.addSubview(other)
        let pan = PanGestureRecognizer()
        pan.cancelsTouchesInView = false
        pan.addTarget { [unowned card, unowned h] p in
            if p.state == .began { h.view.addSubview(card) }
        }
        h.add(pan, "pan", to: card)
        h.down(1, 50, 50, at: 0)
        h.move(1, 70, 50, at: 0.1)
        h.move(1, 90, 50, at: 0.2)
        h.up(1, 90, 50, at: 0.3)
        #expect(h.view.subviews.last === card)
        #expect(h.log.entries.filter { $0.hasPrefix("pan") } == ["pan:began", "pan:changed", "pan:ended"])
        #expect(!h.log.entries.contains("card.cancelled(system)"))
    }

    @Test("a view moved to another container in its window keeps its touch; one taken out of the window loses it")
    func viewMovedWithinItsWindowKeepsItsTouch() {
        let h = Harness()
        let card = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "card")
        let shelf = View(frame: Rect(x: 200, y: 0, width: 400, height: 400))
        h.view.addSubview(card)
        h.view.addSubview(shelf)
        h.down(1, 50, 50, at: 0)
        shelf.addSubview(card)
        h.move(1, 60, 60, at: 0.1)
        let elsewhere = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        elsewhere.addSubview(card)
        h.up(1, 60, 60, at: 0.2)
        #expect(h.log.entries == ["card.began", "card.moved", "card.cancelled(system)"])
    }

    @Test("removing a view stops its waiting recognizers: no action arrives later")
    func viewRemovedStopsRecognizers() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer()
        single.require(toFail: double)
        h.add(double, "double", to: child)
        h.add(single, "single", to: child)
        h.tap(50, 50, at: 0, duration: 0.05)
        child.removeFromSuperview()
        h.settle()
        #expect(h.actions.isEmpty)
        #expect(single.state == .possible)
        #expect(double.state == .possible)
        #expect(h.window.arena.engagedRecognizers.isEmpty)
    }

    @Test("removing a view whose touch's end is held (a double tap waits) cancels that touch in it for the system")
    func viewRemovedWithHeldEnd() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double", to: child)
        h.tap(50, 50, at: 0, duration: 0.05)
        child.removeFromSuperview()
        h.settle()
        #expect(child.liveTouches.isEmpty)
        #expect(h.log.entries == ["child.began", "child.cancelled(system)"])
    }

    @Test("a system cancel of the touch a recognized swipe waits with fails the swipe, and the view hears the system")
    func systemCancelFailsAWaitingRecognizer() {
        let h = Harness()
        let press = LongPressGestureRecognizer()
        press.minimumPressDuration = 1
        press.allowableMovement = 1000
        h.add(press, "press")
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        swipe.require(toFail: press)
        h.down(1, 100, 100, at: 0)
        h.move(1, 140, 100, at: 0.06)
        h.move(1, 170, 100, at: 0.12)
        h.systemCancel(1, at: 0.2)
        h.settle()
        #expect(h.actions.isEmpty)
        #expect(h.viewCalls.last == "view.cancelled(system)")
    }

    @Test("a view that is not multiple-touch enabled gets only the first finger")
    func singleTouchView() {
        let h = Harness()
        h.view.isMultipleTouchEnabled = false
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 200, at: 0.1)
        h.up(2, 200, 200, at: 0.2)
        h.up(1, 100, 100, at: 0.3)
        #expect(h.log.entries == ["view.began", "view.ended"])
    }

    @Test("a window dropped in the middle of gestures frees its views, recognizers and touches")
    func noLeakMidGesture() {
        weak var window: Window?
        weak var view: View?
        weak var pan: GestureRecognizer?
        weak var touch: Touch?
        do {
            let h = Harness()
            _ = standardRecognizers(h)
            pan = h.view.gestureRecognizers.last
            h.tap(100, 100, at: 0, duration: 0.05)
            h.down(2, 300, 300, at: 0.1)
            h.move(2, 350, 300, at: 0.2)
            touch = h.window.activeTouches.first
            window = h.window
            view = h.view
        }
        #expect(window == nil)
        #expect(view == nil)
        #expect(pan == nil)
        #expect(touch == nil)
    }

    @Test("a pinch still works on a view that is not multiple-touch enabled")
    func pinchOnSingleTouchView() {
        let h = Harness()
        h.view.isMultipleTouchEnabled = false
        let pinch = h.add(PinchGestureRecognizer(), "pinch")
        h.down(1, 100, 100, at: 0)
        h.down(2, 200, 100, at: 0.01)
        h.move(2, 300, 100, at: 0.05)
        #expect(pinch.state == .began)
        #expect(pinch.scale.isClose(to: 2))
        #expect(h.log.entries == ["view.began", "view.cancelled(gesture)", "pinch:began"])
    }

    @Test("touches on disabled or hidden views go to the view behind")
    func hitTestSkipsDisabled() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        child.isUserInteractionEnabled = false
        h.tap(50, 50, at: 0)
        child.isUserInteractionEnabled = true
        child.isHidden = true
        h.tap(50, 50, at: 1)
        #expect(h.log.entries == ["view.began", "view.ended", "view.began", "view.ended"])
    }

    @Test("an action that removes its own recognizer or sends more input does not crash")
    func reentrantActions() {
        let h = Harness()
        let tap = TapGestureRecognizer()
        let window = h.window
        tap.addTarget { t in
            t.view?.removeGestureRecognizer(t)
            window.send(TouchInput(id: 99, phase: .began, location: pt(10, 10), timestamp: 0.2))
            window.send(TouchInput(id: 99, phase: .ended, location: pt(10, 10), timestamp: 0.2))
        }
        h.view.addGestureRecognizer(tap)
        h.tap(100, 100, at: 0)
        h.settle()
        #expect(tap.view == nil)
        #expect(h.view.violations.isEmpty)
    }

    /// A small deterministic generator (SplitMix64), so the test is the same on every run.

    @Test("100,000 random events leave every recognizer possible and no view holding a touch")
    func randomSequence() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 200, y: 150, width: 300, height: 200), log: h.log, label: "child")
        h.view.addSubview(child)
        var recognizers = standardRecognizers(h)
        let pinch = h.add(PinchGestureRecognizer(), "pinch", to: child)
        let rotation = h.add(RotationGestureRecognizer(), "rotation", to: child)
        let swipe = SwipeGestureRecognizer()
        swipe.direction = [.left, .right, .up, .down]
        h.add(swipe, "swipe", to: child)
        let edge = ScreenEdgePanGestureRecognizer()
        edge.edges = .all
        h.add(edge, "edge")
        let childTap = TapGestureRecognizer()
        childTap.delaysTouchesBegan = true
        h.add(childTap, "childTap", to: child)
        let press2 = LongPressGestureRecognizer()
        press2.numberOfTouchesRequired = 2
        press2.cancelsTouchesInView = false
        h.add(press2, "press2", to: child)
        recognizers += [pinch, rotation, swipe, edge, childTap, press2]
        h.log.entries.reserveCapacity(200_000)

        var rng = SplitMix64(seed: 20_261_121)
        var time = 0.0
        var positions: [UInt64: Point] = [:]
        var actionsSeen: Set<String> = []
        var lastDown: [UInt64: Point] = [:]
        var drift: [UInt64: Point] = [:]
        for step in 0..<100_000 {
            // Time mostly moves forward in small steps, sometimes jumps, sometimes goes backwards.
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<3: time -= Double.random(in: 0..<0.2, using: &rng)
            case 3..<8: time += Double.random(in: 0..<1, using: &rng)
            default: time += Double.random(in: 0..<0.02, using: &rng)
            }
            let id = UInt64.random(in: 0..<6, using: &rng)
            var location =
                positions[id]
                ?? pt(Double.random(in: -20..<820, using: &rng), Double.random(in: -20..<620, using: &rng))
            let roll = Int.random(in: 0..<100, using: &rng)
            let phase: TouchInput.Phase
            switch roll {
            case 0..<15: phase = .began
            case 15..<75: phase = .moved
            case 75..<93: phase = .ended
            case 93..<97: phase = .cancelled
            default: phase = [.began, .moved, .ended][Int.random(in: 0..<3, using: &rng)]
            }
            if phase == .began {
                // Often go down again where this finger last went down, to make multi-taps.
                if let previous = lastDown[id], Bool.random(using: &rng) {
                    location = previous
                } else {
                    location = pt(
                        Double.random(in: -20..<820, using: &rng), Double.random(in: -20..<620, using: &rng))
                }
                lastDown[id] = location
                let directions = [pt(0, 0), pt(0, 0), pt(30, 0), pt(-30, 0), pt(0, 30), pt(0, -30)]
                drift[id] = directions[Int.random(in: 0..<directions.count, using: &rng)]
            } else {
                location += (drift[id] ?? .zero)
                location += pt(Double.random(in: -15..<15, using: &rng), Double.random(in: -15..<15, using: &rng))
            }
            if Int.random(in: 0..<500, using: &rng) == 0 { location = pt(.nan, .infinity) }
            positions[id] = phase == .ended || phase == .cancelled ? nil : location
            h.window.send(TouchInput(id: id, phase: phase, location: location, timestamp: time))
            if step % 20_000 == 19_999 { h.window.cancelAllTouches() }
            if step % 1_000 == 0 {
                for entry in h.log.entries where entry.contains(":") { actionsSeen.insert(entry) }
                h.log.clear()
            }
        }
        for id in 0..<6 {
            h.window.send(TouchInput(id: UInt64(id), phase: .ended, location: pt(0, 0), timestamp: time + 0.01))
        }
        h.settle()

        #expect(h.window.activeTouches.isEmpty)
        #expect(h.window.heldTouchCount == 0)
        #expect(h.view.liveTouches.isEmpty)
        #expect(child.liveTouches.isEmpty)
        #expect(h.view.violations.isEmpty)
        #expect(child.violations.isEmpty)
        for r in recognizers { #expect(r.state == .possible, "\(r)") }
        #expect(!h.clock.hasPendingTimers)
        #expect(h.window.arena.engagedRecognizers.isEmpty)
        // The sequence really exercised the recognizers.
        for expected in ["r1:ended", "r2:began", "r2:cancelled", "r3:began", "swipe:ended", "edge:began"] {
            #expect(actionsSeen.contains(expected), "\(expected) never happened")
        }
    }
}
