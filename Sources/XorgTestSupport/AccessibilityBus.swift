import Foundation

/// A private D-Bus session with AT-SPI's accessibility bus on it (at-spi2-core's bus launcher; the registry is
/// started by the bus on demand), and an assistive client: pyatspi, run by Debian's python3. `stop()` ends both.
public final class AccessibilityBus: Sendable {
    /// `DBUS_SESSION_BUS_ADDRESS` for the app and the client.
    public let address: String
    /// The accessibility bus's own address, for clients as `AT_SPI_BUS_ADDRESS`: otherwise libatspi reads it first
    /// from the X display's root window (`AT_SPI_BUS`), where a launcher of someone else's may have left another.
    public let accessibilityAddress: String
    private let daemon: ChildProcess
    private let launcher: ChildProcess
    /// The launcher's own `XDG_RUNTIME_DIR`: it puts the accessibility bus's socket in `…/at-spi/bus`, one path for
    /// every launcher of the user otherwise, so buses of tests running at once (on this machine, by anyone) would
    /// take each other's socket.
    private let runtimeFolder: URL

    public static let python = "/usr/bin/python3"

    /// A pyatspi script's start: finds TouchTracker on the desktop, its window and its drawing.
    public static let findDrawing = """
        import pyatspi, sys, time
        def find():
            # Up to a minute: a machine busy with the other suites starts Python and its bus connection slowly.
            for attempt in range(600):
                for app in pyatspi.Registry.getDesktop(0):
                    if app is not None and app.name == "TouchTracker":
                        return app
                time.sleep(0.1)
            sys.exit("TouchTracker is not on the accessibility bus")
        app = find()
        window = app[0]
        drawing = window[0]

        """

    public init() async throws {
        runtimeFolder = FileManager.default.temporaryDirectory.appendingPathComponent("a11y-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: runtimeFolder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        daemon = try ChildProcess(
            executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--nofork", "--print-address=1"],
            environment: ["PATH": "/usr/bin:/bin"])
        address = try await waitForValue("the session bus's address", timeout: .seconds(10)) { [daemon] in
            let text = String(decoding: daemon.stdout, as: UTF8.self)
            return text.contains("\n") ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
        }
        launcher = try ChildProcess(
            executable: "/usr/libexec/at-spi-bus-launcher", arguments: ["--launch-immediately"],
            environment: [
                "DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": runtimeFolder.path,
            ])
        // Up once it owns org.a11y.Bus on the session bus.
        let address = address
        accessibilityAddress = try await waitForValue(
            "the accessibility bus", timeout: .seconds(10), poll: .milliseconds(50)
        ) {
            let probe = try ChildProcess(
                executable: "/usr/bin/dbus-send",
                arguments: [
                    "--session", "--print-reply=literal", "--dest=org.a11y.Bus", "/org/a11y/bus",
                    "org.a11y.Bus.GetAddress",
                ], environment: ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"])
            guard probe.waitForExit(timeout: .seconds(5))?.status == 0 else { return nil }
            let reply = String(decoding: probe.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return reply.isEmpty ? nil : reply
        }
    }

    /// Starts the pyatspi script `source` and returns it running (for a client that keeps asking while something
    /// else is measured); stop it when done.
    /// The script goes to python3 as `-c`'s argument, so no file is left behind in the temporary folder.
    public func startClient(_ source: String) throws -> ChildProcess {
        try ChildProcess(executable: Self.python, arguments: ["-c", source], environment: clientEnvironment)
    }

    /// What an assistive client (or Orca) runs with: this session bus, and this accessibility bus named outright.
    public var clientEnvironment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "AT_SPI_BUS_ADDRESS": accessibilityAddress, "PATH": "/usr/bin:/bin"]
    }

    /// Runs the pyatspi script `source` and returns what it printed (status 0 expected; the output says why not).
    public func runClient(_ source: String, timeout: Duration = .seconds(90)) throws -> (status: Int32, output: String)
    {
        let client = try ChildProcess(
            executable: Self.python, arguments: ["-c", source], environment: clientEnvironment)
        let status = client.waitForExit(timeout: timeout)?.status ?? -1
        // The child can exit before its output is read to the end (its pipes are read on other threads): wait for
        // both to close, so a busy machine does not lose what the client printed.
        let readBy = ContinuousClock.now.advanced(by: .seconds(5))
        while !client.outputClosed, ContinuousClock.now < readBy { usleep(5_000) }
        let output = String(decoding: client.stdout, as: UTF8.self) + String(decoding: client.stderr, as: UTF8.self)
        return (status, output)
    }

    public func stop() {
        _ = launcher.stop(timeout: .seconds(5))
        _ = daemon.stop(timeout: .seconds(5))
        try? FileManager.default.removeItem(at: runtimeFolder)
    }
}
