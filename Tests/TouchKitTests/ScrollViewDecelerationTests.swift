import Foundation
import Testing

@testable import TouchKit

@Suite struct ScrollViewDecelerationTests {
    /// A 200-point flick to the left in 100 ms (2,000 points a second), lifted while moving.
    private func flick(_ s: ScrollHarness, at t: TimeInterval = 0, from start: Point = pt(600, 300)) {
        s.drag(from: start, to: start - pt(200, 0), at: t, duration: 0.1, steps: 10)
    }

    /// The decay constant per second of a rate per millisecond.
    private func k(_ rate: ScrollView.DecelerationRate) -> Double { -1000 * log(rate.rawValue) }

    @Test("a flick glides on the clock's frames, velocity × 0.998 per ms, and rests v/k away with the delegate told")
    func flickGlidesAndRests() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        flick(s)
        #expect(s.scrollView.contentOffset == pt(200, 0))
        #expect(s.scrollView.isDecelerating)
        #expect(!s.scrollView.isDragging)
        #expect(s.recorder.log == ["willBeginDragging", "didEndDragging(true)", "willBeginDecelerating"])
        #expect(s.recorder.endVelocity?.isClose(to: pt(2, 0), within: 1e-9) == true, "points per millisecond")
        let k = k(.normal)
        s.clock.advance(to: 0.6 + 0.001)
        let expected = 200 + 2000 * (1 - exp(-k * 0.5)) / k
        #expect(s.scrollView.contentOffset.x.isClose(to: expected, within: 1e-6))
        #expect(s.scrollView.contentOffset.y == 0)
        s.clock.runUntilIdle()
        #expect(!s.scrollView.isDecelerating)
        #expect(s.scrollView.contentOffset.x.isClose(to: 200 + 2000 / k, within: 1e-6))
        #expect(s.scrollView.contentOffset.x.isClose(to: 1199.0, within: 0.01), "2,000 points a second glide 999")
        #expect(s.recorder.log.last == "didEndDecelerating")
        #expect(s.recorder.log.filter { $0 == "didEndDecelerating" }.count == 1)
        // It ends once less than half a point is left: 2000·e^(−k·t)/k < 0.5.
        let end = 0.1 + log(2000 / (0.5 * k)) / k
        #expect(s.clock.now >= end && s.clock.now <= end + 1.0 / 60 + 1e-9)
    }

    @Test("the glide moves only as the virtual clock advances")
    func glideFollowsVirtualClock() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        flick(s)
        let scrolls = s.recorder.scrolls
        #expect(s.clock.hasPendingTimers)
        #expect(s.scrollView.contentOffset == pt(200, 0))
        s.clock.advance(by: 1.0 / 60)
        #expect(s.recorder.scrolls == scrolls + 1)
        #expect(s.scrollView.contentOffset.x > 200)
    }

    @Test("decelerationRate .fast (0.99 per ms) rests about five times nearer, sooner")
    func fastRate() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        s.scrollView.decelerationRate = .fast
        flick(s)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset.x.isClose(to: 200 + 2000 / k(.fast), within: 1e-6))
        #expect(s.scrollView.contentOffset.x.isClose(to: 399.0, within: 0.01), "2,000 points a second glide 199")
        #expect(s.clock.now < 1)
    }

    @Test("fingers lifted after a pause do not glide")
    func pauseBeforeLiftDoesNotGlide() {
        let s = ScrollHarness()
        s.drag(from: pt(600, 300), to: pt(400, 300), at: 0, duration: 0.1, lift: false)
        s.up(1, 400, 300, at: 0.2)
        #expect(!s.scrollView.isDecelerating)
        #expect(s.recorder.log == ["willBeginDragging", "didEndDragging(false)"])
        #expect(!s.clock.hasPendingTimers)
    }

    @Test("a bounded glide stops at the content's edge at once")
    func glideStopsAtEdge() {
        let s = ScrollHarness()
        s.scrollView.contentOffset = pt(900, 0)
        flick(s)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == pt(1200, 0))
        #expect(s.clock.now < 0.5, "a glide held at its edge ends rather than running out its time")
        #expect(s.recorder.log.last == "didEndDecelerating")
    }

    @Test("a flick against the edge the content already touches does not glide")
    func flickIntoEdgeDoesNotGlide() {
        let s = ScrollHarness()
        s.scrollView.contentOffset = pt(1200, 0)
        flick(s)
        #expect(s.recorder.log == ["willBeginDragging", "didEndDragging(false)"])
    }

    @Test("a touch down during the glide stops it where it is, and the content never sees that touch")
    func touchStopsGlide() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        flick(s)
        s.clock.advance(to: 0.5)
        let stopped = s.scrollView.contentOffset
        s.down(2, 400, 300, at: 0.5)
        #expect(!s.scrollView.isDecelerating)
        #expect(s.recorder.log.last == "didEndDecelerating")
        s.up(2, 400, 300, at: 0.55)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == stopped)
        #expect(s.contentCalls.isEmpty)
        s.down(3, 400, 300, at: 2)
        s.up(3, 400, 300, at: 2.05)
        #expect(s.contentCalls == ["content.began", "content.ended"], "the next tap reaches the content")
    }

    @Test("a drag begun during a glide carries on from where the glide stopped")
    func dragDuringGlide() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        flick(s)
        s.clock.advance(to: 0.5)
        let stopped = s.scrollView.contentOffset
        s.drag(from: pt(400, 300), to: pt(400, 250), at: 0.5, duration: 0.2, lift: false)
        #expect(s.scrollView.contentOffset == stopped + pt(0, 50))
        #expect(s.scrollView.isDragging)
    }

    @Test("the delegate's targetContentOffset moves the resting point, and the glide ends exactly there")
    func delegateRetargets() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        s.recorder.retarget = { target in pt((target.x / 500).rounded() * 500, target.y) }
        flick(s)
        #expect(s.scrollView.isDecelerating)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset.isClose(to: pt(1000, 0), within: 1e-9))
    }

    @Test("a pen the pan does not take stops a glide and still reaches the content at once")
    func penStopsGlideAndDraws() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        s.scrollView.panGestureRecognizer.allowedTouchTypes = [.direct]
        s.scrollView.pinchGestureRecognizer.allowedTouchTypes = [.direct]
        flick(s)
        s.clock.advance(to: 0.5)
        s.down(2, 400, 300, at: 0.5, type: .pencil)
        #expect(!s.scrollView.isDecelerating)
        #expect(s.contentCalls == ["content.began"])
    }

    @Test("an offset set during a glide is carried on from, and setContentOffset or a zoom stops the glide")
    func offsetSetDuringGlide() {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        s.scrollView.minimumZoomScale = 0.5
        s.scrollView.maximumZoomScale = 2
        flick(s)
        s.clock.advance(to: 0.3)
        s.scrollView.contentOffset = s.scrollView.contentOffset + pt(0, 1000)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset.isClose(to: pt(1199.0, 1000), within: 0.01))
        flick(s, at: 10)
        s.clock.advance(to: 10.3)
        s.scrollView.setContentOffset(pt(5, 5), animated: false)
        #expect(!s.scrollView.isDecelerating)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == pt(5, 5))
        flick(s, at: 20)
        s.clock.advance(to: 20.3)
        s.scrollView.zoomScale = 2
        #expect(!s.scrollView.isDecelerating)
    }
}
