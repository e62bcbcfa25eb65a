import Foundation
import Testing
import TouchTracker
import XorgTestSupport

/// The Wayland host passes its keys to the AT-SPI registry as the X11 host does. Orca 43 does not
/// run under the test compositor (it needs an X display), so a client listening to the registry's keys, as Orca
/// does (pyatspi's keystroke listener, synchronous and pre-emptive), stands for it.
@Suite("Registry keys on Wayland", .serialized)
struct WaylandRegistryKeysTests {
    @Test(
        """
        under weston a registry keystroke listener hears each key pressed and released in the window (keysym, X key \
        code); the Space presses it consumes draw nothing, and once it is gone Space draws again
        """)
    func keysReachTheRegistry() async throws {
        let bus = try await AccessibilityBus()
        defer { bus.stop() }
        let session = try await WaylandSession.launch(environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read:")
        // Consumes Space (keysym 0x20) pressed and released; reports every key.
        let client = try bus.startClient(
            """
            import pyatspi, sys
            from gi.repository import GLib
            def heard(event):
                kind = "pressed" if event.type == pyatspi.KEY_PRESSED_EVENT else "released"
                print("key", kind, hex(event.id), event.hw_code, repr(event.event_string), flush=True)
                return event.id == 0x20
            pyatspi.Registry.registerKeystrokeListener(
                heard, mask=pyatspi.allModifiers(), kind=(pyatspi.KEY_PRESSED_EVENT, pyatspi.KEY_RELEASED_EVENT),
                synchronous=True, preemptive=True)
            print("listening", flush=True)
            def finish():
                pyatspi.Registry.deregisterKeystrokeListener(
                    heard, mask=pyatspi.allModifiers(), kind=(pyatspi.KEY_PRESSED_EVENT, pyatspi.KEY_RELEASED_EVENT))
                pyatspi.Registry.stop()
                return False
            GLib.timeout_add(8000, finish)
            pyatspi.Registry.start()
            """)
        defer { _ = client.stop(timeout: .seconds(2)) }
        try await session.app.waitForStderrLine(
            containing: "a screen reader listens to the keys", timeout: .seconds(60))
        // Registered for every modifier mask (one call each) and listening.
        try await waitUntil("the client to listen", timeout: .seconds(60), poll: .milliseconds(50)) {
            String(decoding: client.stdout, as: UTF8.self).contains("listening")
        }
        for key in [LinuxKey.right, LinuxKey.space, LinuxKey.right, LinuxKey.right, LinuxKey.space] {
            try session.key(key)
            try await Task.sleep(for: .milliseconds(200))
        }
        let output = try await waitForValue("the client to finish", timeout: .seconds(30), poll: .milliseconds(100)) {
            client.exit.map { _ in String(decoding: client.stdout, as: UTF8.self) }
        }
        // Right is XK_Right (0xff53), Linux key 106 (X key code 114); Space is consumed, and typed " ".
        #expect(output.contains("key pressed 0xff53 114 'Right'"), "\(output)")
        #expect(output.contains("key released 0xff53 114 'Right'"), "\(output)")
        #expect(output.contains("key pressed 0x20 65 ' '"), "\(output)")
        // The listener deregistered, keys go straight to the app: one line, from the Space presses after it left.
        try await session.app.waitForStderrLine(
            containing: "no screen reader listens to the keys", timeout: .seconds(20))
        for key in [LinuxKey.space, LinuxKey.right, LinuxKey.right, LinuxKey.space] {
            try session.key(key)
            try await Task.sleep(for: .milliseconds(200))
        }
        let saved = try await SavedDocument.wait(for: session.document, lineCount: 1)
        try await Task.sleep(for: .milliseconds(500))
        #expect(saved.lines.count == 1, "\(saved.lines) \(output)")
        #expect(SavedDocument.read(session.document)?.lines.count == 1)
    }
}
