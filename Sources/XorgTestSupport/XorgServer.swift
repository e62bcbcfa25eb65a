import CX11
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A private Xorg server for one test (or benchmark): `dummy` video driver (1024x768 unless
/// `start(screenSize:)` asks for another mode) and `inputtest` input devices (Touch with 10
/// touches, PointerAbsolute as CorePointer, Keyboard as CoreKeyboard, a PointerGesture
/// touchpad), no window manager.
///
/// Config, log and device sockets live in a fresh temp dir; the display number is picked by the
/// server (`-displayfd`), so tests can run in parallel. The harness holds one X connection open
/// and starts the server with `-terminate`, and a watchdog shell SIGTERMs the server when the
/// test process dies (it waits for end of file on a pipe only this process holds), so a crashed
/// test run leaves no server behind (and the apps on it lose their display).
/// Always `stop()` it (e.g. in `defer`); `deinit` stops it too.
public final class XorgServer: Sendable {
    public struct StartError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// ":N"
    public let display: String
    public let displayNumber: Int
    /// The temp dir holding config, log and sockets (removed by `stop()`).
    public let directory: URL
    public let configPath: String
    public let logPath: String
    public let stderrPath: String
    public let touchSocketPath: String
    public let pointerSocketPath: String
    public let keyboardSocketPath: String
    public let gestureSocketPath: String
    public let penSocketPath: String
    public let eraserSocketPath: String
    /// Root window size in pixels.
    public let width: Int
    public let height: Int
    public let pid: Int32

    private let process: ChildProcess
    private let watchdog: ChildProcess
    private struct State: ~Copyable {
        var keepAlive: OpaquePointer?
        var devices: [InputTestDevice.Kind: InputTestDevice] = [:]
        var stopped = false
    }
    private let state: Mutex<State>

    /// Starts the server and returns once it accepts X connections. With `screenSize` the dummy
    /// screen runs a single mode of that size (a CVT-style modeline, enough video memory for it);
    /// without it the driver's default 1024x768. `depth` is the screen's colour depth (24, or 16 to try what a
    /// program does on a visual other than 24-bit TrueColor). `disabledExtensions` are turned off (`-extension`),
    /// as a remote display lacks MIT-SHM.
    /// `pen`: also a tablet's pen and its eraser end (`InputTestDevice.Kind.pen`, `.eraser`), for the tests that are
    /// about one.
    public static func start(
        timeout: Duration = .seconds(15), screenSize: (width: Int, height: Int)? = nil, depth: Int = 24,
        disabledExtensions: [String] = [], pen: Bool = false
    ) async throws -> XorgServer {
        let directory = try makeTemporaryDirectory()
        do {
            return try await XorgServer(
                directory: directory, timeout: timeout, screenSize: screenSize, depth: depth,
                disabledExtensions: disabledExtensions, pen: pen)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    private init(
        directory: URL, timeout: Duration, screenSize: (width: Int, height: Int)?, depth: Int,
        disabledExtensions: [String], pen: Bool
    ) async throws {
        self.directory = directory
        configPath = directory.appendingPathComponent("xorg.conf").path
        logPath = directory.appendingPathComponent("Xorg.log").path
        stderrPath = directory.appendingPathComponent("Xorg.stderr").path
        touchSocketPath = directory.appendingPathComponent("touch.sock").path
        pointerSocketPath = directory.appendingPathComponent("pointer.sock").path
        keyboardSocketPath = directory.appendingPathComponent("keyboard.sock").path
        gestureSocketPath = directory.appendingPathComponent("gesture.sock").path
        penSocketPath = directory.appendingPathComponent("pen.sock").path
        eraserSocketPath = directory.appendingPathComponent("eraser.sock").path
        let configDirectory = directory.appendingPathComponent("xorg.conf.d")
        try FileManager.default.createDirectory(at: configDirectory, withIntermediateDirectories: true)
        try Self.config(
            touch: touchSocketPath, pointer: pointerSocketPath, keyboard: keyboardSocketPath,
            gesture: gestureSocketPath, pen: pen ? (penSocketPath, eraserSocketPath) : nil, screenSize: screenSize,
            depth: depth
        )
        .write(toFile: configPath, atomically: true, encoding: .utf8)

        let process = try ChildProcess(
            executable: Self.xorgExecutable(),
            arguments: [
                "-config", configPath, "-configdir", configDirectory.path,
                "-logfile", logPath, "-displayfd", "1",
                "-noreset", "-terminate", "-nolisten", "tcp", "-novtswitch", "-sharevts",
            ] + disabledExtensions.flatMap { ["-extension", $0] },
            environment: ProcessInfo.processInfo.environment, stdout: .capture, stderr: .file(stderrPath))
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

        let logPath = logPath
        let stderrPath = stderrPath
        func failure(_ reason: String) -> StartError {
            Self.disarm(watchdog)
            process.signal(SIGKILL)
            _ = process.waitForExit(timeout: .seconds(5))
            return StartError(
                description: """
                    Xorg did not start: \(reason)
                    --- tail of \(Self.tail(path: logPath, lines: 25))
                    --- tail of \(Self.tail(path: stderrPath, lines: 10))
                    """)
        }

        // -displayfd: the server writes "N\n" once it is ready for clients.
        let number: Int
        do {
            number = try await waitForValue("Xorg to report its display number", timeout: timeout) {
                let text = String(decoding: process.stdout, as: UTF8.self)
                if text.hasSuffix("\n"), let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    return number
                }
                if let exit = process.exit {
                    throw StartError(description: "Xorg \(exit)")
                }
                return nil
            }
        } catch {
            throw failure("\(error)")
        }
        displayNumber = number
        display = ":\(number)"
        trace("Xorg \(display) ready (pid \(process.pid))")

        // The keep-alive connection (see -terminate), also used to learn the screen size.
        guard let connection = TestDisplayConnection.open(display) else {
            throw failure("cannot open display \(display)")
        }
        let screen = XDefaultScreen(connection)
        width = Int(XDisplayWidth(connection, screen))
        height = Int(XDisplayHeight(connection, screen))
        state = Mutex(State(keepAlive: connection))
    }

    deinit {
        stop()
    }

    /// The inputtest device of `kind`, connected on first use. The driver accepts one client per
    /// device for the server's lifetime, so this caches the connection.
    public func device(_ kind: InputTestDevice.Kind) throws -> InputTestDevice {
        try state.withLock { state in
            if let device = state.devices[kind] { return device }
            guard !state.stopped else { throw StartError(description: "the server at \(display) was stopped") }
            let path =
                switch kind {
                case .touch: touchSocketPath
                case .pointer: pointerSocketPath
                case .keyboard: keyboardSocketPath
                case .gesture: gestureSocketPath
                case .pen: penSocketPath
                case .eraser: eraserSocketPath
                }
            let device = try InputTestDevice(kind: kind, socketPath: path, screenWidth: width, screenHeight: height)
            state.devices[kind] = device
            return device
        }
    }

    public var touch: InputTestDevice { get throws { try device(.touch) } }
    public var pointer: InputTestDevice { get throws { try device(.pointer) } }
    public var keyboard: InputTestDevice { get throws { try device(.keyboard) } }
    public var gesture: InputTestDevice { get throws { try device(.gesture) } }
    public var pen: InputTestDevice { get throws { try device(.pen) } }
    public var eraser: InputTestDevice { get throws { try device(.eraser) } }

    public var isRunning: Bool { process.isRunning }

    /// Stops the server (SIGTERM, then SIGKILL after `timeout`), waits for it and removes the
    /// temp dir (kept when E2E_KEEP_TEMP is set). Idempotent.
    public func stop(timeout: Duration = .seconds(5)) {
        guard shutDownHarnessSide() else { return }
        // The watchdog goes first: once it is gone it cannot signal a reused pid.
        Self.disarm(watchdog)
        trace("stopping Xorg \(display)")
        defer { trace("stopped Xorg \(display)") }
        process.stop(timeout: timeout)
        removeTemporaryDirectory()
    }

    /// Kills the server abruptly (SIGKILL), for tests about a dying X server. Also removes the
    /// stale lock file and socket it leaves behind, and the temp dir. Idempotent.
    ///
    /// Close your own X connections to it first (`XI2Listener`, …): Xlib's default I/O error
    /// handler exits the whole test process when a connection's server dies. The harness's
    /// keep-alive connection is closed before the kill for that reason.
    public func kill() {
        guard shutDownHarnessSide() else { return }
        Self.disarm(watchdog)
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: .seconds(5))
        let lockPath = "/tmp/.X\(displayNumber)-lock"
        if let owner = try? String(contentsOfFile: lockPath, encoding: .utf8),
            Int32(owner.trimmingCharacters(in: .whitespacesAndNewlines)) == pid
        {
            try? FileManager.default.removeItem(atPath: lockPath)
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(displayNumber)")
        }
        removeTemporaryDirectory()
    }

    /// The last `lines` lines of the server log.
    public func logTail(lines: Int = 30) -> String {
        Self.tail(path: logPath, lines: lines)
    }

    // MARK: Private

    /// Marks the server stopped, closes devices and the keep-alive connection.
    /// Returns false if it was already stopped.
    private func shutDownHarnessSide() -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.stopped = true
            for device in state.devices.values { device.close() }
            state.devices = [:]
            if let connection = state.keepAlive {
                XCloseDisplay(connection)
                state.keepAlive = nil
            }
            return true
        }
    }

    /// Kills the watchdog shell before it can act, then lets its `cat` see end of file.
    private static func disarm(_ watchdog: ChildProcess) {
        watchdog.signal(SIGKILL)
        _ = watchdog.waitForExit(timeout: .seconds(5))
        watchdog.closeStdin()
    }

    private func removeTemporaryDirectory() {
        if ProcessInfo.processInfo.environment["E2E_KEEP_TEMP"] == nil {
            try? FileManager.default.removeItem(at: directory)
        }
    }

    private static func xorgExecutable() -> String {
        if let path = ProcessInfo.processInfo.environment["XORG_BIN"] { return path }
        // The real server binary; /usr/bin/Xorg may be the Xorg.wrap setuid wrapper.
        for path in ["/usr/lib/xorg/Xorg", "/usr/bin/Xorg"] where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return "/usr/bin/Xorg"
    }

    private static func makeTemporaryDirectory() throws -> URL {
        // Short, so socket paths stay well under sun_path's 108 bytes.
        var template = Array("/tmp/ttx-XXXXXX".utf8CString)
        guard let result = mkdtemp(&template) else {
            throw StartError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        return URL(fileURLWithPath: String(cString: result), isDirectory: true)
    }

    public static func tail(path: String, lines: Int) -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return "\(path): (unreadable)" }
        return "\(path):\n"
            + text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines)
            .joined(separator: "\n")
    }

    private static func config(
        touch: String, pointer: String, keyboard: String, gesture: String, pen: (pen: String, eraser: String)?,
        screenSize: (width: Int, height: Int)?, depth: Int
    ) -> String {
        var videoRam = ""
        var monitor = ""
        // A tablet's pen only where asked for: another pointer device changes what the others' tests see.
        func tool(_ name: String, _ path: String) -> String {
            "Section \"InputDevice\"\n    Identifier \"touchtracker stylus \(name)\"\n    Driver \"inputtest\"\n"
                + "    Option \"SocketPath\" \"\(path)\"\n    Option \"DeviceType\" \"PointerAbsoluteProximity\"\n"
                + "    Option \"PointerHasPressure\" \"true\"\nEndSection\n\n"
        }
        let penSection = pen.map { tool("pen", $0.pen) + tool("eraser", $0.eraser) } ?? ""
        let penLayout =
            pen == nil
            ? ""
            : "    InputDevice \"touchtracker stylus pen\" \"SendCoreEvents\"\n"
                + "    InputDevice \"touchtracker stylus eraser\" \"SendCoreEvents\""
        var screen = "        DefaultDepth \(depth)\n"
        if let size = screenSize {
            // A mode with blanking intervals in the proportions of 1920x1080@60 (148.5 MHz), scaled.
            let (w, h) = (size.width, size.height)
            let clock = Double((w + w / 7) * (h + h / 24)) * 60 / 1e6
            let modeline =
                "\(w) \(w + w / 24) \(w + w / 16) \(w + w / 7) \(h) \(h + 4) \(h + 9) \(h + h / 24)"
            videoRam = "    VideoRam \(max(4096, w * h * 4 / 1024 * 2))\n"
            monitor = """
                Section "Monitor"
                    Identifier "monitor"
                    HorizSync 5.0-1000.0
                    VertRefresh 5.0-200.0
                    Modeline "\(w)x\(h)" \(String(format: "%.2f", clock)) \(modeline) +hsync +vsync
                EndSection


                """
            screen = """
                    Monitor "monitor"
                    DefaultDepth \(depth)
                    SubSection "Display"
                        Depth \(depth)
                        Modes "\(w)x\(h)"
                        Virtual \(w) \(h)
                    EndSubSection

                """
        }
        return """
            Section "ServerFlags"
                Option "AutoAddDevices" "false"
                Option "AutoEnableDevices" "false"
            EndSection

            Section "Device"
                Identifier "dummy-video"
                Driver "dummy"
            \(videoRam)EndSection

            \(monitor)Section "Screen"
                Identifier "screen"
                Device "dummy-video"
            \(screen)EndSection

            Section "InputDevice"
                Identifier "touch"
                Driver "inputtest"
                Option "SocketPath" "\(touch)"
                Option "DeviceType" "Touch"
                Option "TouchCount" "10"
            EndSection

            Section "InputDevice"
                Identifier "pointer"
                Driver "inputtest"
                Option "SocketPath" "\(pointer)"
                Option "DeviceType" "PointerAbsolute"
            EndSection

            Section "InputDevice"
                Identifier "keyboard"
                Driver "inputtest"
                Option "SocketPath" "\(keyboard)"
                Option "DeviceType" "Keyboard"
            EndSection

            Section "InputDevice"
                Identifier "gesture"
                Driver "inputtest"
                Option "SocketPath" "\(gesture)"
                Option "DeviceType" "PointerGesture"
            EndSection

            \(penSection)Section "ServerLayout"
                Identifier "layout"
                Screen "screen"
                InputDevice "touch"
                InputDevice "pointer" "CorePointer"
                InputDevice "keyboard" "CoreKeyboard"
                InputDevice "gesture" "SendCoreEvents"
            \(penLayout)
            EndSection

            """
    }
}
