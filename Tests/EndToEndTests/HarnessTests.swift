import CX11
import Foundation
import Testing
import XorgTestSupport

/// Checks the harness itself (Xorg + inputtest + XI2), independent of the app.
@Suite("Harness")
struct HarnessTests {
    @Test("a private Xorg starts with a 1024x768 screen and each inputtest device answers a sync after an event")
    func serverStarts() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        #expect(server.display == ":\(server.displayNumber)")
        #expect(server.width == 1024)
        #expect(server.height == 768)
        // (A WAIT_FOR_SYNC before a device's first event is never answered; see InputTestDevice.sync.)
        try server.touch.touchBegin(id: 0, x: 10, y: 10)
        try server.touch.touchEnd(id: 0, x: 10, y: 10)
        try server.touch.sync()
        try server.pointer.moveTo(x: 20, y: 20)
        try server.pointer.sync()
        try server.keyboard.keyDown(keycode: 38)
        try server.keyboard.keyUp(keycode: 38)
        try server.keyboard.sync()
        #expect(server.isRunning)
    }

    @Test("stop() and kill() end the server and remove its files")
    func stopAndKillEndTheServer() async throws {
        for useKill in [false, true] {
            let server = try await XorgServer.start()
            let lockFile = "/tmp/.X\(server.displayNumber)-lock"
            #expect(FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(server.displayNumber)"))
            if useKill { server.kill() } else { server.stop() }
            #expect(!server.isRunning)
            #expect(!FileManager.default.fileExists(atPath: server.directory.path))
            // A parallel test's server may already have taken the display number: the lock file
            // may exist again, but not as this server's.
            let owner = (try? String(contentsOfFile: lockFile, encoding: .utf8))?.trimmingCharacters(
                in: .whitespacesAndNewlines)
            #expect(owner != "\(server.pid)")
        }
    }

    @Test("inputtest touches reach an XI2 client as TouchBegin/Update/End at the injected coordinates")
    func touchesReachXI2Client() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let listener = try XI2Listener(display: server.display, events: [XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd])
        let touch = try server.touch

        // Two simultaneous touches; 333 and 701 are not multiples of 768/65536's inverse.
        try touch.touchBegin(id: 0, x: 100, y: 200)
        try touch.touchBegin(id: 1, x: 640, y: 333)
        try touch.touchUpdate(id: 0, x: 150, y: 220)
        try touch.touchUpdate(id: 1, x: 601, y: 701)
        try touch.touchEnd(id: 0, x: 150, y: 220)
        try touch.touchEnd(id: 1, x: 601, y: 701)
        try touch.sync()

        var ended = 0
        let events = listener.events { event in
            if event.type == XI_TouchEnd { ended += 1 }
            return ended == 2
        }
        let byTouch = Dictionary(grouping: events, by: \.detail)
        #expect(byTouch.count == 2, "\(events)")
        let sequences = byTouch.values.map {
            $0.map { [$0.type, Int32($0.rootX.rounded()), Int32($0.rootY.rounded())] }
        }
        #expect(
            Set(sequences) == [
                [[XI_TouchBegin, 100, 200], [XI_TouchUpdate, 150, 220], [XI_TouchEnd, 150, 220]],
                [[XI_TouchBegin, 640, 333], [XI_TouchUpdate, 601, 701], [XI_TouchEnd, 601, 701]],
            ], "\(events)")
        for event in events {
            #expect(abs(event.rootX - event.rootX.rounded()) < 0.01, "\(event)")
            #expect(abs(event.rootY - event.rootY.rounded()) < 0.01, "\(event)")
            #expect(event.eventX == event.rootX && event.eventY == event.rootY, "window at the origin: \(event)")
        }
    }

    @Test("inputtest pointer motion and button 1 reach an XI2 client at the injected coordinates")
    func pointerReachesXI2Client() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let listener = try XI2Listener(
            display: server.display, events: [XI_Motion, XI_ButtonPress, XI_ButtonRelease], x: 100, y: 50,
            width: 600, height: 400)
        let pointer = try server.pointer

        try pointer.moveTo(x: 300, y: 333)
        try pointer.buttonDown(1)
        try pointer.moveTo(x: 420, y: 401)
        try pointer.buttonUp(1)
        try pointer.sync()

        let events = listener.events { $0.type == XI_ButtonRelease }
        let summary = events.map {
            [$0.type, Int32($0.detail), Int32($0.eventX.rounded()), Int32($0.eventY.rounded())]
        }
        #expect(
            summary == [
                [XI_Motion, 0, 200, 283], [XI_ButtonPress, 1, 200, 283], [XI_Motion, 0, 320, 351],
                [XI_ButtonRelease, 1, 320, 351],
            ], "\(events)")
    }

    @Test("inputtest key presses reach an XI2 client with the injected X keycode")
    func keysReachXI2Client() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let listener = try XI2Listener(display: server.display, events: [XI_KeyPress, XI_KeyRelease])
        let keyboard = try server.keyboard

        try keyboard.keyDown(keycode: 38)
        try keyboard.keyUp(keycode: 38)
        try keyboard.sync()

        let events = listener.events { $0.type == XI_KeyRelease }
        #expect(events.map { [$0.type, Int32($0.detail)] } == [[XI_KeyPress, 38], [XI_KeyRelease, 38]], "\(events)")
    }
}
