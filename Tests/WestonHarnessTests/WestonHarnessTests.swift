import CCairo
import Foundation
import Testing
import WestonTestSupport
import XorgTestSupport

/// Checks the weston harness itself, with real clients that print what they receive: the input module's seat is a
/// real wl_seat, its events reach a native Wayland client and, through Xwayland, an X client as XI2 events.
@Suite("Weston harness")
struct WestonHarnessTests {
    @Test("weston starts headless with the module's seat, and screenshots are PNGs of the output")
    func seatAndScreenshot() async throws {
        let server = try await WestonServer.start(width: 800, height: 600)
        defer { server.stop() }
        #expect(server.xDisplay == nil)
        #expect(server.environment["WAYLAND_DISPLAY"] == server.socketName)

        let info = try ChildProcess(
            executable: "/usr/bin/weston-info", arguments: [], environment: server.clientEnvironment)
        #expect(info.waitForExit(timeout: .seconds(10)) == .exited(0))
        try await waitUntil("weston-info's output") { info.outputClosed }
        let seats = String(decoding: info.stdout, as: UTF8.self)
        #expect(seats.contains("name: touchtracker-test"))
        #expect(seats.contains("capabilities: pointer keyboard touch"))

        // The PNG signature, then IHDR's big-endian width and height.
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: try server.screenshotPNG())))
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let bigEndian = { (offset: Int) in png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect((bigEndian(16), bigEndian(20)) == (800, 600))

        server.stop()
        #expect(!server.isRunning)
        #expect(!FileManager.default.fileExists(atPath: server.directory.path))
    }

    @Test("pointer motion, buttons, scrolling and keys reach a native Wayland client")
    func eventsReachWaylandClient() async throws {
        let server = try await WestonServer.start()
        defer { server.stop() }
        // stdbuf: eventdemo prints with stdio, fully buffered into a pipe.
        let demo = try ChildProcess(
            executable: "/usr/bin/stdbuf",
            arguments: ["-oL", "weston-eventdemo", "--log-motion", "--log-button", "--log-axis", "--log-key"],
            environment: server.clientEnvironment)
        defer { demo.stop() }
        let input = server.input
        func output() -> String { String(decoding: demo.stdout, as: UTF8.self) }
        // The first motion that arrives proves the window is mapped (and so has keyboard focus too). Each try moves:
        // weston sends no wl_pointer.motion for a move to where the pointer already is. Generous: eventdemo's first
        // frame can take tens of seconds on a machine busy with every other suite.
        // Said when the wait fails: what eventdemo printed (and whether it is still running) and weston's log.
        func transcript() -> String {
            let log = (try? String(contentsOfFile: server.logPath, encoding: .utf8)) ?? ""
            return "eventdemo \(demo.isRunning ? "running" : "exited"); stdout:\n\(output())\nstderr:\n"
                + String(decoding: demo.stderr, as: UTF8.self) + "\n--- weston log (tail):\n"
                + log.split(separator: "\n").suffix(30).joined(separator: "\n")
        }
        do {
            try await waitUntil("eventdemo to see the pointer", timeout: .seconds(45), poll: .milliseconds(50)) {
                try input.pointerMotion(x: 199, y: 299)
                try input.pointerMotion(x: 200, y: 300)
                try input.pointerFrame()
                try input.sync()
                return output().contains("motion time:")
            }
        } catch {
            Issue.record("\(error)\n\(transcript())")
            return
        }
        try input.pointerButton(.left, pressed: true)
        try input.pointerFrame()
        try input.pointerButton(.left, pressed: false)
        try input.pointerFrame()
        try input.pointerAxis(.vertical, value: 10, discrete: 1)
        try input.pointerFrame()
        try input.key(30, pressed: true)  // KEY_A
        try input.key(30, pressed: false)
        try input.sync()
        let expected = [
            "x: 200.000000, y: 300.000000",  // surface coordinates: the kiosk shell puts the window at 0,0
            "button: 272, state: pressed, x: 200, y: 300",  // BTN_LEFT
            "button: 272, state: released",
            "axis source: wheel",
            "axis discrete axis: 0 value: 1",
            "axis: vertical, value: 10.000000",
            "key key: 30, unicode: 97, state: pressed",
            "key key: 30, unicode: 97, state: released",
        ]
        try await waitUntil("eventdemo to print every event", timeout: .seconds(5)) {
            expected.allSatisfy(output().contains)
        }
    }

    @Test("touches reach a native Wayland client: weston-simple-touch paints where they land")
    func touchesReachWaylandClient() async throws {
        let server = try await WestonServer.start()
        defer { server.stop() }
        // A 600x500 window (the kiosk shell centres it) painted gray, plus a 5-pixel cross at every touch down and
        // motion, in the touch's colour: red for touch 0, yellow for touch 1.
        let client = try ChildProcess(
            executable: "/usr/bin/weston-simple-touch", arguments: [], environment: server.clientEnvironment)
        defer { client.stop() }
        let (gray, red, yellow): (UInt32, UInt32, UInt32) = (0x40_40_40, 0xFF_00_00, 0xFF_FF_00)
        let (x, y) = (server.width / 2, server.height / 2)
        try await waitUntil("weston-simple-touch's window", timeout: .seconds(10), poll: .milliseconds(50)) {
            try PNGImage(path: server.screenshotPNG()).rgb(x: x, y: y) == gray
        }

        let input = server.input
        try input.touchDown(id: 0, x: Double(x), y: Double(y))
        try input.touchDown(id: 1, x: Double(x - 100), y: Double(y - 50))
        try input.touchFrame()
        try input.touchMotion(id: 0, x: Double(x + 20), y: Double(y))
        try input.touchFrame()
        try input.touchUp(id: 0)
        try input.touchUp(id: 1)
        try input.touchFrame()
        try input.sync()
        var last: PNGImage?
        try await waitUntil("the crosses on screen", timeout: .seconds(5), poll: .milliseconds(50)) {
            let image = try PNGImage(path: server.screenshotPNG())
            last = image
            return image.rgb(x: x, y: y) == red && image.rgb(x: x + 20, y: y) == red
                && image.rgb(x: x - 100, y: y - 50) == yellow
        }
        // Nothing between the down and the motion: the client saw two points, not a stroke.
        #expect(last?.rgb(x: x + 10, y: y) == gray)
    }

    @Test("touches and keys reach an X client through Xwayland as XI2 events at the sent coordinates")
    func eventsReachXwaylandClient() async throws {
        let server = try await WestonServer.start(xwayland: true)
        defer { server.stop() }
        let display = try #require(server.xDisplay)
        #expect(display.hasPrefix(":") && server.environment["DISPLAY"] == display)
        // xinput makes a window, selects every XI2 event on it and prints them (flushing each); Xwayland itself
        // starts now, on this first X client.
        let xinput = try ChildProcess(
            executable: "/usr/bin/xinput", arguments: ["test-xi2"], environment: server.clientEnvironment)
        defer { xinput.stop() }
        let input = server.input
        func output() -> String { String(decoding: xinput.stdout, as: UTF8.self) }

        // The kiosk shell centers the small window: the output's centre is inside it once it is mapped. (Each try
        // moves, as above.)
        let (x, y) = (Double(server.width / 2), Double(server.height / 2))
        try await waitUntil("xinput's window to see the pointer", timeout: .seconds(10), poll: .milliseconds(50)) {
            try input.pointerMotion(x: x - 1, y: y - 1)
            try input.pointerMotion(x: x, y: y)
            try input.pointerFrame()
            try input.sync()
            return output().contains("(Motion)")
        }
        try input.touchDown(id: 0, x: x + 10, y: y + 20)
        try input.touchFrame()
        try input.touchMotion(id: 0, x: x + 30, y: y + 40)
        try input.touchFrame()
        try input.touchUp(id: 0)
        try input.touchFrame()
        try input.key(30, pressed: true)
        try input.key(30, pressed: false)
        try input.sync()
        try await waitUntil("xinput to print every event", timeout: .seconds(5)) {
            ["(TouchBegin)", "(TouchUpdate)", "(TouchEnd)", "(KeyPress)", "(KeyRelease)"].allSatisfy(output().contains)
        }

        // Root coordinates are global ones (Xwayland's root spans the output at 0,0); wl_fixed_t rounding leaves
        // them a hair below the sent value.
        let events = XI2Event.parse(output())
        let begin = try #require(events.first { $0.type == "TouchBegin" })
        let update = try #require(events.first { $0.type == "TouchUpdate" })
        #expect(abs(begin.root.x - (x + 10)) < 0.05 && abs(begin.root.y - (y + 20)) < 0.05)
        #expect(abs(update.root.x - (x + 30)) < 0.05 && abs(update.root.y - (y + 40)) < 0.05)
        #expect(events.first { $0.type == "KeyPress" }?.detail == 38)  // KEY_A + 8
    }

    @Test("a bad command is answered with an error, and the connection goes on")
    func badCommandAnswersError() async throws {
        let server = try await WestonServer.start()
        defer { server.stop() }
        // A second connection: the module takes several at once.
        let input = try WestonInput(socketPath: server.inputSocketPath)
        try input.send("touch down one 1 2")
        try input.send("wiggle")
        let error = try #require(throws: WestonInput.CommandError.self) { try input.sync() }
        #expect(error.messages.count == 2)
        #expect(error.messages.first?.contains("ID must be an integer") == true)
        #expect(error.messages.last?.contains("unknown command") == true)
        try input.pointerMotion(x: 1, y: 2)
        try input.sync()
        try server.input.sync()

        // More error answers than a socket buffer holds, unread until the sync: no deadlock, none lost.
        for _ in 0..<3000 { try input.send("wiggle") }
        let many = try #require(throws: WestonInput.CommandError.self) { try input.sync(timeout: .seconds(20)) }
        #expect(many.messages.count == 3000)
    }
}

/// One event of `xinput test-xi2`'s output: "EVENT type 18 (TouchBegin)" and its indented fields.
struct XI2Event {
    var type: String
    var detail: Int?
    var root = (x: Double.nan, y: Double.nan)

    static func parse(_ text: String) -> [XI2Event] {
        var events: [XI2Event] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("EVENT type"), let open = trimmed.firstIndex(of: "("),
                let close = trimmed.lastIndex(of: ")")
            {
                events.append(XI2Event(type: String(trimmed[trimmed.index(after: open)..<close])))
            } else if trimmed.hasPrefix("detail: "), !events.isEmpty {
                events[events.count - 1].detail = Int(trimmed.dropFirst(8))
            } else if trimmed.hasPrefix("root: "), !events.isEmpty {
                let values = trimmed.dropFirst(6).split(separator: "/").compactMap { Double($0) }
                if values.count == 2 { events[events.count - 1].root = (values[0], values[1]) }
            }
        }
        return events
    }
}

/// A PNG read with Cairo (RGB24 for weston's RGB screenshots).
struct PNGImage {
    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    let width: Int
    let height: Int
    /// Row-major 0xRRGGBB.
    let pixels: [UInt32]

    init(path: String) throws {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface)
        else {
            throw ReadError(description: "cannot read \(path) as a PNG")
        }
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        // Native-endian 32-bit pixels, 0x??RRGGBB (the top byte is alpha, or unused in RGB24).
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            let line = UnsafeRawPointer(data + row * stride)
            for column in 0..<width {
                pixels.append(line.load(fromByteOffset: column * 4, as: UInt32.self) & 0xFF_FF_FF)
            }
        }
        self.pixels = pixels
    }

    func rgb(x: Int, y: Int) -> UInt32 {
        pixels[y * width + x]
    }
}
