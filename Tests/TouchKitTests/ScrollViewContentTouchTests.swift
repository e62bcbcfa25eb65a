import Testing

@testable import TouchKit

/// UIKit's rules for touches that begin on a scroll view's content (`delaysContentTouches`,
/// `touchesShouldBegin(_:with:in:)`, `canCancelContentTouches`, `touchesShouldCancel(in:)`).
@Suite struct ScrollViewContentTouchTests {
    @Test("delaysContentTouches: a finger held still reaches the content only after 150 ms")
    func heldTouchReachesContentAfterDelay() {
        let s = ScrollHarness()
        s.down(1, 400, 300, at: 0)
        #expect(s.contentCalls.isEmpty)
        #expect(s.harness.window.heldTouchCount == 1)
        s.move(1, 403, 300, at: 0.1)
        s.clock.advance(to: 0.149)
        #expect(s.contentCalls.isEmpty)
        s.clock.advance(to: 0.151)
        #expect(s.contentCalls == ["content.began", "content.moved"], "the begin, then the latest move")
        #expect(s.scrollView.askedToBegin == [ObjectIdentifier(s.content)])
        s.move(1, 405, 300, at: 0.2)
        s.up(1, 405, 300, at: 0.3)
        #expect(s.contentCalls == ["content.began", "content.moved", "content.moved", "content.ended"])
        #expect(s.content.violations.isEmpty)
    }

    @Test("delaysContentTouches: a quick tap reaches the content, begin and end, when the finger lifts")
    func quickTapReachesContentOnLift() {
        let s = ScrollHarness()
        s.down(1, 400, 300, at: 0)
        s.up(1, 400, 300, at: 0.05)
        #expect(s.contentCalls == ["content.began", "content.ended"])
        #expect(s.scrollView.askedToBegin.count == 1)
        #expect(s.harness.window.heldTouchCount == 0)
        s.clock.runUntilIdle()
        #expect(s.contentCalls == ["content.began", "content.ended"])
    }

    @Test("delaysContentTouches: a drag begun within the delay scrolls, and the content never sees the touch")
    func earlyDragNeverReachesContent() {
        let s = ScrollHarness()
        s.drag(from: pt(400, 300), to: pt(300, 300), at: 0, duration: 0.1, lift: false)
        s.clock.advance(to: 1)
        s.up(1, 300, 300, at: 1)
        s.clock.runUntilIdle()
        #expect(s.scrollView.contentOffset == pt(100, 0))
        #expect(s.contentCalls.isEmpty)
        #expect(s.scrollView.askedToBegin.isEmpty, "touchesShouldBegin is not asked about a touch the drag took")
    }

    @Test("delaysContentTouches false: the content sees the touch at once, and a drag then cancels it")
    func immediateTouchCancelledByDrag() {
        let s = ScrollHarness()
        s.scrollView.delaysContentTouches = false
        s.down(1, 400, 300, at: 0)
        #expect(s.contentCalls == ["content.began"])
        #expect(s.scrollView.askedToBegin == [ObjectIdentifier(s.content)])
        s.move(1, 395, 300, at: 0.02)
        s.move(1, 380, 300, at: 0.04)
        #expect(s.contentCalls == ["content.began", "content.moved", "content.cancelled(gesture)"])
        #expect(s.scrollView.askedToCancel == [ObjectIdentifier(s.content)])
        #expect(s.scrollView.contentOffset == pt(20, 0))
    }

    @Test("canCancelContentTouches: after the delay, a drag cancels the content's touch and scrolls")
    func lateDragCancelsContent() {
        let s = ScrollHarness()
        s.down(1, 400, 300, at: 0)
        s.clock.advance(to: 0.3)
        #expect(s.contentCalls == ["content.began"])
        s.move(1, 370, 300, at: 0.35)
        #expect(s.contentCalls == ["content.began", "content.cancelled(gesture)"])
        #expect(s.scrollView.contentOffset == pt(30, 0))
        s.up(1, 370, 300, at: 0.6)
        #expect(s.content.violations.isEmpty)
    }

    @Test("canCancelContentTouches false: once the content sees a touch, dragging it never scrolls")
    func cannotCancelContentTouches() {
        let s = ScrollHarness()
        s.scrollView.canCancelContentTouches = false
        s.down(1, 400, 300, at: 0)
        s.clock.advance(to: 0.3)
        s.move(1, 300, 300, at: 0.35)
        s.move(1, 200, 300, at: 0.4)
        s.up(1, 200, 300, at: 0.45)
        #expect(s.scrollView.contentOffset == .zero)
        #expect(s.contentCalls == ["content.began", "content.moved", "content.moved", "content.ended"])
        #expect(s.scrollView.askedToCancel.isEmpty, "touchesShouldCancel is not asked when nothing may be cancelled")
    }

    @Test("canCancelContentTouches false: a drag begun before the content saw the touch still scrolls")
    func cannotCancelButNotYetTracking() {
        let s = ScrollHarness()
        s.scrollView.canCancelContentTouches = false
        s.drag(from: pt(400, 300), to: pt(300, 300), at: 0, duration: 0.1)
        #expect(s.scrollView.contentOffset.x > 99)
        #expect(s.contentCalls.isEmpty)
    }

    @Test("touchesShouldCancel(in:) false leaves the touch with the content view and the scroll view does not scroll")
    func touchesShouldCancelFalse() {
        let s = ScrollHarness()
        s.scrollView.delaysContentTouches = false
        s.scrollView.shouldCancel = { _ in false }
        s.drag(from: pt(400, 300), to: pt(200, 300), at: 0, duration: 0.2)
        #expect(s.scrollView.contentOffset == .zero)
        #expect(s.scrollView.askedToCancel == [ObjectIdentifier(s.content)])
        #expect(s.contentCalls.first == "content.began")
        #expect(s.contentCalls.last == "content.ended")
        #expect(!s.contentCalls.contains("content.cancelled(gesture)"))
    }

    @Test("touchesShouldCancel(in:) is asked with the view that saw the touch, and may answer per view")
    func touchesShouldCancelPerView() {
        let s = ScrollHarness()
        s.scrollView.delaysContentTouches = false
        let control = RecordingView(
            frame: Rect(x: 0, y: 0, width: 100, height: 100), log: s.harness.log, label: "control")
        s.content.addSubview(control)
        s.scrollView.shouldCancel = { $0 !== control }
        s.drag(from: pt(50, 50), to: pt(50, 250), at: 0, duration: 0.2)
        #expect(s.scrollView.contentOffset == .zero, "a drag on the control does not scroll")
        #expect(s.scrollView.askedToCancel == [ObjectIdentifier(control)])
        s.scrollView.contentOffset = pt(500, 500)
        s.drag(from: pt(400, 400), to: pt(400, 300), at: 1, duration: 0.2)
        #expect(s.scrollView.contentOffset == pt(500, 600), "a drag on the rest of the content scrolls")
    }

    @Test("touchesShouldBegin false after the delay keeps every message about the touch from the content")
    func touchesShouldBeginFalseDelayed() {
        let s = ScrollHarness()
        s.scrollView.shouldBegin = { _ in false }
        s.down(1, 400, 300, at: 0)
        s.clock.advance(to: 0.3)
        s.move(1, 402, 300, at: 0.35)
        s.up(1, 402, 300, at: 0.4)
        #expect(s.scrollView.askedToBegin == [ObjectIdentifier(s.content)])
        #expect(s.contentCalls.isEmpty)
        #expect(s.harness.window.heldTouchCount == 0)
        s.tap(at: 1)
        #expect(s.contentCalls.isEmpty, "a quick tap is refused too")
    }

    @Test("touchesShouldBegin false without the delay: the content never sees the touch, and it can still scroll")
    func touchesShouldBeginFalseImmediate() {
        let s = ScrollHarness()
        s.scrollView.delaysContentTouches = false
        s.scrollView.shouldBegin = { _ in false }
        s.down(1, 400, 300, at: 0)
        #expect(s.scrollView.askedToBegin.count == 1)
        s.move(1, 350, 300, at: 0.05)
        s.up(1, 350, 300, at: 0.5)
        #expect(s.contentCalls.isEmpty)
        #expect(s.scrollView.contentOffset == pt(50, 0))
    }

    @Test("touchesShouldBegin is asked about each touch with the view it began in")
    func touchesShouldBeginPerView() {
        let s = ScrollHarness()
        let inner = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: s.harness.log, label: "inner")
        s.content.addSubview(inner)
        s.scrollView.shouldBegin = { $0 === inner }
        s.down(1, 50, 50, at: 0)
        s.down(2, 400, 300, at: 0.01)
        s.clock.advance(to: 0.5)
        #expect(s.scrollView.askedToBegin == [ObjectIdentifier(inner), ObjectIdentifier(s.content)])
        #expect(s.harness.viewCalls == ["inner.began"])
    }

    @Test("a touch on the scroll view outside its content is not held back or asked about")
    func touchOutsideContent() {
        let s = ScrollHarness(contentSize: Size(width: 300, height: 200))
        s.down(1, 500, 500, at: 0)
        #expect(s.harness.viewCalls == ["view.began"], "the scroll view passes its own touches up the chain")
        #expect(s.scrollView.askedToBegin.isEmpty)
    }

    @Test("a pinch that begins cancels the content's touches")
    func pinchCancelsContentTouches() {
        let s = ScrollHarness()
        s.scrollView.delaysContentTouches = false
        s.scrollView.minimumZoomScale = 0.5
        s.scrollView.maximumZoomScale = 4
        s.down(1, 300, 300, at: 0)
        s.down(2, 500, 300, at: 0)
        #expect(s.contentCalls == ["content.began", "content.began"])
        s.harness.move(1, 250, 300, at: 0.3)
        s.harness.move(2, 550, 300, at: 0.3)
        #expect(s.scrollView.isZooming)
        #expect(s.contentCalls == ["content.began", "content.began", "content.cancelled(gesture)"])
    }

    @Test("the system cancelling every touch leaves the gate holding nothing, and the next touch is delayed again")
    func systemCancelResetsGate() {
        let s = ScrollHarness()
        s.down(1, 400, 300, at: 0)
        s.harness.window.cancelAllTouches()
        #expect(s.harness.window.heldTouchCount == 0)
        #expect(s.contentCalls.isEmpty)
        s.down(2, 400, 300, at: 0.5)
        #expect(s.contentCalls.isEmpty)
        s.clock.advance(to: 0.7)
        #expect(s.contentCalls == ["content.began"])
    }
}

extension ScrollHarness {
    /// A quick tap in the middle of the view at `t`.
    fileprivate func tap(at t: TimeInterval) {
        down(9, 400, 300, at: t)
        up(9, 400, 300, at: t + 0.05)
    }
}
