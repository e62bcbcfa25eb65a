import Foundation
import XorgTestSupport

/// The app installed as a desktop sees it: `make install` into a staging folder (with the MIME database and the
/// desktop entries' cache made there, as the package's triggers make them), and the environment of a desktop user
/// whose data folders include it — the MIME type, the desktop entry and the thumbnailer found the way GLib, xdg-utils
/// and Tumbler find them — with a private session bus. Stop it with `stop()`.
struct InstalledDesktop {
    let root: URL
    /// `PREFIX/share` of the staged installation.
    let share: URL
    let environment: [String: String]
    private let bus: ChildProcess

    static func make() throws -> InstalledDesktop {
        let root = try makeTemporaryFolder("touchtracker-desktop")
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let binary = try AppProcess.locateExecutable()
        let stage = root.appendingPathComponent("stage")
        let install = try runProgram(
            "/usr/bin/make",
            [
                "-C", packageRoot.path, "--no-print-directory", "DESTDIR=\(stage.path)", "PREFIX=/usr",
                "BIN=\(binary.path)", "install",
            ])
        guard install.status == 0 else { throw Failure(description: "make install: \(install.output)") }
        let share = stage.appendingPathComponent("usr/share")
        for (tool, folder) in [
            ("/usr/bin/update-mime-database", "mime"), ("/usr/bin/update-desktop-database", "applications"),
        ] {
            let result = try runProgram(tool, [share.appendingPathComponent(folder).path])
            guard result.status == 0 else { throw Failure(description: "\(tool): \(result.output)") }
        }
        let runtime = root.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        for folder in ["home", "cache", "data", "config"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let busAddress = "unix:path=\(runtime.path)/bus"
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DBUS_SESSION_BUS_ADDRESS"] {
            environment[name] = nil
        }
        environment["HOME"] = root.appendingPathComponent("home").path
        environment["XDG_CACHE_HOME"] = root.appendingPathComponent("cache").path
        environment["XDG_DATA_HOME"] = root.appendingPathComponent("data").path
        environment["XDG_CONFIG_HOME"] = root.appendingPathComponent("config").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["XDG_DATA_DIRS"] = share.path + ":/usr/share"
        environment["PATH"] = stage.appendingPathComponent("usr/bin").path + ":/usr/bin:/bin"
        environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
        let bus = try ChildProcess(
            executable: "/usr/bin/dbus-daemon", arguments: ["--session", "--nofork", "--address=\(busAddress)"],
            environment: environment, stdout: .discard, stderr: .discard)
        let desktop = InstalledDesktop(root: root, share: share, environment: environment, bus: bus)
        let deadline = ContinuousClock.now + .seconds(10)
        while !UnixSocket.accepts(runtime.path + "/bus") {
            guard ContinuousClock.now < deadline, bus.isRunning else {
                desktop.stop()
                throw Failure(description: "the session bus did not start")
            }
            usleep(20_000)
        }
        return desktop
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `tool` with `arguments` in this desktop's environment (with `extra` on top).
    func run(_ tool: String, _ arguments: [String], extra: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        try runProgram(tool, arguments, environment: environment.merging(extra) { $1 })
    }

    /// Runs `tool` the way a launcher does, for a program that starts another and returns (`gio open`): its output
    /// goes nowhere (the program it starts would hold a pipe open for as long as it runs), and its exit status comes
    /// back once it has exited.
    func launch(_ tool: String, _ arguments: [String], extra: [String: String] = [:]) throws -> Int32? {
        let process = try ChildProcess(
            executable: tool, arguments: arguments, environment: environment.merging(extra) { $1 }, stdout: .discard,
            stderr: .discard)
        return process.waitForExit(timeout: .seconds(20))?.status
    }

    func stop() {
        _ = bus.stop()
        try? FileManager.default.removeItem(at: root)
    }
}
