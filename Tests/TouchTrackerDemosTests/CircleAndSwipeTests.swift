import Testing
import TouchKit
import TouchTrackerDemos

@Suite struct CircleSceneTests {
    let circle = CircleScene(size: Size(width: 800, height: 600))

    @Test("every property change asks for a redraw")
    func redrawOnChange() {
        circle.needsDisplay = false
        circle.radius = 50
        #expect(circle.needsDisplay)
        circle.needsDisplay = false
        circle.tap(10, 20, at: 0)
        #expect(circle.needsDisplay)
        #expect(circle.center == Point(x: 10, y: 20))
    }

    @Test("a pan follows the finger step by step: after each move the centre has moved by the finger's travel")
    func panIsIncremental() {
        circle.touch(1, .began, 100, 100, at: 0)
        circle.touch(1, .moved, 120, 100, at: 0.02)
        #expect(circle.center == Point(x: 420, y: 300))
        circle.touch(1, .moved, 150, 140, at: 0.04)
        #expect(circle.center == Point(x: 450, y: 340))
        #expect(circle.panRecognizer.translation(in: circle.canvas) == .zero)
        circle.touch(1, .ended, 150, 140, at: 0.06)
        #expect(circle.center == Point(x: 450, y: 340))
    }

    @Test("pinching far in stops the radius at its minimum instead of making it vanish")
    func minimumRadius() {
        circle.touch(1, .began, 200, 300, at: 0)
        circle.touch(2, .began, 600, 300, at: 0)
        for step in 1...10 {
            let x = 20 * Double(step)
            circle.touch(1, .moved, 200 + x - 1, 300, at: 0.02 * Double(step))
            circle.touch(2, .moved, 600 - x + 1, 300, at: 0.02 * Double(step))
        }
        #expect(circle.radius == CircleScene.minimumRadius)
    }
}

@Suite struct RawSwipeTests {
    @Test(
        "the seed's rule: ≥ 30 px along and ≤ 5 px across, judged from start and end only",
        arguments: [
            (Point(x: 30, y: 5), "Horizontal"), (Point(x: -30, y: -5), "Horizontal"), (Point(x: 29.9, y: 0), nil),
            (Point(x: 30, y: 5.1), nil), (Point(x: 5, y: 30), "Vertical"), (Point(x: -5, y: -45), "Vertical"),
            (Point(x: 5.1, y: 30), nil), (Point(x: 0, y: 0), nil), (Point(x: 40, y: 40), nil),
        ] as [(Point, String?)])
    func classify(_ travel: Point, _ expected: String?) {
        let start = Point(x: 100, y: 100)
        #expect(RawSwipe.classify(from: start, to: start + travel) == expected)
    }
}

@Suite struct SwipeSceneTests {
    let swipe = SwipeScene(size: Size(width: 800, height: 600))

    @Test("the left half has no recognizer at all; the right half has the Z first, then the swipe that requires it")
    func layout() {
        #expect(swipe.rawView.frame == Rect(x: 0, y: 0, width: 400, height: 600))
        #expect(swipe.recognizerView.frame == Rect(x: 400, y: 0, width: 400, height: 600))
        #expect(swipe.rawView.gestureRecognizers.isEmpty)
        #expect(swipe.window.gestureRecognizers.isEmpty)
        #expect(swipe.recognizerView.gestureRecognizers.map(\.name) == ["Z", "swipe"])
    }

    @Test("two fingers swiping at once on the raw side are judged each on its own")
    func twoRawFingers() {
        swipe.touch(1, .began, 100, 100, at: 0)
        swipe.touch(2, .began, 200, 300, at: 0)
        swipe.touch(1, .ended, 160, 100, at: 0.1)
        #expect(swipe.rawView.label == "Horizontal")
        swipe.touch(2, .ended, 202, 360, at: 0.1)
        #expect(swipe.rawView.label == "Vertical")
        #expect(swipe.rawView.count == 2)
    }

    @Test("a leftward swipe is recognized before the finger lifts: the Z fails after 15 px, so nothing waits")
    func leftSwipeIsImmediate() {
        swipe.touch(1, .began, 700, 300, at: 0)
        for step in 1...4 { swipe.touch(1, .moved, 700 - 20 * Double(step), 300, at: 0.02 * Double(step)) }
        #expect(swipe.swipeLabel == "Left")
        #expect(swipe.swipeCount == 1)
        swipe.touch(1, .ended, 620, 300, at: 0.1)
        #expect(swipe.swipeCount == 1)
    }

    @Test("a rightward swipe waits for the Z to fail, which it does when the finger lifts")
    func rightSwipeWaitsForTheZ() {
        swipe.touch(1, .began, 450, 300, at: 0)
        for step in 1...4 { swipe.touch(1, .moved, 450 + 20 * Double(step), 300, at: 0.02 * Double(step)) }
        #expect(swipe.swipeCount == 0)
        #expect(swipe.swipeRecognizer.state == .possible)
        swipe.touch(1, .ended, 530, 300, at: 0.1)
        #expect(swipe.swipeLabel == "Right")
        #expect(swipe.swipeCount == 1)
    }

    @Test("a swipe recognized while it waits for the Z to fail is not failed by its own 0.5 s timer")
    func swipeWaitingForTheZKeepsItsRecognition() {
        let window = Window(frame: Rect(x: 0, y: 0, width: 400, height: 400))
        let view = View(frame: window.bounds)
        window.addSubview(view)
        let z = ZGestureRecognizer()
        let plain = SwipeGestureRecognizer()
        plain.require(toFail: z)
        var recognized = 0
        plain.addTarget { if $0.state == .ended { recognized += 1 } }
        view.addGestureRecognizer(z)
        view.addGestureRecognizer(plain)
        window.send(TouchInput(id: 1, phase: .began, location: Point(x: 50, y: 200), timestamp: 0))
        for step in 1...4 {
            let point = Point(x: 50 + 20 * Double(step), y: 200)
            window.send(TouchInput(id: 1, phase: .moved, location: point, timestamp: 0.02 * Double(step)))
        }
        window.send(TouchInput(id: 1, phase: .ended, location: Point(x: 130, y: 200), timestamp: 0.8))
        // The swipe reached 60 px in 0.08 s and then only waited for the Z to fail (at the lift), as in UIKit.
        #expect(recognized == 1)
    }
}
