import Foundation
import Testing

@testable import TouchKit

@Suite struct ViewTests {
    @Test("hit testing finds the frontmost subview containing the point")
    func hitTestFrontmost() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let back = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        let front = View(frame: Rect(x: 100, y: 100, width: 200, height: 200))
        window.addSubview(back)
        window.addSubview(front)
        #expect(window.hitTest(pt(150, 150)) === front)
        #expect(window.hitTest(pt(50, 50)) === back)
        #expect(window.hitTest(pt(350, 50)) === window)
        #expect(window.hitTest(pt(500, 500)) == nil)
        #expect(window.hitTest(pt(.nan, 1)) == nil)
    }

    @Test("hit testing and conversion follow a rotated, scaled view")
    func transformedView() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let view = View(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        view.transform = AffineTransform(rotationAngle: .pi / 2).scaledBy(x: 2, y: 2)
        window.addSubview(view)
        // The centre stays put; the view now covers 200×200 around (150, 150).
        #expect(window.hitTest(pt(60, 60)) === view)
        let local = view.convert(pt(150, 150), from: nil)
        #expect(local.isClose(to: pt(50, 50)))
        let back = view.convert(local, to: nil)
        #expect(back.isClose(to: pt(150, 150)))
        let corner = view.convert(pt(0, 0), to: nil)
        #expect(corner.isClose(to: pt(250, 50)))
    }

    @Test("converting between two sibling views goes through their common window")
    func siblingConversion() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let a = View(frame: Rect(x: 10, y: 20, width: 100, height: 100))
        let b = View(frame: Rect(x: 200, y: 100, width: 100, height: 100))
        window.addSubview(a)
        window.addSubview(b)
        #expect(a.convert(pt(0, 0), to: b) == pt(-190, -80))
        #expect(b.convert(pt(0, 0), from: a) == pt(-190, -80))
    }

    @Test("a view that fills its window converts fractional points exactly, both ways, whatever the window's size")
    func fullWindowConversionIsExact() {
        for size in [200.0, 800, 1921] {
            let window = Window(frame: Rect(x: 0, y: 0, width: size, height: size * 0.75))
            let view = View(frame: window.bounds)
            window.addSubview(view)
            for value in [0.1, 100.1, 0.3, 1e-9] {
                #expect(view.convert(pt(value, value), from: nil) == pt(value, value))
                #expect(view.convert(pt(value, value), to: nil) == pt(value, value))
            }
        }
    }

    @Test("bounds origin shifts the content, as scrolling does")
    func boundsOrigin() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let view = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        view.bounds.origin = pt(0, 100)
        window.addSubview(view)
        #expect(view.convert(pt(10, 10), from: nil) == pt(10, 110))
    }

    @Test("unhandled touches travel up the responder chain to the superview")
    func responderChain() {
        let h = Harness()
        let plain = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        h.view.addSubview(plain)
        h.tap(50, 50, at: 0)
        #expect(h.log.entries == ["view.began", "view.ended"])
        #expect(plain.next === h.view)
        #expect(h.view.next === h.window)
        #expect(h.window.next == nil)
    }

    final class Field: View {
        override var canBecomeFirstResponder: Bool { true }
    }

    @Test("the first responder is tracked by the window and changes hands")
    func firstResponder() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let a = Field(frame: .zero)
        let b = Field(frame: .zero)
        let plain = View(frame: .zero)
        window.addSubview(a)
        window.addSubview(b)
        window.addSubview(plain)
        #expect(a.becomeFirstResponder())
        #expect(a.isFirstResponder)
        #expect(!plain.becomeFirstResponder())
        #expect(b.becomeFirstResponder())
        #expect(!a.isFirstResponder)
        #expect(window.firstResponder === b)
        #expect(b.resignFirstResponder())
        #expect(window.firstResponder == nil)
    }

    @Test("a subview outlives its dropped superview safely")
    func subviewOutlivesParent() {
        let child = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        do {
            let parent = View(frame: Rect(x: 5, y: 5, width: 100, height: 100))
            parent.addSubview(child)
            #expect(child.superview === parent)
        }
        #expect(child.superview == nil)
        #expect(child.convert(pt(1, 1), to: nil) == pt(1, 1))
    }

    @Test("frame is the bounding box of a transformed view")
    func transformedFrame() {
        let view = View(frame: Rect(x: 0, y: 0, width: 100, height: 50))
        view.transform = AffineTransform(rotationAngle: .pi / 2)
        let frame = view.frame
        #expect(frame.width.isClose(to: 50))
        #expect(frame.height.isClose(to: 100))
        #expect(frame.center.isClose(to: pt(50, 25)))
    }
}

@Suite struct ClockTests {
    @Test("timers fire in deadline order with now set to each deadline")
    func deadlineOrder() {
        let clock = Clock()
        var fired: [(String, TimeInterval)] = []
        clock.schedule(after: 0.3) { fired.append(("b", clock.now)) }
        clock.schedule(after: 0.1) { fired.append(("a", clock.now)) }
        clock.schedule(after: 0.3) { fired.append(("c", clock.now)) }
        clock.advance(to: 1)
        #expect(fired.map(\.0) == ["a", "b", "c"])
        #expect(fired.map(\.1) == [0.1, 0.3, 0.3])
        #expect(clock.now == 1)
    }

    @Test("time never goes backwards and ignores non-finite targets")
    func monotonic() {
        let clock = Clock(now: 5)
        clock.advance(to: 3)
        clock.advance(to: .nan)
        clock.advance(to: .infinity)
        #expect(clock.now == 5)
    }

    @Test("a cancelled timer never fires")
    func cancel() {
        let clock = Clock()
        var fired = false
        let token = clock.schedule(after: 1) { fired = true }
        clock.cancel(token)
        clock.cancel(token)
        clock.runUntilIdle()
        #expect(!fired)
        #expect(!clock.hasPendingTimers)
    }

    @Test("runUntilIdle runs timers scheduled by timers")
    func chained() {
        let clock = Clock()
        var count = 0
        func tick() {
            count += 1
            if count < 5 { clock.schedule(after: 1) { tick() } }
        }
        clock.schedule(after: 1) { tick() }
        clock.runUntilIdle()
        #expect(count == 5)
        #expect(clock.now == 5)
    }

    @Test("Window.send advances the window's clock to the input's time")
    func sendAdvances() {
        let h = Harness()
        h.down(1, 10, 10, at: 2.5)
        #expect(h.clock.now == 2.5)
        h.up(1, 10, 10, at: 1)
        #expect(h.clock.now == 2.5)
        #expect(h.view.finishedTouches.first?.timestamp == 2.5)
    }
}

@Suite struct VelocityTrackerTests {
    @Test("a constant velocity is recovered exactly")
    func constant() {
        var tracker = VelocityTracker()
        for i in 0..<10 { tracker.add(pt(Double(i) * 5, Double(i) * -2), at: Double(i) * 0.01) }
        let v = tracker.velocity(at: 0.09)
        #expect(v.isClose(to: pt(500, -200), within: 1e-6))
    }

    @Test("one sample gives zero velocity")
    func oneSample() {
        var tracker = VelocityTracker()
        tracker.add(pt(1, 1), at: 0)
        #expect(tracker.velocity(at: 0) == .zero)
    }

    @Test("samples before a pause longer than 40 ms are ignored")
    func pauseInMiddle() {
        var tracker = VelocityTracker()
        for i in 0..<5 { tracker.add(pt(Double(i) * 100, 0), at: Double(i) * 0.01) }
        for i in 0..<5 { tracker.add(pt(400 + Double(i) * 1, 0), at: 0.1 + Double(i) * 0.01) }
        #expect(tracker.velocity(at: 0.14).isClose(to: pt(100, 0), within: 1e-6))
    }

    @Test("velocity is zero 41 ms after the last sample")
    func staleSamples() {
        var tracker = VelocityTracker()
        for i in 0..<5 { tracker.add(pt(Double(i) * 10, 0), at: Double(i) * 0.01) }
        #expect(tracker.velocity(at: 0.08) != .zero)
        #expect(tracker.velocity(at: 0.081) == .zero)
    }

    @Test("non-finite samples are ignored and backwards times are clamped")
    func hostileSamples() {
        var tracker = VelocityTracker()
        tracker.add(pt(0, 0), at: 0)
        tracker.add(pt(.nan, 0), at: 0.01)
        tracker.add(pt(10, 0), at: 0.01)
        tracker.add(pt(20, 0), at: -5)
        let v = tracker.velocity(at: 0.01)
        #expect(v.x.isFinite && v.y.isFinite)
    }
}

/// The guide's course examples, run.
@Suite struct CourseExampleTests {
    @Test("the Circle demo: a pan with setTranslation(.zero) moves the circle with the finger")
    func circleDemo() {
        let h = Harness()
        let circle = View(frame: Rect(x: 100, y: 100, width: 50, height: 50))
        h.view.addSubview(circle)
        let pan = PanGestureRecognizer { pan in
            guard pan.state == .began || pan.state == .changed else { return }
            let t = pan.translation(in: circle.superview)
            circle.center = circle.center + t
            pan.setTranslation(.zero, in: circle.superview)
        }
        circle.addGestureRecognizer(pan)
        h.drag(from: pt(120, 120), to: pt(220, 170), at: 0, steps: 7)
        #expect(circle.center.isClose(to: pt(225, 175)))
    }

    @Test("the pinch example: scale reset to 1 each time composes to the total scale")
    func pinchExample() {
        let h = Harness()
        let image = View(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        h.view.addSubview(image)
        let pinch = PinchGestureRecognizer { pinch in
            guard pinch.state == .began || pinch.state == .changed else { return }
            image.transform = image.transform.scaledBy(x: pinch.scale, y: pinch.scale)
            pinch.scale = 1
        }
        h.view.addGestureRecognizer(pinch)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        for i in 1...5 { h.move(2, 400 + Double(i) * 40, 300, at: Double(i) * 0.02) }
        #expect(image.transform.a.isClose(to: 3, within: 1e-9))
    }

    @Test("the long press example acts only when the press begins")
    func longPressExample() {
        let h = Harness()
        var selections = 0
        let press = LongPressGestureRecognizer { press in
            guard press.state == .began else { return }
            selections += 1
        }
        h.view.addGestureRecognizer(press)
        h.down(1, 100, 100, at: 0)
        h.advance(to: 0.6)
        h.move(1, 150, 100, at: 0.7)
        h.up(1, 150, 100, at: 0.8)
        #expect(selections == 1)
    }
}
