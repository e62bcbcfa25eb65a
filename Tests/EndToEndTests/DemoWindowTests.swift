import Foundation
import Testing
import XorgTestSupport

/// The gesture demos in a real window under a private Xorg, driven by inputtest touches.
@Suite("Demo window")
struct DemoWindowTests {
    /// The farm's state as the window writes it after every change.
    struct FarmState: Decodable {
        struct Animal: Decodable {
            var kind: String
            var x: Double
            var y: Double
            var scale: Double
            var rotation: Double
        }
        var scene: String
        var animals: [Animal]
    }

    @Test("two inputtest touches pinching and turning a hen scale and rotate it as the fingers did (within 2%)")
    func pinchAndRotateAnimal() async throws {
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

        // A tap on the background puts a hen there.
        let touch = try server.touch
        let center = (x: 320.0, y: 260.0)
        try touch.touchBegin(id: 0, x: center.x, y: center.y)
        try touch.touchEnd(id: 0, x: center.x, y: center.y)
        try touch.sync()
        try await waitUntil("a hen on the farm", timeout: .seconds(5)) { state()?.animals.count == 1 }

        // Two fingers 80 px apart on it move to 120 px apart, turned by 30°: scale 1.5, rotation π/6.
        let startRadius = 40.0
        let endRadius = 60.0
        let endAngle = Double.pi / 6
        try touch.touchBegin(id: 1, x: center.x - startRadius, y: center.y)
        try touch.touchBegin(id: 2, x: center.x + startRadius, y: center.y)
        let steps = 20
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let radius = startRadius + (endRadius - startRadius) * t
            let angle = endAngle * t
            let dx = radius * cos(angle)
            let dy = radius * sin(angle)
            try touch.touchUpdate(id: 1, x: center.x - dx, y: center.y - dy)
            try touch.touchUpdate(id: 2, x: center.x + dx, y: center.y + dy)
        }
        let dx = endRadius * cos(endAngle)
        let dy = endRadius * sin(endAngle)
        try touch.touchEnd(id: 1, x: center.x - dx, y: center.y - dy)
        try touch.touchEnd(id: 2, x: center.x + dx, y: center.y + dy)
        try touch.sync()

        let animal = try await waitForValue("the hen's transform to settle", timeout: .seconds(5)) {
            () -> FarmState
                .Animal? in
            guard let animal = state()?.animals.first, abs(animal.scale - 1.5) <= 0.03,
                abs(animal.rotation - endAngle) <= endAngle * 0.02
            else { return nil }
            return animal
        }
        #expect(animal.kind == "hen")
        #expect(abs(animal.scale - 1.5) / 1.5 <= 0.02, "scale \(animal.scale)")
        #expect(abs(animal.rotation - endAngle) / endAngle <= 0.02, "rotation \(animal.rotation)")
    }
}
