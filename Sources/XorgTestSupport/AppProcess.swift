import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The real `touchtracker` executable running as a child process, with stdout and stderr
/// captured. It is killed on `deinit` if still running.
public final class AppProcess: Sendable {
    public struct AppError: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    public let executable: URL
    public let arguments: [String]
    public var pid: Int32 { process.pid }
    private let process: ChildProcess
    /// The home the app was given when the test named none (`PrivateHome`), removed with this process. Declared
    /// after `process`, so the app is killed (ChildProcess's deinit) before its home is removed.
    public let privateHome: PrivateHome?

    /// Launches `touchtracker` with `arguments`. The environment is this process's, with
    /// `environment` applied on top; a nil value removes a variable (e.g. `["DISPLAY": nil]`). Unless `environment`
    /// names them, `HOME` and `XDG_DATA_HOME` are a private folder of this process's (`PrivateHome`), so the app
    /// never writes into the real user's home (its recent files, an untitled drawing).
    /// `argumentBytes`, when given, replace `arguments` byte for byte (file names that are not UTF-8;
    /// `arguments` then only names them in logs); `workingDirectory` is the app's current folder.
    public init(
        arguments: [String], argumentBytes: [[UInt8]]? = nil, environment: [String: String?] = [:],
        workingDirectory: String? = nil
    ) throws {
        executable = try Self.locateExecutable()
        self.arguments = arguments
        let (environment, home) = try PrivateHome.applying(to: environment)
        privateHome = home
        var fullEnvironment = ProcessInfo.processInfo.environment
        for (name, value) in environment { fullEnvironment[name] = value }
        process = try ChildProcess(
            executable: executable.path, arguments: arguments, argumentBytes: argumentBytes,
            environment: fullEnvironment, workingDirectory: workingDirectory)
        trace("launched touchtracker \(process.pid): \(arguments.joined(separator: " "))")
    }

    /// Convenience: `touchtracker --document … --geometry WxH+X+Y --verbose` on X display `display` (with
    /// `WAYLAND_DISPLAY` unset), with `environment` applied on top of this process's as well.
    public convenience init(
        display: String, document: URL, geometry: (width: Int, height: Int, x: Int, y: Int),
        verbose: Bool = true, extraArguments: [String] = [], environment: [String: String?] = [:]
    ) throws {
        var arguments = [
            "--document", document.path,
            "--geometry", "\(geometry.width)x\(geometry.height)+\(geometry.x)+\(geometry.y)",
        ]
        if verbose { arguments.append("--verbose") }
        try self.init(
            arguments: arguments + extraArguments,
            // The X11 window, even when the tests run inside a Wayland session.
            environment: environment.merging(["DISPLAY": display, "WAYLAND_DISPLAY": nil]) { $1 })
    }

    public var stdout: String { String(decoding: process.stdout, as: UTF8.self) }
    public var stderr: String { String(decoding: process.stderr, as: UTF8.self) }
    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    /// Standard error from byte `offset` on (for readers that poll a long run: only the new bytes are copied).
    public func stderrBytes(from offset: Int) -> [UInt8] { process.stderrBytes(from: offset) }
    public var isRunning: Bool { process.isRunning }
    /// How it ended, or nil while it runs.
    public var exit: ChildProcess.Termination? { process.exit }

    /// Waits for a stderr line containing `text` and returns it. Fails early (with the
    /// captured output) if the app exits first.
    @discardableResult
    public func waitForStderrLine(containing text: String, timeout: Duration = .seconds(10)) async throws -> String {
        do {
            return try await waitForValue("a stderr line containing \"\(text)\"", timeout: timeout) {
                if let line = stderrLines.first(where: { $0.contains(text) }) { return line }
                // After exit, keep looking until the pipes are drained.
                if let exit = process.exit, process.outputClosed {
                    throw AppError(description: "touchtracker \(exit)")
                }
                return nil
            }
        } catch {
            throw AppError(description: "\(error) while waiting for \"\(text)\"\n\(transcript)")
        }
    }

    /// Waits for the app to exit (and its output to be complete); returns its exit status,
    /// 128 + signal if a signal killed it.
    @discardableResult
    public func waitForExit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        let termination: ChildProcess.Termination
        do {
            termination = try await waitForValue("touchtracker to exit", timeout: timeout) { process.exit }
        } catch {
            throw AppError(description: "\(error)\n\(transcript)")
        }
        // Its output is read on threads of the harness's own, which a machine busy with the other suites can hold
        // up for more than a second after the exit: an early look would find the last lines missing.
        try? await waitUntil("touchtracker's output to drain", timeout: .seconds(10)) { process.outputClosed }
        return termination.status
    }

    /// SIGTERM, then SIGKILL if it has not exited after `timeout`; returns the exit status.
    @discardableResult
    public func terminate(timeout: Duration = .seconds(5)) async throws -> Int32 {
        process.signal(SIGTERM)
        do {
            return try await waitForExit(timeout: timeout)
        } catch {
            process.signal(SIGKILL)
            return try await waitForExit(timeout: .seconds(5))
        }
    }

    /// Synchronous SIGTERM-then-SIGKILL for `defer` blocks; does nothing if it already exited.
    public func stop(timeout: Duration = .seconds(5)) {
        guard process.isRunning else { return }
        trace("stopping touchtracker \(pid)")
        let termination = process.stop(timeout: timeout)
        trace("touchtracker \(pid) \(termination.map(\.description) ?? "did not exit")")
    }

    /// SIGKILL; returns the exit status.
    @discardableResult
    public func kill() async throws -> Int32 {
        process.signal(SIGKILL)
        return try await waitForExit(timeout: .seconds(5))
    }

    /// Command, status and captured output, for failure messages.
    public var transcript: String {
        """
        $ \(executable.path) \(arguments.joined(separator: " "))  [\(process.exit.map(\.description) ?? "running")]
        --- stderr:
        \(stderr)
        --- stdout:
        \(stdout)
        """
    }

    /// `TOUCHTRACKER_BIN`, else `touchtracker` next to the running executable: the test bundle or
    /// `touchtracker-bench` (SwiftPM puts them all in `.build/<triple>/<configuration>/`).
    public static func locateExecutable() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["TOUCHTRACKER_BIN"] {
            return URL(fileURLWithPath: path)
        }
        let running = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var candidates: [URL] = []
        var directory = running.deletingLastPathComponent()
        // Walk up out of a bundle such as `TouchTrackerPackageTests.xctest/…` if there is one.
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("touchtracker"))
            directory = directory.deletingLastPathComponent()
        }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw AppError(
            description: """
                touchtracker not found (looked at \(candidates.map(\.path).joined(separator: ", "))); \
                run `swift build` first or set TOUCHTRACKER_BIN
                """)
    }
}
