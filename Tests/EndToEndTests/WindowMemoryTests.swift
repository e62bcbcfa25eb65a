import CX11
import Foundation
import Testing
import TouchTrackerRender
import XorgTestSupport

/// The window memory (`NAME.window.json`): size, place and units.
extension DesktopTests {
    @Test("a closed window comes back at the size and place it had, kept in DOCUMENT.window.json")
    func windowPlaceIsRemembered() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder("place")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("drawing.json")
        let first = try await DesktopRun.launch(
            on: server, arguments: ["--document", document.path, "--geometry", "420x300+60+70"])
        #expect(try await first.app.terminate() == 0, "\(first.app.transcript)")
        let memory = folder.appendingPathComponent("drawing.window.json")
        let text = try String(contentsOf: memory, encoding: .utf8)
        #expect(text == "{\"height\":300,\"width\":420,\"x\":60,\"y\":70}\n", "\(text)")

        let second = try await DesktopRun.launch(on: server, arguments: ["--document", document.path])
        defer { second.stop() }
        let windows = try TopLevelWindows.list(display: server.display).filter { $0.isDrawingWindow }
        #expect(windows.map(\.description).map { $0.contains("420x300+60+70") } == [true], "\(windows)")
    }

    @Test("at Xft.dpi 192 the window memory keeps drawing units: an 840x600 px window is remembered as 420x300")
    func windowMemoryKeepsDrawingUnits() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let xrdb = try runProgram(
            "/usr/bin/xrdb", ["-merge"], environment: ["DISPLAY": server.display], input: "Xft.dpi: 192\n")
        #expect(xrdb.status == 0, "\(xrdb.output)")
        let folder = try makeTemporaryFolder("place-units")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("drawing.json")
        let first = try await DesktopRun.launch(
            on: server, arguments: ["--document", document.path, "--geometry", "840x600+60+80"])
        #expect(try await first.app.terminate() == 0, "\(first.app.transcript)")
        let memory = folder.appendingPathComponent("drawing.window.json")
        let text = try String(contentsOf: memory, encoding: .utf8)
        #expect(text == "{\"height\":300,\"width\":420,\"x\":30,\"y\":40}\n", "\(text)")

        // Back at the same pixels on the same screen; a screen at 100 % would show it at 420x300.
        let second = try await DesktopRun.launch(on: server, arguments: ["--document", document.path])
        defer { second.stop() }
        let windows = try TopLevelWindows.list(display: server.display).filter { $0.isDrawingWindow }
        #expect(windows.map(\.description).map { $0.contains("840x600+60+80") } == [true], "\(windows)")
    }
}
