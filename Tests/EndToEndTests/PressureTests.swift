import Foundation
import Testing
import XorgTestSupport

/// Width by pressure with the inputtest touch device's "Abs MT Pressure" axis (0...2047).
@Suite("Width by pressure")
struct PressureTests {
    struct Document: Decodable {
        struct Line: Decodable {
            var width: Double?
        }
        struct Options: Decodable {
            var widthByPressure: Bool?
        }
        var lines: [Line]
        var options: Options?

        static func read(_ url: URL) -> Document? {
            guard let data = try? Data(contentsOf: url) else { return nil }
            return try? JSONDecoder().decode(Document.self, from: data)
        }
    }

    /// X keycode of `p` (evdev KEY_P 25 + 8) on the servers' US layout.
    static let keyP: Int32 = 33

    @Test("with width by pressure on (P), a full-pressure stroke saves a 20 px line and a light one a 3 px line")
    func pressureSetsWidth() async throws {
        let session = try await AppSession.launch()
        defer { session.stop() }
        // Keys go to the window under the pointer (there is no window manager).
        let pointer = try session.server.pointer
        let inside = session.root(5, 5)
        try pointer.moveTo(x: inside.x, y: inside.y)
        try pointer.sync()
        let keyboard = try session.server.keyboard
        try keyboard.keyDown(keycode: Self.keyP)
        try keyboard.keyUp(keycode: Self.keyP)
        try keyboard.sync()
        try await waitUntil("width by pressure switched on in the saved document", timeout: .seconds(10)) {
            Document.read(session.document)?.options?.widthByPressure == true
        }

        let touch = try session.server.touch
        for (id, y, pressure) in [(UInt32(0), 100.0, 2047.0), (1, 300, 204.7)] {
            for step in 0...8 {
                let point = session.root(60 + Double(step) * 40, y)
                let phase: InputTestDevice.TouchPhase = step == 0 ? .begin : (step == 8 ? .end : .update)
                try touch.touch(phase, id: id, x: point.x, y: point.y, pressure: pressure)
            }
        }
        try touch.sync()
        let saved = try await waitForValue("two lines in the saved document", timeout: .seconds(10)) {
            () -> Document? in
            guard let document = Document.read(session.document), document.lines.count == 2 else { return nil }
            return document
        }
        #expect(saved.lines.map(\.width) == [20, 3], "\(session.app.transcript)")
    }
}
