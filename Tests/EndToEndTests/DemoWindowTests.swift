import Foundation
import Testing
import XorgTestSupport

/// The gesture demos in a real window under a private Xorg, driven by inputtest touches.
@Suite("Demo window")
struct DemoWindowTests {
    @Test("two inputtest touches pinching and turning a hen scale and rotate it as the fingers did (within 2%)")
    func pinchAndRotateAnimal() async throws {
        let farm = try await FarmSession.launch()
        defer { farm.stop() }
        let center = (x: 320.0, y: 260.0)
        try await farm.addHen(x: center.x, y: center.y)

        // Two fingers 80 px apart on it move to 120 px apart, turned by 30°: scale 1.5, rotation π/6.
        let touch = try farm.server.touch
        let startRadius = 40.0
        let endRadius = 60.0
        let endAngle = Double.pi / 6
        try touch.touchBegin(id: 1, x: center.x - startRadius, y: center.y)
        try touch.touchBegin(id: 2, x: center.x + startRadius, y: center.y)
        let steps = 20
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let radius = startRadius + (endRadius - startRadius) * t
            let dx = radius * cos(endAngle * t)
            let dy = radius * sin(endAngle * t)
            try touch.touchUpdate(id: 1, x: center.x - dx, y: center.y - dy)
            try touch.touchUpdate(id: 2, x: center.x + dx, y: center.y + dy)
        }
        let dx = endRadius * cos(endAngle)
        let dy = endRadius * sin(endAngle)
        try touch.touchEnd(id: 1, x: center.x - dx, y: center.y - dy)
        try touch.touchEnd(id: 2, x: center.x + dx, y: center.y + dy)
        try touch.sync()

        let animal = try await farm.animal(scale: 1.5, rotation: endAngle)
        #expect(animal.kind == "hen")
        #expect(abs(animal.scale - 1.5) / 1.5 <= 0.02, "scale \(animal.scale)")
        #expect(abs(animal.rotation - endAngle) / endAngle <= 0.02, "rotation \(animal.rotation)")
    }

    @Test("a demo window that loses its X server exits with status 1 and one line that claims no drawing was saved")
    func lostServerSaysSo() async throws {
        let farm = try await FarmSession.launch()
        defer { farm.stop() }
        farm.server.stop()
        #expect(try await farm.app.waitForExit() == 1, "\(farm.app.transcript)")
        #expect(farm.app.stderr.contains("lost the connection to the X server; exiting"), "\(farm.app.transcript)")
        #expect(!farm.app.stderr.contains("saved"), "\(farm.app.transcript)")
    }
}
