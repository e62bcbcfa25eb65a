import Foundation
import Testing
import XorgTestSupport

/// XInput 2.4 touchpad gestures (an inputtest PointerGesture device) driving TouchKit's pinch and rotation
/// recognizers through the real window.
@Suite("Touchpad gestures")
struct TouchpadGestureTests {
    @Test("a touchpad pinch to 1.5 turning 30° over a hen scales and rotates it as much (within 2%)")
    func touchpadPinchScalesAndRotates() async throws {
        let farm = try await FarmSession.launch()
        defer { farm.stop() }
        try await farm.addHen(x: 320, y: 260)

        // The gesture happens where the pointer is: over the hen.
        let pointer = try farm.server.pointer
        try pointer.moveTo(x: 320, y: 260)
        try pointer.sync()
        let touchpad = try farm.server.gesture
        try touchpad.gesturePinch(.begin, scale: 1, deltaAngle: 0)
        let steps = 10
        for step in 1...steps {
            try touchpad.gesturePinch(.update, scale: 1 + 0.5 * Double(step) / Double(steps), deltaAngle: 3)
        }
        try touchpad.gesturePinch(.end, scale: 1.5, deltaAngle: 0)
        try touchpad.sync()

        let expectedRotation = Double.pi / 6
        let animal = try await farm.animal(scale: 1.5, rotation: expectedRotation)
        #expect(abs(animal.scale - 1.5) / 1.5 <= 0.02, "scale \(animal.scale)")
        #expect(abs(animal.rotation - expectedRotation) / expectedRotation <= 0.02, "rotation \(animal.rotation)")
    }
}
