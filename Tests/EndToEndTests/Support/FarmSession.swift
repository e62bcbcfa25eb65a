import Foundation
import XorgTestSupport

/// The Farm demo in a real window on a private Xorg, writing its state after every change; for tests that drive
/// an animal with touches or touchpad gestures and read back its transform.
final class FarmSession: Sendable {
    /// The farm's state as the window writes it.
    struct State: Decodable {
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

    let server: XorgServer
    let app: AppProcess
    let statePath: URL

    /// Starts a server and `touchtracker demo farm` in a 640x480 window at the screen's origin.
    static func launch() async throws -> FarmSession {
        let server = try await XorgServer.start()
        do {
            let statePath = server.directory.appendingPathComponent("farm.json")
            let app = try AppProcess(
                arguments: ["demo", "farm", "--geometry", "640x480+0+0", "--state", statePath.path, "--verbose"],
                environment: ["DISPLAY": server.display, "WAYLAND_DISPLAY": nil])
            let session = FarmSession(server: server, app: app, statePath: statePath)
            do {
                try await app.waitForStderrLine(containing: "touchtracker: ready")
            } catch {
                session.stop()
                throw error
            }
            return session
        } catch {
            server.stop()
            throw error
        }
    }

    private init(server: XorgServer, app: AppProcess, statePath: URL) {
        self.server = server
        self.app = app
        self.statePath = statePath
    }

    /// The last state the window wrote, or nil before the first write.
    func state() -> State? {
        guard let data = try? Data(contentsOf: statePath) else { return nil }
        return try? JSONDecoder().decode(State.self, from: data)
    }

    /// Taps the background at root point (x, y) with an inputtest touch and waits for the hen it creates.
    func addHen(x: Double, y: Double) async throws {
        let touch = try server.touch
        try touch.touchBegin(id: 0, x: x, y: y)
        try touch.touchEnd(id: 0, x: x, y: y)
        try touch.sync()
        try await waitUntil("a hen on the farm", timeout: .seconds(5)) { state()?.animals.count == 1 }
    }

    /// Waits until the first animal's scale and rotation are within 2 % of the expected ones, and returns it.
    func animal(scale: Double, rotation: Double) async throws -> State.Animal {
        try await waitForValue("the animal scaled to \(scale) and turned to \(rotation) rad", timeout: .seconds(5)) {
            guard let animal = state()?.animals.first, abs(animal.scale - scale) <= scale * 0.02,
                abs(animal.rotation - rotation) <= abs(rotation) * 0.02
            else { return nil }
            return animal
        }
    }

    func stop() {
        app.stop()
        server.stop()
    }
}
