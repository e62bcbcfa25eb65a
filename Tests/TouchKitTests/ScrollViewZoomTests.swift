import Testing

@testable import TouchKit

@Suite struct ScrollViewZoomTests {
    /// A scroll view that zooms from 0.25 to 8.
    private func zoomable(unbounded: Bool = false) -> ScrollHarness {
        let s = ScrollHarness()
        s.scrollView.minimumZoomScale = 0.25
        s.scrollView.maximumZoomScale = 8
        if unbounded { s.scrollView.contentInset = .unbounded }
        return s
    }

    @Test("zoomScale stays within minimumZoomScale…maximumZoomScale")
    func zoomScaleClamped() {
        let s = zoomable()
        s.scrollView.zoomScale = 10
        #expect(s.scrollView.zoomScale == 8)
        s.scrollView.zoomScale = 0.1
        #expect(s.scrollView.zoomScale == 0.25)
        s.scrollView.minimumZoomScale = 0.5
        #expect(s.scrollView.zoomScale == 0.5, "a new minimum brings the zoom into range")
        s.scrollView.zoomScale = .nan
        #expect(s.scrollView.zoomScale == 0.5)
    }

    @Test("without a view to zoom, zoomScale stays 1 and a pinch does not begin")
    func noZoomingView() {
        let s = zoomable()
        s.recorder.zoomView = nil
        s.scrollView.zoomScale = 2
        #expect(s.scrollView.zoomScale == 1)
        s.pinch(from: pt(300, 300), pt(500, 300), to: pt(200, 300), pt(600, 300), at: 0)
        #expect(s.scrollView.pinchGestureRecognizer.state != .began)
        #expect(!s.recorder.log.contains("willBeginZooming"))
        #expect(s.content.transform == .identity)
    }

    @Test("equal minimum and maximum (the default) turn zooming off")
    func defaultRangeDoesNotZoom() {
        let s = ScrollHarness()
        s.pinch(from: pt(300, 300), pt(500, 300), to: pt(200, 300), pt(600, 300), at: 0)
        #expect(s.scrollView.zoomScale == 1)
        #expect(s.recorder.zooms == 0)
    }

    @Test("setZoomScale gives the view the zoom as its transform, at the content's origin, and keeps the centre")
    func setZoomScaleAboutCentre() {
        let s = zoomable()
        s.scrollView.zoomScale = 2
        #expect(s.content.transform == AffineTransform(scaleX: 2, y: 2))
        #expect(s.content.frame == Rect(x: 0, y: 0, width: 4000, height: 3000))
        #expect(s.scrollView.contentSize == Size(width: 4000, height: 3000))
        #expect(s.scrollView.contentOffset == pt(400, 300))
        #expect(s.contentPoint(under: pt(400, 300)) == pt(400, 300), "the point at the centre stays there")
        #expect(s.recorder.zooms == 1)
    }

    @Test("setZoomScale(_:anchoredAt:) keeps the content point under the anchor exactly")
    func anchoredZoom() {
        let s = zoomable(unbounded: true)
        s.scrollView.contentOffset = pt(123.5, 77.25)
        let anchor = pt(100.5, 500.25)
        let before = s.contentPoint(under: anchor)
        s.scrollView.setZoomScale(4, anchoredAt: anchor + s.scrollView.contentOffset, animated: false)
        #expect(s.contentPoint(under: anchor) == before)
        for scale in [3.0, 1.7, 0.3, 7.9] {
            let held = s.contentPoint(under: anchor)
            s.scrollView.setZoomScale(scale, anchoredAt: anchor + s.scrollView.contentOffset, animated: false)
            #expect(s.scrollView.zoomScale == scale)
            #expect(s.contentPoint(under: anchor).isClose(to: held, within: 1e-9))
        }
    }

    @Test("zoom(to:) makes the rectangle fill the view, centred, within the zoom range")
    func zoomToRect() {
        let s = zoomable(unbounded: true)
        s.scrollView.zoom(to: Rect(x: 100, y: 100, width: 400, height: 300), animated: false)
        #expect(s.scrollView.zoomScale == 2)
        #expect(s.contentPoint(under: pt(0, 0)) == pt(100, 100))
        #expect(s.contentPoint(under: pt(800, 600)) == pt(500, 400))
        s.scrollView.zoom(to: Rect(x: 0, y: 0, width: 400, height: 600), animated: false)
        #expect(s.scrollView.zoomScale == 1)
        #expect(s.contentPoint(under: pt(0, 0)) == pt(-200, 0))
        s.scrollView.zoom(to: Rect(x: 0, y: 0, width: 10, height: 10), animated: false)
        #expect(s.scrollView.zoomScale == 8)
        #expect(s.contentPoint(under: pt(400, 300)) == pt(5, 5))
    }

    @Test("a pinch zooms about its centre: the content under each finger stays under it")
    func pinchKeepsContentUnderFingers() {
        let s = zoomable(unbounded: true)
        s.scrollView.contentOffset = pt(50, 20)
        s.harness.down(1, 300, 300, at: 0)
        s.harness.down(2, 500, 300, at: 0)
        s.harness.move(1, 290, 300, at: 0.02)
        s.harness.move(2, 510, 300, at: 0.02)
        #expect(s.scrollView.isZooming)
        #expect(s.recorder.log == ["willBeginZooming"])
        let under1 = s.contentPoint(under: pt(290, 300))
        let under2 = s.contentPoint(under: pt(510, 300))
        for step in 1...10 {
            let d = Double(step) * 15
            let t = 0.02 + Double(step) * 0.02
            s.harness.move(1, 290 - d, 300, at: t)
            s.harness.move(2, 510 + d, 300, at: t)
            #expect(s.contentPoint(under: pt(290 - d, 300)).isClose(to: under1, within: 1e-9))
            #expect(s.contentPoint(under: pt(510 + d, 300)).isClose(to: under2, within: 1e-9))
        }
        #expect(s.scrollView.zoomScale.isClose(to: 520.0 / 200, within: 1e-12), "the span's ratio since touch-down")
        s.harness.up(1, 140, 300, at: 0.3)
        s.harness.up(2, 660, 300, at: 0.3)
        #expect(!s.scrollView.isZooming)
        let zooming = s.recorder.log.filter { $0.contains("Zooming") }
        #expect(zooming == ["willBeginZooming", "didEndZooming(\(s.scrollView.zoomScale))"])
    }

    @Test("two fingers moving together while they pinch also scroll, the content staying under them")
    func pinchAndPan() {
        let s = zoomable(unbounded: true)
        s.harness.down(1, 300, 300, at: 0)
        s.harness.down(2, 500, 300, at: 0)
        s.harness.move(1, 290, 300, at: 0.02)
        s.harness.move(2, 510, 300, at: 0.02)
        let under1 = s.contentPoint(under: pt(290, 300))
        let under2 = s.contentPoint(under: pt(510, 300))
        s.harness.move(1, 100, 100, at: 0.04)
        s.harness.move(2, 420, 100, at: 0.04)
        #expect(s.scrollView.isDragging, "the pan recognizes with the pinch")
        #expect(s.contentPoint(under: pt(100, 100)).isClose(to: under1, within: 1e-9))
        #expect(s.contentPoint(under: pt(420, 100)).isClose(to: under2, within: 1e-9))
    }

    @Test("a finger lifted and put back during a pinch does not make the content jump")
    func fingerLiftedAndBack() {
        let s = zoomable(unbounded: true)
        s.harness.down(1, 300, 300, at: 0)
        s.harness.down(2, 500, 300, at: 0)
        s.harness.move(1, 280, 300, at: 0.02)
        s.harness.move(2, 520, 300, at: 0.02)
        s.harness.move(2, 560, 300, at: 0.04)
        let under1 = s.contentPoint(under: pt(280, 300))
        s.harness.up(2, 560, 300, at: 0.06)
        #expect(s.contentPoint(under: pt(280, 300)).isClose(to: under1, within: 1e-9))
        s.harness.move(1, 250, 280, at: 0.08)
        #expect(s.contentPoint(under: pt(250, 280)).isClose(to: under1, within: 1e-9), "one finger pans")
        s.harness.down(3, 450, 280, at: 0.1)
        let centre = pt(350, 280)
        let underCentre = s.contentPoint(under: centre)
        #expect(s.contentPoint(under: pt(250, 280)).isClose(to: under1, within: 1e-9))
        s.harness.move(3, 470, 280, at: 0.12)
        s.harness.move(1, 230, 280, at: 0.12)
        #expect(s.scrollView.isZooming)
        #expect(s.contentPoint(under: centre).isClose(to: underCentre, within: 1e-9))
    }

    @Test("a pinch stops at maximumZoomScale and minimumZoomScale")
    func pinchClamped() {
        let s = zoomable(unbounded: true)
        s.scrollView.maximumZoomScale = 1.5
        s.pinch(from: pt(390, 300), pt(410, 300), to: pt(0, 300), pt(790, 300), at: 0)
        #expect(s.scrollView.zoomScale == 1.5)
        s.pinch(from: pt(0, 300), pt(790, 300), to: pt(395, 300), pt(405, 300), at: 1)
        #expect(s.scrollView.zoomScale == 0.25)
    }

    @Test("points convert exactly between the window, the scroll view and the zoomed content, both ways")
    func conversionsAreExact() {
        let s = zoomable(unbounded: true)
        s.scrollView.center = pt(450, 340)  // the scroll view's frame starts at (50, 40) in the window
        for scale in [0.25, 0.5, 2, 4] {
            s.scrollView.zoomScale = scale
            s.scrollView.contentOffset = pt(-312.5, 1024.75)
            for p in [pt(0, 0), pt(0.1, 0.3), pt(799.5, 599.25), pt(-3, 7)] {
                let inScroll = s.scrollView.convert(p, from: nil)
                #expect(inScroll == p - pt(50, 40) + pt(-312.5, 1024.75))
                let inContent = s.content.convert(p, from: nil)
                #expect(inContent == pt(inScroll.x / scale, inScroll.y / scale))
                #expect(s.content.convert(inContent, to: s.scrollView) == inScroll)
                #expect(s.scrollView.convert(inScroll, to: s.content) == inContent)
                #expect(s.content.convert(inContent, to: nil).isClose(to: p, within: 1e-12))
            }
        }
        for scale in [1.7, 3.0, 0.3] {
            s.scrollView.zoomScale = scale
            for p in [pt(0.1, 0.3), pt(799.5, 599.25)] {
                let inContent = s.content.convert(p, from: nil)
                let expected = (p - pt(50, 40) + s.scrollView.contentOffset) / scale
                #expect(inContent.isClose(to: expected, within: 1e-9))
                #expect(s.content.convert(inContent, to: nil).isClose(to: p, within: 1e-9))
            }
        }
    }

    @Test("an animated zoom moves on the clock about the centre and ends exactly, telling the delegate")
    func animatedZoom() {
        let s = zoomable()
        s.scrollView.contentOffset = pt(200, 100)
        let centre = s.contentPoint(under: pt(400, 300))
        s.scrollView.setZoomScale(4, animated: true)
        #expect(s.scrollView.zoomScale == 1)
        s.clock.advance(by: 0.15)
        #expect(s.scrollView.zoomScale > 1.5 && s.scrollView.zoomScale < 3)
        #expect(s.contentPoint(under: pt(400, 300)).isClose(to: centre, within: 1e-9))
        s.clock.runUntilIdle()
        #expect(s.scrollView.zoomScale == 4)
        #expect(s.contentPoint(under: pt(400, 300)) == centre)
        #expect(s.recorder.log == ["didEndZooming(4.0)", "didEndScrollingAnimation"])
    }

    @Test("an animated zoom(to:) ends showing the rectangle")
    func animatedZoomToRect() {
        let s = zoomable()
        s.scrollView.zoom(to: Rect(x: 1000, y: 800, width: 200, height: 150), animated: true)
        s.clock.runUntilIdle()
        #expect(s.scrollView.zoomScale == 4)
        #expect(s.contentPoint(under: pt(0, 0)) == pt(1000, 800))
    }

    @Test("a touchpad pinch through TouchpadGestureBridge zooms by its scale about its focus")
    func touchpadPinchZoomsAboutFocus() {
        let s = zoomable(unbounded: true)
        s.scrollView.contentOffset = pt(100, 50)
        var bridge = TouchpadGestureBridge()
        let focus = pt(250, 400)
        // The content point the pinch holds under its fingers' centre, read as it begins (after the scroll view's
        // own action). The bridge's two fingers arrive one at a time, so their centre is off the focus by half a
        // finger's step in that moment.
        var held: Point?
        s.scrollView.pinchGestureRecognizer.addTarget { pinch in
            if pinch.state == .began { held = s.content.convert(pinch.location(in: nil), from: nil) }
        }
        s.harness.window.send(
            bridge.pinch(.began, focus: focus, delta: .zero, scale: 1, deltaAngle: 0, timestamp: 0))
        for step in 1...10 {
            s.harness.window.send(
                bridge.pinch(
                    .changed, focus: focus, delta: .zero, scale: 1 + Double(step) * 0.1, deltaAngle: 0,
                    timestamp: Double(step) * 0.01))
            if let held { #expect(s.contentPoint(under: focus).isClose(to: held, within: 1e-9)) }
        }
        #expect(held.map { $0.distance(to: pt(350, 450)) <= 1.25 + 1e-9 } == true)
        s.harness.window.send(
            bridge.pinch(.ended, focus: focus, delta: .zero, scale: 2, deltaAngle: 0, timestamp: 0.11))
        #expect(s.scrollView.zoomScale.isClose(to: 2, within: 1e-12), "the zoom is the touchpad's scale")
        #expect(s.contentCalls.isEmpty, "the zoom took the virtual fingers before the content saw them")
    }
}
