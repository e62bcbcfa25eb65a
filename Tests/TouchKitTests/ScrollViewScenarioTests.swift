import Testing

@testable import TouchKit

/// The two ways TouchTracker means to put its drawing in a scroll view, end to end.
@Suite struct ScrollViewScenarioTests {
    /// Fingers draw: no delay for the content, and only two fingers scroll and zoom.
    private func fingersDraw() -> ScrollHarness {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        s.scrollView.minimumZoomScale = 0.1
        s.scrollView.maximumZoomScale = 10
        s.scrollView.delaysContentTouches = false
        s.scrollView.panGestureRecognizer.minimumNumberOfTouches = 2
        return s
    }

    /// A pen draws; fingers (and a touchpad's virtual fingers) scroll with one and zoom with two.
    private func penDraws() -> ScrollHarness {
        let s = ScrollHarness()
        s.scrollView.contentInset = .unbounded
        s.scrollView.minimumZoomScale = 0.1
        s.scrollView.maximumZoomScale = 10
        s.scrollView.panGestureRecognizer.allowedTouchTypes = [.direct, .indirectPointer]
        s.scrollView.pinchGestureRecognizer.allowedTouchTypes = [.direct, .indirectPointer]
        return s
    }

    @Test("fingers draw: one finger's stroke reaches the drawing at once, every move, and never scrolls")
    func fingerDrawsAtOnce() {
        let s = fingersDraw()
        s.down(1, 100, 100, at: 0)
        #expect(s.contentCalls == ["content.began"])
        s.move(1, 200, 150, at: 0.02)
        s.move(1, 300, 200, at: 0.04)
        s.up(1, 300, 200, at: 0.06)
        #expect(s.contentCalls == ["content.began", "content.moved", "content.moved", "content.ended"])
        #expect(s.scrollView.contentOffset == .zero)
    }

    @Test("fingers draw: several fingers draw at once as long as they do not pinch or pan together")
    func severalFingersDraw() {
        let s = fingersDraw()
        s.down(1, 100, 100, at: 0)
        s.move(1, 150, 100, at: 0.02)
        s.up(1, 150, 100, at: 0.04)
        s.down(2, 400, 400, at: 0.1)
        s.move(2, 400, 450, at: 0.12)
        s.up(2, 400, 450, at: 0.14)
        #expect(s.contentCalls.filter { $0 == "content.ended" }.count == 2)
        #expect(s.scrollView.contentOffset == .zero)
    }

    @Test("fingers draw: a second finger that pinches takes both fingers from the drawing, and zooms and scrolls")
    func twoFingersZoom() {
        let s = fingersDraw()
        s.down(1, 300, 300, at: 0)
        s.move(1, 302, 300, at: 0.01)
        s.down(2, 500, 300, at: 0.02)
        for step in 1...5 {
            let d = Double(step) * 10
            s.move(1, 302 - d, 300 - d, at: 0.02 + Double(step) * 0.01)
            s.move(2, 500 + d, 300 - d, at: 0.02 + Double(step) * 0.01)
        }
        #expect(s.contentCalls.last == "content.cancelled(gesture)")
        #expect(s.contentCalls.filter { $0.hasPrefix("content.cancelled") }.count == 1, "one call for both")
        #expect(s.scrollView.zoomScale > 1)
        #expect(s.scrollView.contentOffset.y > 0, "the fingers moved up together: the content scrolled with them")
    }

    @Test("pen draws: the pen's stroke reaches the drawing at once, while a finger scrolls")
    func penDrawsFingerScrolls() {
        let s = penDraws()
        s.down(1, 100, 100, at: 0, type: .pencil)
        #expect(s.contentCalls == ["content.began"])
        s.drag(2, from: pt(600, 400), to: pt(500, 400), at: 0.01, duration: 0.2, lift: false)
        s.move(1, 200, 200, at: 0.3)
        #expect(s.scrollView.contentOffset == pt(100, 0))
        #expect(s.contentCalls == ["content.began", "content.moved"], "the finger never reached the drawing")
        s.up(1, 200, 200, at: 0.4)
        s.up(2, 500, 400, at: 0.5)
        #expect(s.contentCalls.last == "content.ended")
    }

    @Test("pen draws: a finger tap still reaches the drawing (a menu, a selection)")
    func fingerTapReachesDrawing() {
        let s = penDraws()
        s.down(1, 100, 100, at: 0)
        s.up(1, 100, 100, at: 0.08)
        #expect(s.contentCalls == ["content.began", "content.ended"])
    }
}
