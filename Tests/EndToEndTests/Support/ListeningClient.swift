import Foundation
import XorgTestSupport

/// An assistive client (pyatspi) that finds the window, listens to some of its events and prints what it hears,
/// until it stops by itself after `seconds`.
struct ListeningClient {
    let process: ChildProcess

    /// Starts the client on `bus`: `listen` is the Python body of `def listen(event):`, `events` the event kinds it
    /// registers for. Returns once it listens.
    static func start(on bus: AccessibilityBus, events: [String], listen: String, seconds: Int) async throws
        -> ListeningClient
    {
        let body = listen.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        let kinds = events.map { "\"\($0)\"" }.joined(separator: ", ")
        let process = try bus.startClient(
            AccessibilityBus.findDrawing + """
                from gi.repository import GLib
                def listen(event):
                \(body)
                pyatspi.Registry.registerEventListener(listen, \(kinds))
                def finish():
                    pyatspi.Registry.stop()
                    return False
                print("listening", flush=True)
                GLib.timeout_add(\(seconds * 1000), finish)
                pyatspi.Registry.start()
                """)
        try await waitUntil("the client to listen", timeout: .seconds(60), poll: .milliseconds(50)) {
            String(decoding: process.stdout, as: UTF8.self).contains("listening")
        }
        return ListeningClient(process: process)
    }

    /// Waits for the client to stop, and returns its exit status and everything it printed.
    func finish() async throws -> (status: Int32, output: String) {
        let ended = try await waitForValue("the client to finish", timeout: .seconds(30), poll: .milliseconds(100)) {
            process.exit
        }
        // Its output is read on other threads and may trail its exit.
        try await waitUntil("the client's output read to the end", timeout: .seconds(5)) { process.outputClosed }
        let output = String(decoding: process.stdout, as: UTF8.self) + String(decoding: process.stderr, as: UTF8.self)
        return (ended.status, output)
    }

    func stop() {
        _ = process.stop(timeout: .seconds(2))
    }
}
