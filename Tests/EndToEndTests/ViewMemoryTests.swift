import Foundation
import Testing
import XorgTestSupport

/// The view over the drawing under Xorg (DESIGN.md §2b): the keys zoom the real window, lines drawn then are saved in
/// drawing units, and the window memory brings the view back.
@Suite("The view over the drawing under Xorg")
struct ViewMemoryTests {
    @Test("Ctrl+= twice zooms to 200 % about the centre; the view is kept in DOCUMENT.window.json and comes back")
    func zoomIsRememberedWithTheWindow() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder("view")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("drawing.json")
        let first = try await DesktopRun.launch(
            on: server, arguments: ["--document", document.path, "--geometry", "640x480+100+80"])
        try first.pressKeys([KeyCode.controlL, KeyCode.equal])
        try first.pressKeys([KeyCode.controlL, KeyCode.equal])
        // The window's centre (320, 240) holds its drawing point; 100 px on screen is 50 units at 200 %.
        try first.drawLine(id: 0, from: (320, 240), to: (420, 240))
        let saved = try await SavedDocument.wait(for: document, lineCount: 1)
        #expect(saved.lines == [.init(begin: .init(x: 320, y: 240), end: .init(x: 370, y: 240))], "\(saved.lines)")
        #expect(try await first.app.terminate() == 0, "\(first.app.transcript)")
        let memory = folder.appendingPathComponent("drawing.window.json")
        let text = try String(contentsOf: memory, encoding: .utf8)
        #expect(
            text == "{\"height\":480,\"view\":{\"x\":320,\"y\":240,\"zoom\":2},\"width\":640,\"x\":100,\"y\":80}\n",
            "\(text)")

        let second = try await DesktopRun.launch(on: server, arguments: ["--document", document.path])
        defer { second.stop() }
        try second.drawLine(id: 1, from: (320, 280), to: (420, 280))
        let again = try await SavedDocument.wait(for: document, lineCount: 2)
        #expect(again.lines.last == .init(begin: .init(x: 320, y: 260), end: .init(x: 370, y: 260)), "\(again.lines)")
    }

    @Test("Ctrl+0 brings the view back to 100 %, and the window memory then keeps no view")
    func actualSizeForgetsTheView() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder("view-reset")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("drawing.json")
        let run = try await DesktopRun.launch(
            on: server, arguments: ["--document", document.path, "--geometry", "640x480+100+80"])
        try run.pressKeys([KeyCode.controlL, KeyCode.minus])
        try run.pressKeys([KeyCode.controlL, KeyCode.zero])
        try run.drawLine(id: 0, from: (100, 100), to: (200, 100))
        let saved = try await SavedDocument.wait(for: document, lineCount: 1)
        #expect(
            saved.lines == [.init(begin: .init(x: 100, y: 100), end: .init(x: 200, y: 100))],
            "\(saved.lines) \(run.app.transcript)")
        #expect(try await run.app.terminate() == 0, "\(run.app.transcript)")
        let text = try String(contentsOf: folder.appendingPathComponent("drawing.window.json"), encoding: .utf8)
        #expect(!text.contains("view"), "\(text)")
    }

    @Test("a touchpad pinch to 2 over the window zooms about the pointer, and draws nothing")
    func touchpadPinchZooms() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder("view-pinch")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("drawing.json")
        let run = try await DesktopRun.launch(
            on: server, arguments: ["--document", document.path, "--geometry", "640x480+100+80"])
        defer { run.stop() }
        let pointer = try server.pointer
        try pointer.moveTo(x: run.root((320, 240)).x, y: run.root((320, 240)).y)
        try pointer.sync()
        let touchpad = try server.gesture
        try touchpad.gesturePinch(.begin, scale: 1, deltaAngle: 0)
        for step in 1...20 { try touchpad.gesturePinch(.update, scale: 1 + Double(step) / 20, deltaAngle: 0) }
        try touchpad.gesturePinch(.end, scale: 2, deltaAngle: 0)
        try touchpad.sync()
        try await waitUntil("the zoom to reach 200 %", timeout: .seconds(10)) {
            run.app.stderrLines.contains { $0.contains("view 200%") }
        }
        try run.drawLine(id: 0, from: (320, 240), to: (420, 240))
        let saved = try await SavedDocument.wait(for: document, lineCount: 1)
        let line = try #require(saved.lines.first)
        #expect(line.begin.distance(to: (320, 240)) < 2 && line.end.distance(to: (370, 240)) < 2, "\(saved.lines)")
    }
}
