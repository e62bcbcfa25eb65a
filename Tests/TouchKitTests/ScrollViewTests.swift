import Testing

@testable import TouchKit

@Suite struct ScrollViewTests {
    @Test("contentOffset is bounds.origin: the content moves under the scroll view as it changes")
    func offsetIsBoundsOrigin() {
        let s = ScrollHarness()
        s.scrollView.contentOffset = pt(300, 200)
        #expect(s.scrollView.bounds.origin == pt(300, 200))
        #expect(s.contentPoint(under: pt(0, 0)) == pt(300, 200))
        #expect(s.content.convert(pt(310, 220), to: nil) == pt(10, 20))
        #expect(s.harness.window.hitTest(pt(10, 20)) === s.content)
        #expect(s.recorder.scrolls == 1)
        s.scrollView.contentOffset = pt(300, 200)
        #expect(s.recorder.scrolls == 1, "setting the same offset is not a scroll")
    }

    @Test("a one-finger drag moves the content with the finger, slop included, and tells the delegate in order")
    func dragFollowsFinger() {
        let s = ScrollHarness()
        s.scrollView.contentOffset = pt(500, 500)
        s.down(1, 400, 300, at: 0)
        s.move(1, 395, 300, at: 0.05)
        #expect(s.scrollView.contentOffset == pt(500, 500))
        #expect(!s.scrollView.isDragging)
        #expect(s.scrollView.isTracking)
        s.move(1, 380, 290, at: 0.1)
        #expect(s.scrollView.isDragging)
        #expect(s.scrollView.contentOffset == pt(520, 510))
        s.move(1, 330, 250, at: 0.2)
        #expect(s.scrollView.contentOffset == pt(570, 550))
        #expect(s.contentPoint(under: pt(330, 250)) == pt(900, 800), "the content point first touched stays under it")
        s.move(1, 330, 250, at: 0.3)
        s.up(1, 330, 250, at: 0.4)
        #expect(!s.scrollView.isDragging)
        #expect(!s.scrollView.isTracking)
        #expect(s.recorder.log == ["willBeginDragging", "didEndDragging(false)"])
        #expect(s.contentCalls.isEmpty, "a drag that started within the delay never reaches the content")
    }

    @Test("a bounded scroll view holds a drag at the content's edges, and the inset adds room")
    func boundedDragStopsAtEdges() {
        let s = ScrollHarness()
        s.drag(from: pt(100, 100), to: pt(500, 400), at: 0)
        #expect(s.scrollView.contentOffset == pt(0, 0))
        s.drag(from: pt(700, 500), to: pt(0, 0), at: 1, duration: 1, steps: 20)
        s.drag(from: pt(700, 500), to: pt(0, 0), at: 3, duration: 1, steps: 20)
        #expect(s.scrollView.contentOffset == pt(1200, 900))
        s.scrollView.contentInset = EdgeInsets(top: 10, left: 20, bottom: 30, right: 40)
        #expect(s.scrollView.contentOffsetRange.min == pt(-20, -10))
        #expect(s.scrollView.contentOffsetRange.max == pt(1240, 930))
        s.drag(from: pt(0, 0), to: pt(700, 500), at: 5, duration: 1, steps: 20)
        s.drag(from: pt(0, 0), to: pt(700, 500), at: 7, duration: 1, steps: 20)
        #expect(s.scrollView.contentOffset == pt(-20, -10))
    }

    @Test("content smaller than the view stays at its top-left corner")
    func smallContentDoesNotScroll() {
        let s = ScrollHarness(contentSize: Size(width: 300, height: 200))
        s.drag(from: pt(250, 150), to: pt(100, 50), at: 0, duration: 0.5)
        #expect(s.scrollView.contentOffset == .zero)
    }

    @Test("with EdgeInsets.unbounded the content has no edge: drags reach negative offsets and far past its size")
    func unboundedDragGoesAnywhere() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        #expect(s.scrollView.contentOffsetRange.min == pt(-.infinity, -.infinity))
        #expect(s.scrollView.contentOffsetRange.max == pt(.infinity, .infinity))
        s.drag(from: pt(100, 100), to: pt(700, 500), at: 0, duration: 1, steps: 20)
        #expect(s.scrollView.contentOffset == pt(-600, -400))
        #expect(s.contentPoint(under: pt(0, 0)) == pt(-600, -400))
        s.scrollView.contentOffset = pt(1e6, -1e6)
        s.drag(from: pt(700, 100), to: pt(100, 500), at: 2, duration: 1, steps: 20)
        #expect(s.scrollView.contentOffset == pt(1e6 + 600, -1e6 - 400))
    }

    @Test("the pan can be set to two fingers: one finger then reaches the content and does not scroll")
    func twoFingerPan() {
        let s = ScrollHarness()
        s.scrollView.panGestureRecognizer.minimumNumberOfTouches = 2
        s.scrollView.delaysContentTouches = false
        s.scrollView.contentOffset = pt(500, 500)
        s.drag(from: pt(400, 300), to: pt(300, 300), at: 0)
        #expect(s.scrollView.contentOffset == pt(500, 500))
        #expect(s.contentCalls.first == "content.began")
        #expect(s.contentCalls.last == "content.ended")
        s.harness.log.clear()
        s.scrollView.pinchGestureRecognizer.isEnabled = false
        s.down(1, 400, 300, at: 1)
        s.down(2, 500, 300, at: 1)
        for step in 1...10 {
            let dx = Double(step) * 10
            s.move(1, 400 - dx, 300, at: 1 + Double(step) * 0.01)
            s.move(2, 500 - dx, 300, at: 1 + Double(step) * 0.01)
        }
        #expect(s.scrollView.contentOffset == pt(600, 500))
        #expect(
            s.contentCalls == [
                "content.began", "content.began", "content.moved", "content.moved", "content.cancelled(gesture)",
            ]
        )
    }

    @Test("the pan can be limited to fingers: a pen on the content neither scrolls nor waits")
    func penDoesNotScroll() {
        let s = ScrollHarness()
        s.scrollView.panGestureRecognizer.allowedTouchTypes = [.direct]
        s.scrollView.pinchGestureRecognizer.allowedTouchTypes = [.direct]
        s.scrollView.contentOffset = pt(500, 500)
        s.down(1, 400, 300, at: 0, type: .pencil)
        #expect(s.contentCalls == ["content.began"], "the pen's touch is not held back")
        s.move(1, 300, 300, at: 0.05)
        s.up(1, 300, 300, at: 0.1)
        #expect(s.scrollView.contentOffset == pt(500, 500))
        #expect(s.contentCalls == ["content.began", "content.moved", "content.ended"])
        s.drag(from: pt(400, 300), to: pt(300, 300), at: 1)
        #expect(s.scrollView.contentOffset == pt(600, 500), "a finger still scrolls")
    }

    @Test("an app recognizer the pan must wait for keeps the pan from scrolling until it fails")
    func panRequiresFailure() {
        let s = ScrollHarness()
        let swipe = SwipeGestureRecognizer()
        swipe.direction = .left
        s.harness.add(swipe, "swipe", to: s.content)
        s.scrollView.panGestureRecognizer.require(toFail: swipe)
        s.scrollView.contentOffset = pt(500, 500)
        s.drag(from: pt(600, 300), to: pt(400, 300), at: 0, duration: 0.1)
        #expect(s.harness.actions == ["swipe:ended"])
        #expect(s.scrollView.contentOffset == pt(500, 500))
        s.drag(from: pt(400, 100), to: pt(400, 300), at: 1, duration: 0.2)
        #expect(s.scrollView.contentOffset == pt(500, 300), "a downward drag fails the swipe and scrolls")
    }

    @Test("isScrollEnabled false: drags do not scroll and the pan is disabled; offsets can still be set")
    func scrollDisabled() {
        let s = ScrollHarness()
        s.scrollView.isScrollEnabled = false
        #expect(!s.scrollView.panGestureRecognizer.isEnabled)
        s.drag(from: pt(400, 300), to: pt(100, 100), at: 0, duration: 0.3)
        #expect(s.scrollView.contentOffset == .zero)
        #expect(s.contentCalls.first == "content.began", "a touch the scroll view cannot take is not held back")
        s.scrollView.contentOffset = pt(10, 10)
        #expect(s.scrollView.contentOffset == pt(10, 10))
        s.scrollView.isScrollEnabled = true
        s.drag(from: pt(400, 300), to: pt(300, 300), at: 1)
        #expect(s.scrollView.contentOffset == pt(110, 10))
    }

    @Test("setContentOffset animated moves on the clock's frames and ends exactly where asked")
    func animatedOffset() {
        let s = ScrollHarness()
        s.scrollView.setContentOffset(pt(600, 300), animated: true)
        #expect(s.scrollView.contentOffset == .zero)
        s.clock.advance(by: 0.15)
        let halfway = s.scrollView.contentOffset
        #expect(halfway.x > 200 && halfway.x < 400)
        #expect(halfway.y.isClose(to: halfway.x / 2, within: 1e-9))
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == pt(600, 300))
        #expect(s.recorder.log == ["didEndScrollingAnimation"])
        #expect(s.clock.now <= 0.3 + 1.0 / 60 + 1e-9)
    }

    @Test("a drag stops an offset animation where it is")
    func dragStopsAnimation() {
        let s = ScrollHarness()
        s.scrollView.setContentOffset(pt(600, 300), animated: true)
        s.clock.advance(to: 0.155)
        let reached = s.scrollView.contentOffset
        #expect(reached.x > 0 && reached.x < 600)
        // No frame falls between the finger going down and the pan beginning (frames come every 1/60 s).
        s.drag(from: pt(400, 300), to: pt(380, 300), at: 0.155, duration: 0.01, steps: 1, lift: false)
        s.up(1, 380, 300, at: 0.5)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == reached + pt(20, 0))
        #expect(!s.recorder.log.contains("didEndScrollingAnimation"))
    }

    @Test("scrollRectToVisible scrolls as little as needed, and not at all when the rectangle shows")
    func scrollRectToVisible() {
        let s = ScrollHarness()
        s.scrollView.contentOffset = pt(500, 500)
        s.scrollView.scrollRectToVisible(Rect(x: 600, y: 600, width: 50, height: 50), animated: false)
        #expect(s.scrollView.contentOffset == pt(500, 500))
        #expect(s.recorder.scrolls == 1)
        s.scrollView.scrollRectToVisible(Rect(x: 1350, y: 1050, width: 50, height: 100), animated: false)
        #expect(s.scrollView.contentOffset == pt(600, 550), "its far corner comes to the view's far corner")
        s.scrollView.scrollRectToVisible(Rect(x: 100, y: 200, width: 1000, height: 10), animated: false)
        #expect(s.scrollView.contentOffset == pt(100, 200), "a rectangle wider than the view shows its start")
        s.scrollView.scrollRectToVisible(Rect(x: 1900, y: 1400, width: 400, height: 400), animated: false)
        #expect(s.scrollView.contentOffset == pt(1200, 900), "held within the content")
        s.scrollView.scrollRectToVisible(Rect(x: 0, y: 0, width: 10, height: 10), animated: true)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == .zero)
    }
}
