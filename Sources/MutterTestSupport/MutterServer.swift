import Foundation
import Synchronization
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// GNOME's own compositor for one test: a private `mutter --headless --wayland --no-x11` (mutter 43, Debian 12's)
/// with one virtual monitor of the given size at the given scale, and input that mutter injects itself
/// (`MutterInput`, through `org.gnome.Mutter.RemoteDesktop`).
///
/// mutter needs a session bus (its D-Bus interfaces live there), and its screen cast, which the remote desktop
/// session needs for touch and absolute pointer events, needs PipeWire with a session manager (WirePlumber links
/// the stream's consumers; it is started once PipeWire's socket is there, as it gives up at once without it, and
/// mutter once WirePlumber is on PipeWire). So each server has its own `dbus-daemon --session`, `pipewire` and `wireplumber`, and
/// its own `XDG_RUNTIME_DIR` (mode 0700), `HOME` and `XDG_CONFIG_HOME` in a fresh temp dir, so tests can run side by
/// side and nothing of the user's is read or written. GSettings use the memory backend for the same reason.
///
/// Scale: mutter 43 offers scale 2 only for a large enough monitor (2560x1600 offers 1, 2 and 3; 1280x800 only 1),
/// and picks 1 by itself; the helper applies the scale asked for with `DisplayConfig.ApplyMonitorsConfig`. Monitors
/// are laid out in physical pixels (mutter's default `layout-mode`), so a scale-2 window covers twice its logical
/// size in stream pixels.
///
/// A watchdog shell SIGTERMs every process of the server when the test process dies. Always `stop()` it (e.g. in
/// `defer`); `deinit` stops it too.
public final class MutterServer: Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The `WAYLAND_DISPLAY` value: a socket name inside `runtimeDirectory`.
    public let socketName: String
    public let runtimeDirectory: String
    /// The private session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    public let busAddress: String
    /// The temp dir holding the runtime folder, home, logs and the helper's FIFO (removed by `stop()`).
    public let directory: URL
    public let logPath: String
    /// The monitor's size in physical pixels (the screen cast stream's size).
    public let width: Int
    public let height: Int
    /// The monitor's scale now (`setScale`).
    public var scale: Int { currentScale.withLock { $0 } }
    /// The screen cast stream's PipeWire node (for `frame()`).
    public let node: Int
    public let input: MutterInput
    public let pid: Int32

    private let bus: ChildProcess
    private let services: [ChildProcess]
    private let mutter: ChildProcess
    private let helper: ChildProcess
    private let watchdog: ChildProcess
    private let stopped = Mutex(false)
    private let frames = Mutex(0)
    private let currentScale: Mutex<Int>

    /// The environment of the server's own programs and of its clients: the private bus, runtime folder and home.
    private let baseEnvironment: [String: String]

    /// What a client of this compositor needs on top of its usual environment: `WAYLAND_DISPLAY`,
    /// `XDG_RUNTIME_DIR` and the private session bus.
    public var environment: [String: String] {
        [
            "WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtimeDirectory,
            "DBUS_SESSION_BUS_ADDRESS": busAddress,
        ]
    }

    /// This process's environment with `environment` on top and no X display: a whole environment for a
    /// `ChildProcess` client (wl-copy, wl-paste).
    public var clientEnvironment: [String: String] {
        var result = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        result["WAYLAND_SOCKET"] = nil
        result["DISPLAY"] = nil
        return result
    }

    /// Starts the bus, PipeWire, WirePlumber and mutter with a `width`x`height` virtual monitor, sets `scale`, and
    /// returns once the remote desktop session is running with its devices warmed up.
    public static func start(
        width: Int = 1280, height: Int = 800, scale: Int = 1, timeout: Duration = .seconds(60)
    ) async throws -> MutterServer {
        var template = Array("/tmp/ttm-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw StartError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        let directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            return try await MutterServer(
                directory: directory, width: width, height: height, scale: scale, timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(directory: URL, width: Int, height: Int, scale: Int, timeout: Duration) async throws {
        self.directory = directory
        let runtimeDirectory = directory.appendingPathComponent("runtime").path
        self.runtimeDirectory = runtimeDirectory
        let home = directory.appendingPathComponent("home").path
        for (path, mode) in [(runtimeDirectory, 0o700), (home, 0o700)] {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: mode])
        }
        socketName = "wayland-\(directory.lastPathComponent)"
        logPath = directory.appendingPathComponent("mutter.log").path

        bus = try ChildProcess(
            executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--nofork", "--print-address=1"],
            environment: ["PATH": "/usr/bin:/bin"])
        let bus = bus
        let busAddress: String
        do {
            busAddress = try await waitForValue("the session bus's address", timeout: .seconds(10)) {
                let text = String(decoding: bus.stdout, as: UTF8.self)
                return text.contains("\n") ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
            }
        } catch {
            _ = bus.stop()
            throw error
        }
        self.busAddress = busAddress
        var environment = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "XDG_ACTIVATION_TOKEN"] { environment[name] = nil }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_STATE_HOME"] = home + "/.local/state"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        // No dconf database: GSettings live in memory, mutter's defaults.
        environment["GSETTINGS_BACKEND"] = "memory"
        baseEnvironment = environment

        var started: [ChildProcess] = [bus]
        func stopAll() {
            for process in started.reversed() { _ = process.stop(timeout: .seconds(5)) }
        }
        func log(_ name: String) -> ChildProcess.Output { .file(directory.appendingPathComponent(name).path) }
        do {
            let pipewire = try ChildProcess(
                executable: "/usr/bin/pipewire", arguments: [], environment: environment, stdout: log("pipewire.log"),
                stderr: log("pipewire.log"))
            started.append(pipewire)
            // WirePlumber gives up at once ("Failed to connect to PipeWire") when PipeWire's socket is not there yet,
            // and without it no consumer of the screen cast is ever linked: it starts once the socket is there.
            let socket = runtimeDirectory + "/pipewire-0"
            try await waitUntil("PipeWire's socket", timeout: .seconds(20)) {
                if let exit = pipewire.exit { throw StartError(description: "pipewire \(exit)") }
                return FileManager.default.fileExists(atPath: socket)
            }
            let wireplumber = try ChildProcess(
                executable: "/usr/bin/wireplumber", arguments: [], environment: environment,
                stdout: log("wireplumber.log"), stderr: log("wireplumber.log"))
            started.append(wireplumber)
            // Linked up once WirePlumber's export client is on PipeWire.
            try await waitUntil("WirePlumber on PipeWire", timeout: .seconds(20), poll: .milliseconds(100)) {
                if let exit = wireplumber.exit {
                    throw StartError(
                        description: "wireplumber \(exit): "
                            + XorgServer.tail(path: directory.appendingPathComponent("wireplumber.log").path, lines: 5))
                }
                let cli = try ChildProcess(
                    executable: "/usr/bin/pw-cli", arguments: ["ls", "Client"], environment: environment,
                    stderr: .discard)
                guard cli.waitForExit(timeout: .seconds(5)) != nil else {
                    _ = cli.stop()
                    return false
                }
                return Self.output(of: cli).contains("WirePlumber [export]")
            }
            let mutter = try ChildProcess(
                executable: "/usr/bin/mutter",
                arguments: [
                    "--headless", "--wayland", "--no-x11", "--virtual-monitor", "\(width)x\(height)",
                    "--wayland-display", socketName,
                ], environment: environment, stdout: .file(logPath), stderr: .file(logPath))
            started.append(mutter)
            self.mutter = mutter
            pid = mutter.pid
            services = [pipewire, wireplumber]
        } catch {
            stopAll()
            throw error
        }
        do {
            watchdog = try ChildProcess(
                executable: "/bin/sh",
                // $1 is the temp dir, the rest are the pids (mutter first).
                arguments: [
                    "-c", #"cat >/dev/null; dir="$1"; shift; kill -TERM "$@"; sleep 2; kill -KILL "$@"; rm -rf "$dir""#,
                    "watchdog", directory.path,
                ] + started.reversed().map { "\($0.pid)" },
                environment: ["PATH": "/usr/bin:/bin"], stdin: true, stdout: .discard, stderr: .discard)
        } catch {
            stopAll()
            throw error
        }

        let fifoPath = directory.appendingPathComponent("input.fifo").path
        var helperProcess: ChildProcess?
        do {
            guard mkfifo(fifoPath, 0o600) == 0 else {
                throw StartError(description: "mkfifo: \(String(cString: strerror(errno)))")
            }
            let helper = try ChildProcess(
                executable: "/usr/bin/python3", arguments: ["-c", RemoteDesktopHelper.script, fifoPath, "\(scale)"],
                environment: environment)
            helperProcess = helper
            self.helper = helper
            let mutter = mutter
            let ready = try await waitForValue("mutter's remote desktop session", timeout: timeout) {
                () -> [Substring]? in
                let text = String(decoding: helper.stdout, as: UTF8.self)
                if let line = text.split(separator: "\n").first, line.hasPrefix("ready ") {
                    return line.split(separator: " ")
                }
                if let exit = helper.exit {
                    throw StartError(description: "the remote desktop helper \(exit)")
                }
                if let exit = mutter.exit { throw StartError(description: "mutter \(exit)") }
                return nil
            }
            guard ready.count == 5, let node = Int(ready[1]), let width = Int(ready[2]), let height = Int(ready[3]),
                let scale = Double(ready[4])
            else { throw StartError(description: "the helper said \(ready.joined(separator: " "))") }
            (self.node, self.width, self.height) = (node, width, height)
            currentScale = Mutex(Int(scale))
            input = try MutterInput(helper: helper, fifoPath: fifoPath, timeout: .seconds(10))
        } catch {
            Self.disarm(watchdog)
            _ = helperProcess?.stop(timeout: .seconds(5))
            stopAll()
            throw StartError(
                description: """
                    mutter did not start: \(error)
                    --- helper: \(String(decoding: helperProcess?.stderr ?? Data(), as: UTF8.self))
                    --- tail of \(XorgServer.tail(path: logPath, lines: 25))
                    """)
        }
        // One frame now, so a stream WirePlumber does not link fails here, not in a test's first look (a failure
        // here stops everything: deinit).
        _ = try frame()
        trace("mutter \(socketName) ready (pid \(pid), \(width)x\(height) at scale \(scale), node \(node))")
    }

    deinit {
        stop()
    }

    public var isRunning: Bool { mutter.isRunning }

    /// Ends the input helper (and with it mutter's sessions), then mutter, WirePlumber, PipeWire and the bus, and
    /// removes the temp dir (kept when E2E_KEEP_TEMP is set). Idempotent.
    public func stop(timeout: Duration = .seconds(5)) {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        Self.disarm(watchdog)
        trace("stopping mutter \(socketName)")
        input.close()
        _ = helper.stop(timeout: timeout)
        _ = mutter.stop(timeout: timeout)
        for service in services.reversed() { _ = service.stop(timeout: timeout) }
        _ = bus.stop(timeout: timeout)
        if ProcessInfo.processInfo.environment["E2E_KEEP_TEMP"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
        trace("stopped mutter \(socketName)")
    }

    /// Changes the monitor's scale while clients run, as GNOME's display settings do (mutter 43 tells its clients
    /// with wl_output's scale event). The monitor must offer it (see the type's note).
    public func setScale(_ scale: Int) throws {
        try input.send("scale \(scale)")
        currentScale.withLock { $0 = scale }
    }

    /// The last `lines` lines of mutter's log.
    public func logTail(lines: Int = 30) -> String {
        XorgServer.tail(path: logPath, lines: lines)
    }

    /// The next frame of the monitor's screen cast, as GStreamer's `pipewiresrc` receives it from mutter's
    /// stream (no cursor): what mutter last composited. Give a client time to draw after the input it answers.
    ///
    /// Each call is a new PipeWire consumer of the stream, which WirePlumber links and mutter answers with a fresh
    /// frame. A consumer that waited `attemptTimeout` in vain is stopped and a new one tried, `attempts` times in
    /// all (a safety net for a machine too busy to link one in time; frames that never came at all were WirePlumber
    /// started too early, see `init`); the error then shows PipeWire's graph.
    public func frame(attempts: Int = 3, attemptTimeout: Duration = .seconds(8)) throws -> ScreenFrame {
        var failures: [String] = []
        for _ in 0..<attempts {
            switch try takeFrame(timeout: attemptTimeout) {
            case .success(let frame): return frame
            case .failure(let failure):
                trace("mutter \(socketName): \(failure.description)")
                failures.append(failure.description)
            }
        }
        throw StartError(description: (failures + [pipewireGraph()]).joined(separator: "\n"))
    }

    /// PipeWire's nodes and links now, and WirePlumber's log, for a frame that never came.
    private func pipewireGraph() -> String {
        var text = ""
        for kind in ["Node", "Link"] {
            guard
                let cli = try? ChildProcess(
                    executable: "/usr/bin/pw-cli", arguments: ["ls", kind], environment: baseEnvironment)
            else { continue }
            _ = cli.waitForExit(timeout: .seconds(5)) ?? cli.stop()
            let lines = Self.output(of: cli).split(separator: "\n").filter {
                $0.contains(" id ") || $0.contains("node.name") || $0.contains("link.") || $0.contains("state")
            }
            text += "--- pw-cli ls \(kind):\n" + lines.joined(separator: "\n") + "\n"
        }
        let wireplumber = directory.appendingPathComponent("wireplumber.log").path
        return text + "--- tail of \(XorgServer.tail(path: wireplumber, lines: 10))"
    }

    private func takeFrame(timeout: Duration) throws -> Result<ScreenFrame, StartError> {
        let number = frames.withLock { count in
            count += 1
            return count
        }
        let path = directory.appendingPathComponent("frame-\(number).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let gst = try ChildProcess(
            executable: "/usr/bin/gst-launch-1.0",
            arguments: [
                "-q", "pipewiresrc", "path=\(node)", "num-buffers=1", "!", "videoconvert", "!",
                "video/x-raw,format=BGRx,width=\(width),height=\(height)", "!", "filesink", "location=\(path)",
            ], environment: baseEnvironment)
        guard let exit = gst.waitForExit(timeout: timeout) else {
            _ = gst.stop()
            return .failure(StartError(description: "gst-launch-1.0 took no frame from node \(node) in \(timeout)"))
        }
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        guard exit == .exited(0), data.count == width * height * 4 else {
            return .failure(
                StartError(
                    description: """
                        gst-launch-1.0 \(exit), \(data.count) bytes for a \(width)x\(height) frame
                        \(String(decoding: gst.stderr, as: UTF8.self))
                        """))
        }
        return .success(ScreenFrame(width: width, height: height, bgrx: [UInt8](data)))
    }

    /// The standard output of `child`, which has exited: its pipe is read on another thread, so the exit can be
    /// seen before the last of it is read.
    private static func output(of child: ChildProcess) -> String {
        let readBy = ContinuousClock.now.advanced(by: .seconds(2))
        while !child.outputClosed, ContinuousClock.now < readBy { usleep(2_000) }
        return String(decoding: child.stdout, as: UTF8.self)
    }

    /// Kills the watchdog shell before it can act, then lets its `cat` see end of file.
    private static func disarm(_ watchdog: ChildProcess) {
        watchdog.signal(SIGKILL)
        _ = watchdog.waitForExit(timeout: .seconds(5))
        watchdog.closeStdin()
    }
}
