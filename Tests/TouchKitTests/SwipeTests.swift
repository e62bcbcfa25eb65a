import Foundation
import Testing

@testable import TouchKit

@Suite struct SwipeTests {
    typealias Direction = SwipeGestureRecognizer.Direction

    static let strokes: [(String, Direction, Point)] = [
        ("right", .right, pt(80, 0)), ("left", .left, pt(-80, 0)), ("up", .up, pt(0, -80)),
        ("down", .down, pt(0, 80)),
    ]

    @Test("a swipe in each allowed direction is recognized", arguments: 0..<4)
    func swipeEachDirection(index: Int) {
        let (_, direction, travel) = Self.strokes[index]
        let h = Harness()
        let swipe = SwipeGestureRecognizer()
        swipe.direction = direction
        h.add(swipe, "swipe")
        h.drag(from: pt(400, 300), to: pt(400, 300) + travel, at: 0, duration: 0.2)
        #expect(h.actions == ["swipe:ended"])
    }

    @Test("the distance a lift carries counts: a finger that lifts 100 px along swipes, as at a move")
    func liftCarriesTheSwipe() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(), "swipe")
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 100, at: 0.05)
        h.up(1, 200, 100, at: 0.1)
        #expect(h.actions == ["swipe:ended"])
    }

    @Test("each touch's location is where it began the swipe, as the swipe's location is")
    func touchLocationIsWhereTheSwipeBegan() {
        let h = Harness()
        let swipe = SwipeGestureRecognizer()
        var located: [Point] = []
        swipe.addTarget { s in located = [s.location(in: nil), s.location(ofTouch: 0, in: nil)] }
        h.add(swipe, "swipe")
        h.drag(from: pt(100, 100), to: pt(180, 100), at: 0, duration: 0.2)
        #expect(located == [pt(100, 100), pt(100, 100)])
    }

    @Test("a swipe in the wrong direction fails", arguments: 0..<4)
    func swipeWrongDirection(index: Int) {
        let (_, direction, travel) = Self.strokes[index]
        let h = Harness()
        let swipe = SwipeGestureRecognizer()
        // Every direction but the stroke's.
        swipe.direction = Direction([.right, .left, .up, .down]).subtracting(direction)
        h.add(swipe, "swipe")
        h.drag(from: pt(400, 300), to: pt(400, 300) + travel, at: 0, duration: 0.2)
        #expect(h.actions.isEmpty)
    }

    /// Stays possible while its finger is down and fails at the lift: something a swipe can be made to wait for.
    final class FailsAtLift: GestureRecognizer {
        override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) { state = .failed }
    }

    @Test("a swipe recognized while it waits for a failure requirement is not failed by its own timeout")
    func waitingSwipeOutlivesItsTimeout() {
        let h = Harness()
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        swipe.require(toFail: h.add(FailsAtLift(), "other"))
        h.down(1, 100, 300, at: 0)
        for step in 1...4 { h.move(1, 100 + 20 * Double(step), 300, at: 0.02 * Double(step)) }
        h.advance(to: 0.8)
        h.up(1, 180, 300, at: 0.8)
        #expect(h.actions == ["swipe:ended"])
    }

    @Test("a swipe recognized while it waits keeps its direction when the finger turns afterwards")
    func waitingSwipeKeepsItsDirection() {
        let h = Harness()
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        swipe.direction = [.right, .down]
        swipe.require(toFail: h.add(FailsAtLift(), "other"))
        var recognized: [Direction] = []
        swipe.addTarget { recognized.append($0.recognizedDirection) }
        h.down(1, 100, 300, at: 0)
        for step in 1...4 { h.move(1, 100 + 20 * Double(step), 300, at: 0.02 * Double(step)) }
        h.move(1, 180, 600, at: 0.2)
        h.up(1, 180, 600, at: 0.3)
        #expect(h.actions == ["swipe:ended"])
        #expect(recognized == [.right])
    }

    @Test("the default swipe direction is right")
    func defaultRight() {
        #expect(SwipeGestureRecognizer().direction == .right)
    }

    @Test("a swipe recognizes as soon as it has travelled 50 px, before the finger lifts")
    func recognizesMidStroke() {
        let h = Harness()
        let swipe = h.add(SwipeGestureRecognizer(), "swipe")
        h.down(1, 100, 100, at: 0)
        h.move(1, 149, 100, at: 0.1)
        #expect(h.actions.isEmpty)
        h.move(1, 150, 100, at: 0.15)
        #expect(h.actions == ["swipe:ended"])
        #expect(swipe.state == .ended)
        h.up(1, 160, 100, at: 0.2)
        #expect(swipe.state == .possible)
    }

    @Test("a stroke that takes longer than 0.5 s is not a swipe")
    func tooSlow() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(), "swipe")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, duration: 2)
        #expect(h.actions.isEmpty)
    }

    @Test("a stroke shorter than 50 px is not a swipe")
    func tooShort() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(), "swipe")
        h.drag(from: pt(100, 100), to: pt(145, 100), at: 0, duration: 0.2)
        #expect(h.actions.isEmpty)
    }

    @Test("a stroke 45 degrees off the direction is not a swipe")
    func tooSteep() {
        let h = Harness()
        h.add(SwipeGestureRecognizer(), "swipe")
        h.drag(from: pt(100, 100), to: pt(180, 178), at: 0, duration: 0.2)
        #expect(h.actions.isEmpty)
    }

    @Test("a swipe allowing left and right takes either and reports which")
    func eitherHorizontal() {
        let h = Harness()
        let swipe = SwipeGestureRecognizer()
        swipe.direction = [.left, .right]
        var seen: [Direction] = []
        swipe.addTarget { s in seen.append(s.recognizedDirection) }
        h.view.addGestureRecognizer(swipe)
        h.drag(from: pt(300, 100), to: pt(200, 100), at: 0)
        h.drag(from: pt(300, 100), to: pt(400, 100), at: 1)
        #expect(seen == [.left, .right])
    }

    @Test("a two-finger swipe needs two fingers")
    func twoFingerSwipe() {
        let h = Harness()
        let swipe = SwipeGestureRecognizer()
        swipe.numberOfTouchesRequired = 2
        h.add(swipe, "swipe")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0)
        #expect(h.actions.isEmpty)
        h.down(1, 100, 100, at: 1)
        h.down(2, 100, 200, at: 1)
        for i in 1...5 {
            h.move(1, 100 + Double(i) * 15, 100, at: 1 + Double(i) * 0.02)
            h.move(2, 100 + Double(i) * 15, 200, at: 1 + Double(i) * 0.02)
        }
        #expect(h.actions == ["swipe:ended"])
    }

    @Test("a swipe's location is where it started")
    func swipeLocation() {
        let h = Harness()
        var location = Point.zero
        let swipe = SwipeGestureRecognizer { s in location = s.location(in: nil) }
        h.view.addGestureRecognizer(swipe)
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0)
        #expect(location == pt(100, 100))
    }
}

@Suite struct PinchRotationTests {
    @Test("spreading two fingers to twice their distance gives scale 2")
    func pinchScale() {
        let h = Harness()
        var scales: [Double] = []
        let pinch = PinchGestureRecognizer { p in scales.append(p.scale) }
        h.view.addGestureRecognizer(pinch)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        h.move(2, 420, 300, at: 0.05)
        h.move(1, 250, 300, at: 0.1)
        h.move(2, 450, 300, at: 0.15)
        h.up(1, 250, 300, at: 0.2)
        #expect(pinch.state == .changed)
        h.up(2, 450, 300, at: 0.25)
        #expect(pinch.state == .possible)
        #expect(scales.count == 4)
        #expect(scales[0].isClose(to: 1.2))
        #expect(scales[2].isClose(to: 2))
        #expect(scales[3].isClose(to: 2))
    }

    @Test("a finger lifted and put back continues the pinch without a jump")
    func pinchFingerReturns() {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(), "pinch")
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        h.move(2, 500, 300, at: 0.05)
        #expect(pinch.scale.isClose(to: 2))
        h.up(2, 500, 300, at: 0.1)
        #expect(pinch.scale.isClose(to: 2))
        h.down(3, 350, 300, at: 0.15)
        #expect(pinch.scale.isClose(to: 2))
        h.move(3, 400, 300, at: 0.2)
        #expect(pinch.scale.isClose(to: 4))
        h.up(1, 300, 300, at: 0.3)
        h.up(3, 400, 300, at: 0.3)
        #expect(h.actions.last == "pinch:ended")
    }

    @Test("setting scale rescales the pinch velocity to the new reference")
    func pinchVelocityAfterReset() {
        let h = Harness()
        let pinch = h.add(PinchGestureRecognizer(), "pinch")
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        for i in 1...5 { h.move(2, 400 + Double(i) * 10, 300, at: Double(i) * 0.01) }
        #expect(pinch.velocity.isClose(to: 10, within: 1e-6))
        pinch.scale = 1
        // The span is now 150 px for scale 1: 1000 px/s is 1000/150 per second.
        #expect(pinch.velocity.isClose(to: 1000.0 / 150, within: 1e-6))
    }

    @Test("a pinch begins only after the span changes by more than 10 px")
    func pinchHysteresis() {
        let h = Harness()
        h.add(PinchGestureRecognizer(), "pinch")
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        h.move(2, 410, 300, at: 0.05)
        #expect(h.actions.isEmpty)
        h.move(2, 411, 300, at: 0.1)
        #expect(h.actions == ["pinch:began"])
    }

    @Test("setting scale to 1 after applying it makes the next report relative")
    func pinchScaleReset() {
        let h = Harness()
        var scales: [Double] = []
        let pinch = PinchGestureRecognizer { p in
            scales.append(p.scale)
            p.scale = 1
        }
        h.view.addGestureRecognizer(pinch)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        h.move(2, 500, 300, at: 0.05)
        h.move(2, 700, 300, at: 0.1)
        #expect(scales.count == 2)
        #expect(scales[0].isClose(to: 2))
        #expect(scales[1].isClose(to: 2))
    }

    @Test("one finger never pinches")
    func oneFingerNoPinch() {
        let h = Harness()
        h.add(PinchGestureRecognizer(), "pinch")
        h.drag(from: pt(100, 100), to: pt(400, 400), at: 0)
        h.settle()
        #expect(h.actions.isEmpty)
    }

    @Test("pinch velocity is the rate of change of scale")
    func pinchVelocity() {
        let h = Harness()
        var velocity = 0.0
        let pinch = PinchGestureRecognizer { p in velocity = p.velocity }
        h.view.addGestureRecognizer(pinch)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        // The span grows 10 px (scale 0.1) every 10 ms: 10 per second.
        for i in 1...8 { h.move(2, 400 + Double(i) * 10, 300, at: Double(i) * 0.01) }
        #expect(velocity.isClose(to: 10, within: 0.01))
    }

    @Test("turning two fingers a quarter turn gives rotation pi/2")
    func rotationQuarterTurn() {
        let h = Harness()
        var rotation = 0.0
        let rotate = RotationGestureRecognizer { r in rotation = r.rotation }
        h.view.addGestureRecognizer(rotate)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        for i in 1...9 {
            let angle = Double(i) * .pi / 18
            h.move(2, 300 + 100 * cos(angle), 300 + 100 * sin(angle), at: Double(i) * 0.01)
        }
        #expect(rotation.isClose(to: .pi / 2, within: 1e-9))
        #expect(rotate.state == .changed)
    }

    @Test("rotation keeps counting past half a turn without wrapping")
    func rotationUnwraps() {
        let h = Harness()
        let rotate = h.add(RotationGestureRecognizer(), "rotate")
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        for i in 1...30 {
            let angle = Double(i) * .pi / 12
            h.move(2, 300 + 100 * cos(angle), 300 + 100 * sin(angle), at: Double(i) * 0.01)
        }
        #expect(rotate.rotation.isClose(to: 2.5 * .pi, within: 1e-9))
    }

    @Test("setting rotation to 0 after applying it makes the next report relative")
    func rotationReset() {
        let h = Harness()
        var rotations: [Double] = []
        let rotate = RotationGestureRecognizer { r in
            rotations.append(r.rotation)
            r.rotation = 0
        }
        h.view.addGestureRecognizer(rotate)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        h.move(2, 300 + 100 * cos(0.2), 300 + 100 * sin(0.2), at: 0.01)
        h.move(2, 300 + 100 * cos(0.5), 300 + 100 * sin(0.5), at: 0.02)
        #expect(rotations.count == 2)
        #expect(rotations[0].isClose(to: 0.2, within: 1e-9))
        #expect(rotations[1].isClose(to: 0.3, within: 1e-9))
    }

    @Test("rotation velocity is in radians per second")
    func rotationVelocity() {
        let h = Harness()
        var velocity = 0.0
        let rotate = RotationGestureRecognizer { r in velocity = r.velocity }
        h.view.addGestureRecognizer(rotate)
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        for i in 1...8 {
            let angle = Double(i) * 0.05
            h.move(2, 300 + 100 * cos(angle), 300 + 100 * sin(angle), at: Double(i) * 0.01)
        }
        #expect(velocity.isClose(to: 5, within: 1e-6))
    }

    final class AllowAll: GestureRecognizerDelegate {
        func gestureRecognizer(
            _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
        ) -> Bool { true }
    }

    @Test("pan, pinch and rotation recognize simultaneously with two fingers when the delegate allows")
    func simultaneousTransform() {
        let h = Harness()
        let delegate = AllowAll()
        let pan = h.add(PanGestureRecognizer(), "pan")
        let pinch = h.add(PinchGestureRecognizer(), "pinch")
        let rotate = h.add(RotationGestureRecognizer(), "rotate")
        for r in [pan, pinch, rotate] as [GestureRecognizer] { r.delegate = delegate }
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        // Move apart, turn and travel at once.
        for i in 1...10 {
            let f = Double(i) / 10
            let angle = f * 0.5
            let center = pt(350 + 60 * f, 300 + 40 * f)
            let half = 50 + 50 * f
            h.move(1, center.x - half * cos(angle), center.y - half * sin(angle), at: f * 0.2)
            h.move(2, center.x + half * cos(angle), center.y + half * sin(angle), at: f * 0.2)
        }
        #expect(pan.state == .changed)
        #expect(pinch.state == .changed)
        #expect(rotate.state == .changed)
        #expect(pinch.scale.isClose(to: 2, within: 1e-9))
        #expect(rotate.rotation.isClose(to: 0.5, within: 1e-9))
        #expect(pan.translation(in: nil).isClose(to: pt(60, 40), within: 1e-9))
        h.up(1, 0, 0, at: 0.3)
        h.up(2, 0, 0, at: 0.3)
        #expect(h.actions.filter { $0.hasSuffix(":ended") }.sorted() == ["pan:ended", "pinch:ended", "rotate:ended"])
    }

    @Test("without a delegate the first of pan, pinch and rotation to begin excludes the others")
    func exclusiveTransform() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        let pinch = h.add(PinchGestureRecognizer(), "pinch")
        h.down(1, 300, 300, at: 0)
        h.down(2, 400, 300, at: 0)
        // The span grows 12 px while the centroid moves only 6 px.
        h.move(2, 412, 300, at: 0.05)
        #expect(pinch.state == .began)
        #expect(pan.state == .failed)
        h.move(1, 200, 300, at: 0.1)
        #expect(h.actions == ["pinch:began", "pinch:changed"])
    }
}

@Suite struct ScreenEdgePanTests {
    static let cases: [(RectEdge, Point, Point)] = [
        (.left, pt(3, 300), pt(100, 300)), (.right, pt(797, 300), pt(700, 300)),
        (.top, pt(400, 2), pt(400, 100)), (.bottom, pt(400, 598), pt(400, 500)),
    ]

    @Test("a pan from each edge inwards begins", arguments: 0..<4)
    func fromEachEdge(index: Int) {
        let (edge, start, end) = Self.cases[index]
        let h = Harness()
        let pan = ScreenEdgePanGestureRecognizer()
        pan.edges = edge
        h.add(pan, "edge")
        h.drag(from: start, to: end, at: 0)
        #expect(h.actions.first == "edge:began")
        #expect(h.actions.last == "edge:ended")
    }

    @Test("a pan starting 30 px inside an edge does not begin", arguments: 0..<4)
    func fromInside(index: Int) {
        let (edge, start, end) = Self.cases[index]
        let inward = (end - start) / (end - start).length
        let h = Harness()
        let pan = ScreenEdgePanGestureRecognizer()
        pan.edges = edge
        h.add(pan, "edge")
        let inside = start + inward * 30
        h.drag(from: inside, to: inside + inward * 100, at: 0)
        #expect(h.actions.isEmpty)
    }

    @Test("a pan along the edge instead of away from it does not begin")
    func alongEdge() {
        let h = Harness()
        let pan = ScreenEdgePanGestureRecognizer()
        pan.edges = .left
        h.add(pan, "edge")
        h.drag(from: pt(3, 100), to: pt(10, 300), at: 0)
        #expect(h.actions.isEmpty)
    }

    @Test("a screen-edge pan with no edges recognizes nothing")
    func noEdges() {
        let h = Harness()
        h.add(ScreenEdgePanGestureRecognizer(), "edge")
        h.drag(from: pt(2, 300), to: pt(200, 300), at: 0)
        #expect(h.actions.isEmpty)
    }

    @Test("the edge region is a property")
    func widerRegion() {
        let h = Harness()
        let pan = ScreenEdgePanGestureRecognizer()
        pan.edges = .all
        pan.edgeRegion = 40
        h.add(pan, "edge")
        h.drag(from: pt(30, 300), to: pt(200, 300), at: 0)
        #expect(h.actions.first == "edge:began")
    }
}
