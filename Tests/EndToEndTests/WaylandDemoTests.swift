import Foundation
import Testing
import TouchTrackerRender
import WestonTestSupport
import XorgTestSupport

/// The gesture demos as a native Wayland client under a real headless weston whose seat has a real `wl_touch` and
/// `wl_keyboard` (the tests' input module), driven as the Xorg demo tests drive the X11 window and read back
/// through the scene's state file.
@Suite("Demo window on Wayland", .serialized)
struct WaylandDemoTests {
    @Test("with WAYLAND_DISPLAY set and no DISPLAY the demo opens on Wayland, and a tap on the farm makes a hen there")
    func opensOnWaylandAndTapMakesHen() async throws {
        let demo = try await WaylandDemo.launch(backend: nil)
        defer { demo.stop() }
        #expect(demo.app.stderr.contains("backend wayland (WAYLAND_DISPLAY="), "\(demo.app.transcript)")
        #expect(demo.app.stderr.contains("ready window=wayland"), "\(demo.app.transcript)")
        // The compositor shows the farm: its green meadow fills the window (the whole output under the kiosk shell).
        let meadow = try #require(demo.screenshot().pixel(x: 800, y: 400))
        #expect(
            abs(Int(meadow.red) - 204) <= 2 && abs(Int(meadow.green) - 232) <= 2 && abs(Int(meadow.blue) - 168) <= 2,
            "\(meadow)")
        try await demo.addHen(x: 320, y: 260)
        let hen = try #require(demo.state()?.animals?.first)
        #expect(hen.kind == "hen")
        #expect(abs(hen.x - 320) <= 1 && abs(hen.y - 260) <= 1, "hen at \(hen.x), \(hen.y)")
    }

    @Test("two touches pinching and turning a hen scale and rotate it as the fingers did (within 2%)")
    func pinchAndRotateAnimal() async throws {
        let demo = try await WaylandDemo.launch()
        defer { demo.stop() }
        let center = (x: 320.0, y: 260.0)
        try await demo.addHen(x: center.x, y: center.y)

        // Two fingers 80 px apart on it move to 120 px apart, turned by 30°: scale 1.5, rotation π/6.
        let input = demo.input
        let startRadius = 40.0
        let endRadius = 60.0
        let endAngle = Double.pi / 6
        try input.touchDown(id: 1, x: center.x - startRadius, y: center.y)
        try input.touchDown(id: 2, x: center.x + startRadius, y: center.y)
        try input.touchFrame()
        let steps = 20
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let radius = startRadius + (endRadius - startRadius) * t
            let dx = radius * cos(endAngle * t)
            let dy = radius * sin(endAngle * t)
            try input.touchMotion(id: 1, x: center.x - dx, y: center.y - dy)
            try input.touchMotion(id: 2, x: center.x + dx, y: center.y + dy)
            try input.touchFrame()
        }
        try input.touchUp(id: 1)
        try input.touchUp(id: 2)
        try input.touchFrame()
        try input.sync()

        let animal = try await demo.animal(scale: 1.5, rotation: endAngle)
        #expect(animal.kind == "hen")
        #expect(abs(animal.scale - 1.5) / 1.5 <= 0.02, "scale \(animal.scale)")
        #expect(abs(animal.rotation - endAngle) / endAngle <= 0.02, "rotation \(animal.rotation)")
    }

    @Test("Tab, F3 and Shift+Tab switch the scene (said with --verbose), and the new scene takes the touches")
    func keysSwitchScene() async throws {
        let demo = try await WaylandDemo.launch()
        defer { demo.stop() }
        try await demo.waitForScene("farm")

        try demo.press(WaylandDemo.Key.tab)
        try await demo.waitForScene("circle")
        try await demo.app.waitForStderrLine(containing: "touchtracker: scene circle")
        // The circle goes where a tap puts it.
        try demo.tap(id: 0, at: (200, 150))
        _ = try await waitForValue("the circle placed at the tap", timeout: .seconds(5)) { () -> Bool? in
            guard let state = demo.state(), state.scene == "circle", let x = state.x, let y = state.y,
                abs(x - 200) <= 1, abs(y - 150) <= 1
            else { return nil }
            return true
        }
        // And the compositor shows it there: red on the circle, the white background elsewhere.
        try await waitUntil("the red circle on screen at the tap", timeout: .seconds(5), poll: .milliseconds(100)) {
            let screen = try demo.screenshot()
            return screen.pixel(x: 200, y: 150).map { $0 == (255, 0, 0) } == true
                && screen.pixel(x: 600, y: 500).map { $0 == (255, 255, 255) } == true
        }

        try demo.press(WaylandDemo.Key.f3)
        try await demo.waitForScene("swipe")
        try demo.press(WaylandDemo.Key.tab, shift: true)
        try await demo.waitForScene("circle")
        try demo.press(WaylandDemo.Key.f1)
        try await demo.waitForScene("farm")
        try await demo.app.waitForStderrLine(containing: "touchtracker: scene farm")
    }

    @Test("a demo window that loses its compositor exits with status 1 and one line that says so")
    func lostCompositorSaysSo() async throws {
        let demo = try await WaylandDemo.launch()
        defer { demo.stop() }
        demo.server.stop()
        #expect(try await demo.app.waitForExit() == 1, "\(demo.app.transcript)")
        let lines = demo.app.stderrLines.filter { $0.contains("lost the connection to the Wayland compositor") }
        #expect(lines.count == 1 && lines[0].hasSuffix("; exiting"), "\(demo.app.transcript)")
        #expect(!demo.app.stderr.contains("saved"), "\(demo.app.transcript)")
    }

    @Test("with WAYLAND_DISPLAY naming no compositor and DISPLAY set, the demo falls back to X11 and says so")
    func fallsBackToX11() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let runtime = try makeTemporaryFolder("touchtracker-no-wayland")
        defer { try? FileManager.default.removeItem(at: runtime) }
        let app = try AppProcess(
            arguments: ["demo", "circle", "--geometry", "320x240+0+0", "--verbose"],
            environment: [
                "WAYLAND_DISPLAY": "touchtracker-nobody-\(getpid())", "XDG_RUNTIME_DIR": runtime.path,
                "WAYLAND_SOCKET": nil, "DISPLAY": server.display,
            ])
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "touchtracker: ready")
        #expect(app.stderr.contains("backend wayland (WAYLAND_DISPLAY="), "\(app.transcript)")
        #expect(app.stderr.contains("; trying X11 (DISPLAY is set)"), "\(app.transcript)")
        #expect(app.stderr.contains("backend x11 (the Wayland compositor could not be used"), "\(app.transcript)")
        #expect(!app.stderr.contains("ready window=wayland"), "\(app.transcript)")
    }

    @Test("--backend wayland with --display is refused before any window opens")
    func waylandBackendRefusesDisplay() async throws {
        let app = try AppProcess(arguments: ["demo", "farm", "--backend", "wayland", "--display", ":7"])
        defer { app.stop() }
        // ArgumentParser's status for a usage error (EX_USAGE).
        #expect(try await app.waitForExit() == 64, "\(app.transcript)")
        #expect(app.stderr.contains("--display :7 names an X display"), "\(app.transcript)")
    }

    @Test("with WAYLAND_DISPLAY and DISPLAY unset the demo window prints one error line naming both, status 2")
    func noDisplayAtAll() async throws {
        let app = try AppProcess(arguments: ["demo", "farm"], environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        defer { app.stop() }
        #expect(try await app.waitForExit() == 2, "\(app.transcript)")
        #expect(app.stderrLines.count == 1, "\(app.transcript)")
        #expect(app.stderr.contains("WAYLAND_DISPLAY") && app.stderr.contains(" DISPLAY"), "\(app.transcript)")
    }

    @Test("--backend wayland with no compositor to reach prints one error line naming WAYLAND_DISPLAY, status 2")
    func unreachableCompositor() async throws {
        let runtime = try makeTemporaryFolder("touchtracker-no-wayland")
        defer { try? FileManager.default.removeItem(at: runtime) }
        let app = try AppProcess(
            arguments: ["demo", "farm", "--backend", "wayland"],
            environment: [
                "WAYLAND_DISPLAY": "touchtracker-nobody-\(getpid())", "XDG_RUNTIME_DIR": runtime.path,
                "WAYLAND_SOCKET": nil,
            ])
        defer { app.stop() }
        #expect(try await app.waitForExit() == 2, "\(app.transcript)")
        #expect(app.stderrLines.count == 1, "\(app.transcript)")
        #expect(app.stderr.contains("WAYLAND_DISPLAY"), "\(app.transcript)")
    }
}

/// The Farm demo (`touchtracker demo farm --backend wayland`) on a private headless weston, writing its state after
/// every change. The kiosk shell gives the window the whole output at 0,0, so window points are the compositor's
/// global points. Call `stop()` (e.g. in `defer`).
private final class WaylandDemo: Sendable {
    /// The scene's state as the window writes it (the members of every scene these tests read).
    struct State: Decodable {
        struct Animal: Decodable {
            var kind: String
            var x: Double
            var y: Double
            var scale: Double
            var rotation: Double
        }
        var scene: String
        /// The farm's.
        var animals: [Animal]?
        /// The circle's centre.
        var x: Double?
        var y: Double?
    }

    /// Linux input key codes (linux/input-event-codes.h).
    enum Key {
        static let tab = 15
        static let leftShift = 42
        static let f1 = 59
        static let f3 = 61
    }

    let server: WestonServer
    let app: AppProcess
    let folder: URL
    var statePath: URL { folder.appendingPathComponent("farm.json") }
    var input: WestonInput { server.input }

    /// `backend` is passed as `--backend` (nil: none, so the environment decides: WAYLAND_DISPLAY is set and
    /// DISPLAY is not).
    static func launch(backend: String? = "wayland") async throws -> WaylandDemo {
        let server = try await WestonServer.start()
        do {
            let folder = try makeTemporaryFolder("touchtracker-wayland-demo")
            var environment: [String: String?] = server.environment.mapValues { $0 }
            environment["DISPLAY"] = .some(nil)
            environment["WAYLAND_SOCKET"] = .some(nil)
            let statePath = folder.appendingPathComponent("farm.json").path
            let app = try AppProcess(
                arguments: ["demo", "farm", "--geometry", "640x480", "--state", statePath, "--verbose"]
                    + (backend.map { ["--backend", $0] } ?? []),
                environment: environment)
            let demo = WaylandDemo(server: server, app: app, folder: folder)
            do {
                try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(15))
            } catch {
                demo.stop()
                throw error
            }
            return demo
        } catch {
            server.stop()
            throw error
        }
    }

    private init(server: WestonServer, app: AppProcess, folder: URL) {
        self.server = server
        self.app = app
        self.folder = folder
    }

    /// The last state the window wrote, or nil before the first write.
    func state() -> State? {
        guard let data = try? Data(contentsOf: statePath) else { return nil }
        return try? JSONDecoder().decode(State.self, from: data)
    }

    /// The output as the compositor shows it now.
    func screenshot() throws -> CairoSurface {
        let path = try server.screenshotPNG()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try CairoSurface(readingPNG: path)
    }

    func tap(id: Int, at point: (x: Double, y: Double)) throws {
        try input.tap(id: id, at: point)
    }

    /// Presses and releases Linux key `code`, with Shift held when `shift`.
    func press(_ code: Int, shift: Bool = false) throws {
        try input.press(code, holding: shift ? Key.leftShift : nil)
    }

    /// Taps the background at (x, y) and waits for the hen it creates.
    func addHen(x: Double, y: Double) async throws {
        try tap(id: 0, at: (x, y))
        try await waitUntil("a hen on the farm", timeout: .seconds(5)) { state()?.animals?.count == 1 }
    }

    /// Waits until the state file names scene `name`.
    func waitForScene(_ name: String) async throws {
        do {
            try await waitUntil("the scene \(name)", timeout: .seconds(5)) { state()?.scene == name }
        } catch {
            throw AppProcess.AppError(description: "\(error)\n\(app.transcript)")
        }
    }

    /// Waits until the first animal's scale and rotation are within 2 % of the expected ones, and returns it.
    func animal(scale: Double, rotation: Double) async throws -> State.Animal {
        try await waitForValue("the animal scaled to \(scale) and turned to \(rotation) rad", timeout: .seconds(5)) {
            guard let animal = state()?.animals?.first, abs(animal.scale - scale) <= scale * 0.02,
                abs(animal.rotation - rotation) <= abs(rotation) * 0.02
            else { return nil }
            return animal
        }
    }

    func stop() {
        app.stop()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
