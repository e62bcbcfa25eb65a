import Foundation
import Testing
import TouchKit

@Suite struct TouchpadGestureBridgeTests {
    /// A window whose single view has a pinch and a rotation recognizer that may work together.
    final class PinchWorld: GestureRecognizerDelegate {
        let window = Window(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let view = View(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        let pinch = PinchGestureRecognizer()
        let rotation = RotationGestureRecognizer()
        var scale = 1.0
        var angle = 0.0

        init() {
            view.isMultipleTouchEnabled = true
            window.addSubview(view)
            pinch.delegate = self
            rotation.delegate = self
            pinch.addTarget(self) { world, recognizer in
                world.scale *= recognizer.scale
                recognizer.scale = 1
            }
            rotation.addTarget(self) { world, recognizer in
                world.angle += recognizer.rotation
                recognizer.rotation = 0
            }
            view.addGestureRecognizer(pinch)
            view.addGestureRecognizer(rotation)
        }

        func gestureRecognizer(
            _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
        ) -> Bool { true }
    }

    @Test("a touchpad pinch to 1.5 turning 30° drives the pinch and rotation recognizers by as much")
    func pinchDrivesRecognizers() {
        let world = PinchWorld()
        var bridge = TouchpadGestureBridge()
        let focus = Point(x: 400, y: 300)
        var time = 0.0
        world.window.send(bridge.pinch(.began, focus: focus, delta: .zero, scale: 1, deltaAngle: 0, timestamp: time))
        for step in 1...10 {
            time += 0.016
            world.window.send(
                bridge.pinch(
                    .changed, focus: focus, delta: .zero, scale: 1 + 0.05 * Double(step), deltaAngle: 3,
                    timestamp: time))
        }
        world.window.send(bridge.pinch(.ended, focus: focus, delta: .zero, scale: 1.5, deltaAngle: 0, timestamp: time))
        #expect(abs(world.scale - 1.5) < 1e-9)
        #expect(abs(world.angle - Double.pi / 6) < 1e-9)
        #expect(world.window.activeTouches.isEmpty)
    }

    @Test("a cancelled touchpad pinch cancels its virtual fingers, leaving no touch down")
    func cancelledPinchLeavesNoTouch() {
        let world = PinchWorld()
        var bridge = TouchpadGestureBridge()
        world.window.send(
            bridge.pinch(.began, focus: Point(x: 100, y: 100), delta: .zero, scale: 1, deltaAngle: 0, timestamp: 0))
        let inputs = bridge.pinch(.cancelled, focus: .zero, delta: .zero, scale: 1.2, deltaAngle: 0, timestamp: 0.1)
        #expect(inputs.filter { $0.phase == .cancelled }.count == 2)
        world.window.send(inputs)
        #expect(world.window.activeTouches.isEmpty)
    }

    @Test("a three-finger touchpad swipe becomes three virtual fingers travelling together")
    func swipeBecomesFingers() {
        var bridge = TouchpadGestureBridge()
        let began = bridge.swipe(.began, focus: Point(x: 300, y: 300), delta: .zero, fingerCount: 3, timestamp: 0)
        #expect(began.count == 3 && began.allSatisfy { $0.phase == .began })
        _ = bridge.swipe(.changed, focus: .zero, delta: Point(x: 0, y: -40), fingerCount: 3, timestamp: 0.05)
        let ended = bridge.swipe(.ended, focus: .zero, delta: Point(x: 0, y: -40), fingerCount: 3, timestamp: 0.1)
        let ends = ended.filter { $0.phase == .ended }
        #expect(ends.count == 3)
        for (start, end) in zip(began, ends) {
            #expect(end.id == start.id)
            #expect(end.location == start.location + Point(x: 0, y: -80))
        }
    }

    @Test("updates and ends without a beginning produce nothing")
    func strayEventsIgnored() {
        var bridge = TouchpadGestureBridge()
        #expect(bridge.pinch(.changed, focus: .zero, delta: .zero, scale: 2, deltaAngle: 1, timestamp: 0).isEmpty)
        #expect(bridge.swipe(.ended, focus: .zero, delta: .zero, fingerCount: 3, timestamp: 0).isEmpty)
    }

    @Test("a swipe that begins again with fewer fingers before the last one ended leaves no finger down")
    func swipeBegunAgainEndsItsFingers() {
        var bridge = TouchpadGestureBridge()
        var down: Set<UInt64> = []
        func apply(_ inputs: [TouchInput]) {
            for input in inputs {
                switch input.phase {
                case .began: down.insert(input.id)
                case .ended, .cancelled: down.remove(input.id)
                default: break
                }
            }
        }
        apply(bridge.swipe(.began, focus: Point(x: 100, y: 100), delta: .zero, fingerCount: 4, timestamp: 0))
        apply(bridge.swipe(.began, focus: Point(x: 100, y: 100), delta: .zero, fingerCount: 3, timestamp: 0.1))
        apply(bridge.swipe(.ended, focus: Point(x: 100, y: 100), delta: .zero, fingerCount: 3, timestamp: 0.2))
        #expect(down.isEmpty)
    }
}
