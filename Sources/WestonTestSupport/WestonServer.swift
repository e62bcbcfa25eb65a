import Foundation
import Synchronization
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A private weston 10 for one test: the headless backend (no GPU, no seat, no input devices of its own) with the
/// pixman renderer (so screenshots have pixels), the kiosk shell (each toplevel fullscreen at the output's size, at
/// 0,0), optionally Xwayland, and our input module (`InputModule/touchtracker-test-input.c`), which adds a seat
/// "touchtracker-test" with touch, pointer and keyboard that `input` drives.
///
/// The runtime folder (`XDG_RUNTIME_DIR`, mode 0700), the log and the input socket live in a fresh temp dir, and the
/// Wayland socket's name is unique too, so tests can run in parallel; Xwayland's display number is weston's pick (the
/// first free one), read from its log. As for `XorgServer`, a watchdog shell SIGTERMs weston when the test process
/// dies, so a crashed test run leaves no compositor behind. Always `stop()` it (e.g. in `defer`); `deinit` stops it
/// too.
public final class WestonServer: Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// The `WAYLAND_DISPLAY` value: a socket name inside `runtimeDirectory`.
    public let socketName: String
    /// The `XDG_RUNTIME_DIR` value (mode 0700, as libwayland requires).
    public let runtimeDirectory: String
    /// Xwayland's display (":N") when started with `xwayland: true`. Xwayland itself starts on the first X client.
    public let xDisplay: String?
    /// The temp dir holding the runtime folder, the log and the input socket (removed by `stop()`).
    public let directory: URL
    public let logPath: String
    public let stderrPath: String
    /// The input module's command socket (see `WestonInput`).
    public let inputSocketPath: String
    /// The output's size in pixels; under the kiosk shell a toplevel gets exactly this size, at 0,0.
    public let width: Int
    public let height: Int
    public let pid: Int32
    /// The harness's own connection to the input module (more may connect: `WestonInput(socketPath:)`).
    public let input: WestonInput

    private let process: ChildProcess
    private let watchdog: ChildProcess
    private struct State {
        var stopped = false
        var screenshots = 0
    }
    private let state = Mutex(State())

    /// What a client of this compositor needs on top of its usual environment: `WAYLAND_DISPLAY`,
    /// `XDG_RUNTIME_DIR`, and `DISPLAY` when Xwayland runs.
    public var environment: [String: String] {
        var environment = ["WAYLAND_DISPLAY": socketName, "XDG_RUNTIME_DIR": runtimeDirectory]
        environment["DISPLAY"] = xDisplay
        return environment
    }

    /// This process's environment with `environment` on top, without a `WAYLAND_SOCKET` that would override
    /// `WAYLAND_DISPLAY`: a whole environment for a `ChildProcess` client.
    public var clientEnvironment: [String: String] {
        var result = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        result["WAYLAND_SOCKET"] = nil
        if xDisplay == nil { result["DISPLAY"] = nil }
        return result
    }

    /// Starts weston and returns once its Wayland socket accepts connections, the input module answers a `sync`
    /// and (with `xwayland`) weston has announced Xwayland's display.
    /// The shell: `kiosk` (every toplevel fullscreen at 0,0, as most tests want) or `desktop` (weston's desktop
    /// shell: windows of their own size, placed by the shell, with a panel; it draws no decorations, so a client's
    /// own show).
    public enum Shell: String, Sendable {
        case kiosk = "kiosk-shell.so"
        case desktop = "desktop-shell.so"
    }

    /// A headless weston with one output `width` x `height` in the compositor's coordinates (where the input module
    /// puts touches and the pointer) at a whole-number `scale`: `scale` times as many pixels a side.
    public static func start(
        width: Int = 1024, height: Int = 768, scale: Int = 1, xwayland: Bool = false, shell: Shell = .kiosk,
        timeout: Duration = .seconds(15)
    ) async throws -> WestonServer {
        let module = try InputModule.path.get()
        let directory = try makeTemporaryDirectory()
        do {
            return try await WestonServer(
                directory: directory, module: module, width: width, height: height, scale: scale,
                xwayland: xwayland, shell: shell, timeout: timeout)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(
        directory: URL, module: String, width: Int, height: Int, scale: Int, xwayland: Bool, shell: Shell,
        timeout: Duration
    ) async throws {
        self.directory = directory
        self.width = width
        self.height = height
        let runtimeDirectory = directory.appendingPathComponent("runtime").path
        self.runtimeDirectory = runtimeDirectory
        // libwayland refuses a runtime folder others can read (mkdtemp made the parent 0700 as well).
        try FileManager.default.createDirectory(
            atPath: runtimeDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // Unique beyond this folder too: a client that somehow kept another XDG_RUNTIME_DIR fails to connect
        // instead of reaching some other compositor's "wayland-0".
        let socketName = "wayland-\(directory.lastPathComponent)"
        self.socketName = socketName
        let logPath = directory.appendingPathComponent("weston.log").path
        let stderrPath = directory.appendingPathComponent("weston.stderr").path
        let inputSocketPath = directory.appendingPathComponent("input.sock").path
        (self.logPath, self.stderrPath, self.inputSocketPath) = (logPath, stderrPath, inputSocketPath)

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtimeDirectory
        environment["TOUCHTRACKER_TEST_INPUT_SOCKET"] = inputSocketPath
        // Weston's headless backend ignores these, but its clients (Xwayland) would inherit them.
        for name in ["WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY"] { environment[name] = nil }
        let process = try ChildProcess(
            executable: Self.executable("weston", override: "WESTON_BIN"),
            arguments: [
                "--backend=headless-backend.so", "--shell=\(shell.rawValue)", "--modules=\(module)",
                "--width=\(width)", "--height=\(height)", "--socket=\(socketName)", "--log=\(logPath)",
                // --debug exposes the screenshooter protocol; the default headless renderer draws nothing.
                "--debug", "--use-pixman",
                // No weston.ini of the user's; no idle timeout (weston would go idle after 300 s without input).
                "--no-config", "--idle-time=0",
            ] + (scale != 1 ? ["--scale=\(scale)"] : []) + (xwayland ? ["--xwayland"] : []),
            environment: environment, stdout: .file(stderrPath), stderr: .file(stderrPath))
        self.process = process
        pid = process.pid
        do {
            watchdog = try ChildProcess(
                executable: "/bin/sh",
                arguments: [
                    "-c", #"cat >/dev/null; kill -TERM "$0"; sleep 2; rm -rf "$1""#, "\(process.pid)", directory.path,
                ],
                environment: ["PATH": "/usr/bin:/bin"], stdin: true, stdout: .discard, stderr: .discard)
        } catch {
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(5))
            throw error
        }
        let watchdog = watchdog

        func failure(_ reason: String) -> StartError {
            Self.disarm(watchdog)
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(5))
            return StartError(
                description: """
                    weston did not start: \(reason)
                    --- tail of \(Self.tail(path: logPath, lines: 25))
                    --- tail of \(Self.tail(path: stderrPath, lines: 10))
                    """)
        }

        // Ready once the Wayland socket accepts, our module has made its socket and (with Xwayland) the log names
        // the X display; checking all three on every poll assumes no order among them.
        let socketPath = runtimeDirectory + "/" + socketName
        let what = "weston to listen on \(socketName)" + (xwayland ? " and announce Xwayland" : "")
        let xDisplay: String?
        do {
            xDisplay = try await waitForValue(what, timeout: timeout) { () -> String?? in
                if let exit = process.exit { throw StartError(description: "weston \(exit)") }
                guard UnixSocket.accepts(socketPath), FileManager.default.fileExists(atPath: inputSocketPath) else {
                    return nil
                }
                guard xwayland else { return .some(nil) }
                return Self.xDisplay(inLog: logPath).map { .some($0) }
            }
        } catch {
            throw failure("\(error)")
        }
        self.xDisplay = xDisplay
        do {
            input = try WestonInput(socketPath: inputSocketPath)
            try input.sync()
        } catch {
            throw failure("the input module does not answer: \(error)")
        }
        trace("weston \(socketName) ready (pid \(process.pid)\(xDisplay.map { ", Xwayland \($0)" } ?? ""))")
    }

    deinit {
        stop()
    }

    public var isRunning: Bool { process.isRunning }

    /// Stops weston (SIGTERM, then SIGKILL after `timeout`; Xwayland ends with its connection), waits for it and
    /// removes the temp dir (kept when E2E_KEEP_TEMP is set). Idempotent.
    public func stop(timeout: Duration = .seconds(5)) {
        let first = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        input.close()
        // The watchdog goes first: once it is gone it cannot signal a reused pid.
        Self.disarm(watchdog)
        trace("stopping weston \(socketName)")
        defer { trace("stopped weston \(socketName)") }
        process.stop(timeout: timeout)
        removeStaleXLock()
        if ProcessInfo.processInfo.environment["E2E_KEEP_TEMP"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// The last `lines` lines of weston's log.
    public func logTail(lines: Int = 30) -> String {
        Self.tail(path: logPath, lines: lines)
    }

    /// Takes a screenshot of the output with `weston-screenshooter` and returns the PNG's path, a file in `directory`
    /// (so `stop()` removes it: copy it to keep it). It shows what weston last painted: give a client time to draw
    /// (and weston to repaint) after the input it answers.
    public func screenshotPNG(timeout: Duration = .seconds(10)) throws -> String {
        let number = state.withLock { state in
            state.screenshots += 1
            return state.screenshots
        }
        // weston-screenshooter names its file after the time, in its current folder: a fresh folder per shot.
        let folder = directory.appendingPathComponent("screenshot-\(number)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let shooter = try ChildProcess(
            executable: Self.executable("weston-screenshooter"), arguments: [], environment: clientEnvironment,
            workingDirectory: folder.path)
        guard let exit = shooter.waitForExit(timeout: timeout) else {
            shooter.stop()
            throw StartError(description: "weston-screenshooter did not finish in \(timeout)")
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        guard exit == .exited(0), let file = files.first(where: { $0.hasSuffix(".png") }) else {
            throw StartError(
                description: """
                    weston-screenshooter \(exit), files: \(files)
                    \(String(decoding: shooter.stderr, as: UTF8.self))
                    """)
        }
        let path = directory.appendingPathComponent("screenshot-\(number).png").path
        try FileManager.default.moveItem(atPath: folder.appendingPathComponent(file).path, toPath: path)
        try? FileManager.default.removeItem(at: folder)
        return path
    }

    // MARK: Private

    /// Kills the watchdog shell before it can act, then lets its `cat` see end of file.
    private static func disarm(_ watchdog: ChildProcess) {
        watchdog.signal(SIGKILL)
        _ = watchdog.waitForExit(timeout: .seconds(5))
        watchdog.closeStdin()
    }

    /// Weston removes Xwayland's lock file and socket when it exits normally; after a SIGKILL they stay and would
    /// hold the display number. The lock holds weston's pid, so a newer server's lock is left alone.
    private func removeStaleXLock() {
        guard let display = xDisplay, let number = Int(display.dropFirst()) else { return }
        let lockPath = "/tmp/.X\(number)-lock"
        if let owner = try? String(contentsOfFile: lockPath, encoding: .utf8),
            Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)) == pid
        {
            try? FileManager.default.removeItem(atPath: lockPath)
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }
    }

    /// ":N" from weston's "xserver listening on display :N" line.
    private static func xDisplay(inLog path: String) -> String? {
        guard let log = try? String(contentsOfFile: path, encoding: .utf8),
            let range = log.range(of: "xserver listening on display ")
        else { return nil }
        let display = log[range.upperBound...].prefix { !$0.isWhitespace }
        // Only a whole line: the log may be caught mid-write.
        guard display.count > 1, log[display.endIndex...].first == "\n" else { return nil }
        return String(display)
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
        var template = Array("/tmp/ttw-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else {
            throw StartError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: result), isDirectory: true)
    }

    static func tail(path: String, lines: Int) -> String {
        XorgServer.tail(path: path, lines: lines)
    }
}
