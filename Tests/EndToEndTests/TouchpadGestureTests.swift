import Foundation
import Testing
import XorgTestSupport

/// XInput 2.4 touchpad gestures (an inputtest PointerGesture device) driving TouchKit's pinch and rotation
/// recognizers through the real window.
@Suite("Touchpad gestures")
struct TouchpadGestureTests {
    struct FarmState: Decodable {
        struct Animal: Decodable {
            var scale: Double
            var rotation: Double
        }
        var animals: [Animal]
    }

    @Test("a touchpad pinch to 1.5 turning 30° over a hen scales and rotates it as much (within 2%)")
    func touchpadPinchScalesAndRotates() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let statePath = server.directory.appendingPathComponent("farm.json")
        let app = try AppProcess(
            arguments: ["demo", "farm", "--geometry", "640x480+0+0", "--state", statePath.path, "--verbose"],
            environment: ["DISPLAY": server.display])
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "touchtracker: ready")
        func state() -> FarmState? {
            guard let data = try? Data(contentsOf: statePath) else { return nil }
            return try? JSONDecoder().decode(FarmState.self, from: data)
        }
        let touch = try server.touch
        try touch.touchBegin(id: 0, x: 320, y: 260)
        try touch.touchEnd(id: 0, x: 320, y: 260)
        try touch.sync()
        try await waitUntil("a hen on the farm", timeout: .seconds(5)) { state()?.animals.count == 1 }

        // The gesture happens where the pointer is: over the hen.
        let pointer = try server.pointer
        try pointer.moveTo(x: 320, y: 260)
        try pointer.sync()
        let touchpad = try server.gesture
        try touchpad.gesturePinch(.begin, scale: 1, deltaAngle: 0)
        let steps = 10
        for step in 1...steps {
            try touchpad.gesturePinch(.update, scale: 1 + 0.5 * Double(step) / Double(steps), deltaAngle: 3)
        }
        try touchpad.gesturePinch(.end, scale: 1.5, deltaAngle: 0)
        try touchpad.sync()

        let expectedRotation = Double.pi / 6
        let animal = try await waitForValue("the hen to be scaled and turned", timeout: .seconds(5)) {
            () -> FarmState.Animal? in
            guard let animal = state()?.animals.first, abs(animal.scale - 1.5) <= 0.03,
                abs(animal.rotation - expectedRotation) <= expectedRotation * 0.02
            else { return nil }
            return animal
        }
        #expect(abs(animal.scale - 1.5) / 1.5 <= 0.02, "scale \(animal.scale)")
        #expect(abs(animal.rotation - expectedRotation) / expectedRotation <= 0.02, "rotation \(animal.rotation)")
    }
}
