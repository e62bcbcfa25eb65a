import Foundation
import XorgTestSupport

/// The tests' Wayland drag source (`DragSource/touchtracker-drag-source.c`), built once a test process with the
/// system's compiler against libwayland-client and the xdg-shell code wayland-scanner makes from wayland-protocols'
/// XML (as weston's own clients are), then run as a client of a `WestonServer`: it shows a window, starts a drag of
/// a `text/uri-list` when the pointer presses on it, and steps aside so the drag goes on over the window beneath.
public enum DragSource {
    static let sourcePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("DragSource/touchtracker-drag-source.c").path

    /// The built client, or why it could not be built.
    public static let executable: Result<String, WestonServer.StartError> = {
        do {
            return .success(try build())
        } catch let error as WestonServer.StartError {
            return .failure(error)
        } catch {
            return .failure(WestonServer.StartError(description: "building the drag source: \(error)"))
        }
    }()

    /// Starts the drag source on `server`, offering `uriList`; its stdout says what happened, a word a line.
    public static func start(on server: WestonServer, uriList: String) throws -> ChildProcess {
        try ChildProcess(
            executable: try executable.get(), arguments: [uriList], environment: server.clientEnvironment)
    }

    private static func build() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "touchtracker-drag-source-\(getpid())"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let protocols = try run("/usr/bin/pkg-config", ["--variable=pkgdatadir", "wayland-protocols"])
        let xml = protocols.trimmingCharacters(in: .whitespacesAndNewlines) + "/stable/xdg-shell/xdg-shell.xml"
        _ = try run("/usr/bin/wayland-scanner", ["client-header", xml, folder + "/xdg-shell-client-protocol.h"])
        _ = try run("/usr/bin/wayland-scanner", ["private-code", xml, folder + "/xdg-shell-protocol.c"])
        let client = folder + "/touchtracker-drag-source"
        // -Werror: the client is ours and small; a warning here is a bug.
        _ = try run(
            "/usr/bin/cc",
            [
                "-Wall", "-Wextra", "-Werror", "-I", folder, "-o", client, sourcePath, folder + "/xdg-shell-protocol.c",
                "-lwayland-client",
            ])
        return client
    }

    /// Runs a build tool to its end and returns its standard output; throws with its output if it fails.
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment)
        let exit = process.waitForExit(timeout: .seconds(120))
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !process.outputClosed && ContinuousClock.now < deadline { usleep(1_000) }
        guard exit == .exited(0) else {
            throw WestonServer.StartError(
                description: """
                    building the drag source: \(executable) \(arguments.joined(separator: " ")) \
                    \(exit.map(\.description) ?? "did not finish")
                    \(String(decoding: process.stdout, as: UTF8.self))\(String(decoding: process.stderr, as: UTF8.self))
                    """)
        }
        return String(decoding: process.stdout, as: UTF8.self)
    }
}
