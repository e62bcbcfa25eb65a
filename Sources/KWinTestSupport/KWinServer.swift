import Foundation
import Synchronization
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A private KDE KWin 5.27 for one test: `kwin_wayland --virtual` (no GPU, no seat, no input devices of its own;
/// it composites with llvmpipe, so ScreenShot2 has pixels) at a given size and scale, on a session bus of its own
/// (KWin's scripting and screenshots are D-Bus services), with the tests' fake-input client
/// (`InputClient/touchtracker-kwin-input.c`) connected and authenticated, which `input` drives.
///
/// Everything KWin reads or writes lives in a fresh temp dir: `XDG_RUNTIME_DIR` (mode 0700), `HOME` and the XDG
/// config, cache and data folders (so no configuration of the user's and no ksycoca cache of theirs), the bus
/// socket, the log. The data folder's `applications/` holds the .desktop file that names the fake-input client, by
/// its executable path, as allowed to use `org_kde_kwin_fake_input` and `org_kde_plasma_window_management` (which
/// makes KWin grant it activation tokens with no surface) and ScreenShot2: KWin grants those only to programs a
/// .desktop file names. The Wayland socket's name is unique, so tests can run in parallel. As for `WestonServer`,
/// a watchdog shell SIGTERMs KWin and the bus when the test process dies. Always `stop()` it; `deinit` does too.
///
/// `--width` and `--height` are the output's size in LOGICAL units: at scale 1.5 a 1024x768 output is 1536x1152
/// pixels, and KWin offers its clients the fractional scale 1.5 (wp_fractional_scale_v1's 180/120).
public final class KWinServer: Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A toplevel as KWin's scripting sees it; rectangles in global logical coordinates.
    public struct Window: Sendable, Decodable {
        public struct Rect: Sendable, Decodable, Equatable {
            public let x: Double
            public let y: Double
            public let width: Double
            public let height: Double
        }

        public let pid: Int32
        public let caption: String
        /// Whether it is KWin's active window (the one with keyboard focus).
        public let active: Bool
        /// Whether KWin draws no frame for it (a window decorating itself, or asking for none).
        public let noBorder: Bool
        /// The window with KWin's decoration (title bar and borders).
        public let frame: Rect
        /// The client's own surface, without the decoration: where window point (0, 0) is. (KWin 5.27's scripting
        /// has no clientGeometry: this is its bufferGeometry, the surface's place, which for a client with no
        /// shadows of its own is its window geometry.)
        public let client: Rect
    }

    /// The `WAYLAND_DISPLAY` value: a socket name inside `runtimeDirectory`.
    public let socketName: String
    public let runtimeDirectory: String
    /// The private session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    public let busAddress: String
    /// The temp dir holding everything (removed by `stop()`).
    public let directory: URL
    /// KWin's standard output and error (its log, and scripts' `print`).
    public let logPath: String
    /// The output's size in logical units, and its scale.
    public let width: Int
    public let height: Int
    public let scale: Double
    public let pid: Int32
    /// The fake-input client's connection.
    public let input: KWinInput

    private let kwin: ChildProcess
    private let bus: ChildProcess
    private let inputClient: ChildProcess
    private let watchdog: ChildProcess
    private struct State {
        var stopped = false
        var scripts = 0
        var screenshots = 0
    }
    private let state = Mutex(State())

    /// What a client of this compositor needs on top of its usual environment: `WAYLAND_DISPLAY`,
    /// `XDG_RUNTIME_DIR` and the private session bus.
    public var environment: [String: String] {
        ["WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtimeDirectory, "DBUS_SESSION_BUS_ADDRESS": busAddress]
    }

    /// This process's environment with `environment` on top, without `WAYLAND_SOCKET` and `DISPLAY` (so a client
    /// is a native Wayland client of this KWin): a whole environment for a `ChildProcess` client.
    public var clientEnvironment: [String: String] {
        var result = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        result["WAYLAND_SOCKET"] = nil
        result["DISPLAY"] = nil
        return result
    }

    /// Starts the bus and KWin, and returns once KWin's Wayland socket accepts, KWin owns `org.kde.KWin` on the bus
    /// and the fake-input client is connected and authenticated.
    public static func start(
        width: Int = 1024, height: Int = 768, scale: Double = 1, timeout: Duration = .seconds(30)
    ) async throws -> KWinServer {
        let tools = try InputClient.tools.get()
        let directory = try makeTemporaryDirectory()
        do {
            return try await KWinServer(
                directory: directory, tools: tools, width: width, height: height, scale: scale, timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(
        directory: URL, tools: InputClient.Tools, width: Int, height: Int, scale: Double, timeout: Duration
    ) async throws {
        self.directory = directory
        (self.width, self.height, self.scale) = (width, height, scale)
        let path = directory.path
        let runtimeDirectory = path + "/runtime"
        self.runtimeDirectory = runtimeDirectory
        // libwayland refuses a runtime folder others can read (mkdtemp made the parent 0700 as well).
        try FileManager.default.createDirectory(
            atPath: runtimeDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        for folder in ["home", "config", "cache", "data/applications"] {
            try FileManager.default.createDirectory(atPath: path + "/" + folder, withIntermediateDirectories: true)
        }
        // Written before KWin starts: KWin reads the .desktop files (through ksycoca, built in the private cache)
        // when a client first connects.
        try """
        [Desktop Entry]
        Type=Application
        Name=TouchTracker test input
        Exec=\(tools.client)
        NoDisplay=true
        X-KDE-Wayland-Interfaces=org_kde_kwin_fake_input,org_kde_plasma_window_management
        X-KDE-DBUS-Restricted-Interfaces=org.kde.KWin.ScreenShot2

        """.write(
            toFile: path + "/data/applications/touchtracker-kwin-input.desktop", atomically: true, encoding: .utf8)
        let socketName = "wayland-\(directory.lastPathComponent)"
        self.socketName = socketName
        let busSocket = path + "/bus"
        let busAddress = "unix:path=\(busSocket)"
        self.busAddress = busAddress
        let logPath = path + "/kwin.log"
        self.logPath = logPath

        var environment = ProcessInfo.processInfo.environment
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "SESSION_MANAGER", "KDE_FULL_SESSION"] {
            environment[name] = nil
        }
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["HOME"] = path + "/home"
        environment["XDG_CONFIG_HOME"] = path + "/config"
        environment["XDG_CACHE_HOME"] = path + "/cache"
        environment["XDG_DATA_DIRS"] = path + "/data:/usr/local/share:/usr/share"
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        // Scripts' print() reaches the log only with js.debug on.
        environment["QT_LOGGING_RULES"] = "js.debug=true"
        let baseEnvironment = environment

        let bus = try ChildProcess(
            executable: Self.executable("dbus-daemon"),
            arguments: ["--session", "--nofork", "--nopidfile", "--address=\(busAddress)"],
            environment: baseEnvironment, stdout: .discard, stderr: .file(path + "/bus.log"))
        self.bus = bus
        let kwin: ChildProcess
        do {
            kwin = try ChildProcess(
                executable: tools.kwin,
                arguments: [
                    "--virtual", "--socket", socketName, "--width", "\(width)", "--height", "\(height)",
                    "--scale", "\(scale)", "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities",
                ],
                environment: baseEnvironment, stdout: .file(logPath), stderr: .file(logPath))
        } catch {
            bus.stop()
            throw error
        }
        self.kwin = kwin
        pid = kwin.pid
        do {
            watchdog = try ChildProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c", #"cat >/dev/null; kill -TERM "$0" "$1"; sleep 2; rm -rf "$2""#, "\(kwin.pid)", "\(bus.pid)",
                    path,
                ],
                environment: ["PATH": "/usr/bin:/bin"], stdin: true, stdout: .discard, stderr: .discard)
        } catch {
            kwin.stop()
            bus.stop()
            throw error
        }
        let watchdog = watchdog

        func failure(_ reason: String, client: ChildProcess? = nil) -> StartError {
            Self.disarm(watchdog)
            client?.stop()
            kwin.stop()
            bus.stop()
            let clientOutput = client.map {
                "\n--- the fake-input client:\n" + String(decoding: $0.stderr, as: UTF8.self)
            }
            return StartError(
                description: """
                    KWin did not start: \(reason)
                    --- tail of \(Self.tail(path: logPath, lines: 25))\(clientOutput ?? "")
                    """)
        }

        let socketPath = runtimeDirectory + "/" + socketName
        do {
            try await waitUntil("KWin to listen on \(socketName) and own org.kde.KWin", timeout: timeout) {
                if let exit = kwin.exit { throw StartError(description: "kwin_wayland \(exit)") }
                if let exit = bus.exit { throw StartError(description: "dbus-daemon \(exit)") }
                return UnixSocket.accepts(socketPath) && Self.busHasOwner("org.kde.KWin", address: busAddress)
            }
        } catch {
            throw failure("\(error)")
        }

        var clientEnvironment = baseEnvironment
        clientEnvironment["WAYLAND_DISPLAY"] = socketName
        let inputSocket = path + "/input.sock"
        let inputClient: ChildProcess
        do {
            inputClient = try ChildProcess(
                executable: tools.client, arguments: [inputSocket], environment: clientEnvironment, stdout: .discard)
        } catch {
            throw failure("the fake-input client did not start: \(error)")
        }
        self.inputClient = inputClient
        do {
            input = try KWinInput(socketPath: inputSocket, timeout: .seconds(10)) { inputClient.isRunning }
            try input.sync()
        } catch {
            throw failure("the fake-input client does not answer: \(error)", client: inputClient)
        }
        trace("KWin \(socketName) ready (pid \(kwin.pid), scale \(scale))")
    }

    deinit {
        stop()
    }

    public var isRunning: Bool { kwin.isRunning }

    /// Stops the fake-input client, KWin and the bus, and removes the temp dir (kept when E2E_KEEP_TEMP is set).
    /// Idempotent.
    public func stop(timeout: Duration = .seconds(5)) {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        input.close()
        // The watchdog goes first: once it is gone it cannot signal a reused pid.
        Self.disarm(watchdog)
        trace("stopping KWin \(socketName)")
        defer { trace("stopped KWin \(socketName)") }
        inputClient.stop(timeout: timeout)
        kwin.stop(timeout: timeout)
        bus.stop(timeout: timeout)
        if ProcessInfo.processInfo.environment["E2E_KEEP_TEMP"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The last `lines` lines of KWin's log.
    public func logTail(lines: Int = 30) -> String {
        Self.tail(path: logPath, lines: lines)
    }

    // MARK: Scripting

    /// Runs `body` as a KWin script (JavaScript, KWin 5.27's API: `workspace.clientList()`,
    /// `workspace.activeClient`) loaded over D-Bus, and returns what it passed to `emit(text)`, in order. KWin's
    /// `print` reaches only its log (with js.debug on), so `emit` prints with a marker of this run that is read
    /// back from there.
    public func runScript(_ body: String, timeout: Duration = .seconds(10)) async throws -> [String] {
        let number = state.withLock { state in
            state.scripts += 1
            return state.scripts
        }
        let marker = "touchtracker-script-\(number):"
        let file = directory.appendingPathComponent("script-\(number).js").path
        try """
        function emit(text) { print("\(marker) " + text); }
        \(body)
        print("\(marker) end");

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let name = "touchtracker-\(number)"
        _ = try callKWin(
            path: "/Scripting", method: "org.kde.kwin.Scripting.loadScript", "string:\(file)", "string:\(name)")
        defer { _ = try? callKWin(path: "/Scripting", method: "org.kde.kwin.Scripting.unloadScript", "string:\(name)") }
        _ = try callKWin(path: "/Scripting", method: "org.kde.kwin.Scripting.start")
        let prefix = "js: \(marker) "
        return try await waitForValue("KWin script \(number) to finish", timeout: timeout) { () -> [String]? in
            guard let log = try? String(contentsOfFile: logPath, encoding: .utf8) else { return nil }
            let lines = log.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count))
            }
            guard lines.last == "end" else { return nil }
            return Array(lines.dropLast())
        }
    }

    /// Every toplevel KWin manages, as its scripting sees them now.
    public func windows() async throws -> [Window] {
        let lines = try await runScript(
            """
            function rect(r) { return { x: r.x, y: r.y, width: r.width, height: r.height }; }
            for (const w of workspace.clientList()) {
                emit(JSON.stringify({ pid: w.pid, caption: w.caption, active: w.active, noBorder: w.noBorder,
                    frame: rect(w.frameGeometry), client: rect(w.bufferGeometry) }));
            }
            """)
        return try lines.map { try JSONDecoder().decode(Window.self, from: Data($0.utf8)) }
    }

    /// Polls `windows()` until one matches `condition` (scripts are async, so `waitForValue` cannot run them).
    public func waitForWindow(
        _ what: String, timeout: Duration = .seconds(10), _ condition: (Window) -> Bool
    ) async throws -> Window {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var seen: [Window] = []
        while true {
            seen = try await windows()
            if let window = seen.first(where: condition) { return window }
            guard ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw StartError(description: "timed out after \(timeout) waiting for \(what); KWin's windows: \(seen)")
    }

    // MARK: Screenshots

    /// The logical area (x, y, width, height) as KWin shows it now, at the output's native resolution (1.5 pixels a
    /// unit at scale 1.5), taken by KWin's ScreenShot2 through the fake-input client (the program the .desktop file
    /// allows).
    public func screenshot(x: Int, y: Int, width: Int, height: Int, timeout: Duration = .seconds(30)) throws
        -> KWinScreenshot
    {
        let number = state.withLock { state in
            state.screenshots += 1
            return state.screenshots
        }
        return try input.screenshot(
            x: x, y: y, width: width, height: height, file: directory.appendingPathComponent("shot-\(number).raw").path,
            timeout: timeout)
    }

    // MARK: Private

    /// Calls `method` (interface.member) of KWin's object `path` with dbus-send's typed arguments; returns the reply.
    private func callKWin(path: String, method: String, _ arguments: String...) throws -> String {
        try Self.dbusSend(
            address: busAddress, ["--dest=org.kde.KWin", path, method] + arguments)
    }

    private static func busHasOwner(_ name: String, address: String) -> Bool {
        let reply = try? dbusSend(
            address: address,
            ["--dest=org.freedesktop.DBus", "/", "org.freedesktop.DBus.NameHasOwner", "string:\(name)"])
        return reply?.contains("boolean true") ?? false
    }

    private static func dbusSend(address: String, _ arguments: [String]) throws -> String {
        let process = try ChildProcess(
            executable: executable("dbus-send"), arguments: ["--bus=\(address)", "--print-reply"] + arguments,
            environment: ["PATH": "/usr/bin:/bin"])
        let exit = process.waitForExit(timeout: .seconds(10))
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !process.outputClosed && ContinuousClock.now < deadline { usleep(1_000) }
        guard exit == .exited(0) else {
            if exit == nil { process.stop() }
            throw StartError(
                description: """
                    dbus-send \(arguments.joined(separator: " ")) \(exit.map(\.description) ?? "did not finish")
                    \(String(decoding: process.stderr, as: UTF8.self))
                    """)
        }
        return String(decoding: process.stdout, as: UTF8.self)
    }

    /// Kills the watchdog shell before it can act, then lets its `cat` see end of file.
    private static func disarm(_ watchdog: ChildProcess) {
        watchdog.signal(SIGKILL)
        _ = watchdog.waitForExit(timeout: .seconds(5))
        watchdog.closeStdin()
    }

    /// `override`'s value when set, else the first `name` on PATH, else /usr/bin/`name` (for the error message).
    static func executable(_ name: String, override: String? = nil) -> String {
        let environment = ProcessInfo.processInfo.environment
        if let override, let path = environment[override] { return path }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "/usr/bin/\(name)"
    }

    private static func makeTemporaryDirectory() throws -> URL {
        // Short, so socket paths stay well under sun_path's 108 bytes.
        var template = Array("/tmp/ttk-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else {
            throw StartError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: result), isDirectory: true)
    }

    static func tail(path: String, lines: Int) -> String {
        XorgServer.tail(path: path, lines: lines)
    }
}
