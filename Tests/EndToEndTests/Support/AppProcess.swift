import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The real `touchtracker` executable running as a child process, with stdout and stderr
/// captured. It is terminated on `deinit` if still running.
final class AppProcess: Sendable {
    struct AppError: Error, CustomStringConvertible {
        let description: String
    }

    let executable: URL
    let arguments: [String]
    let pid: Int32

    private let process: Process
    private let output = Output()
    private final class Output: Sendable {
        let stdout = Mutex(Data())
        let stderr = Mutex(Data())
        /// How many of the two pipes reached end of file.
        let closedPipes = Mutex(0)
    }

    /// Launches `touchtracker` with `arguments`. The environment is this process's, with
    /// `environment` applied on top; a nil value removes a variable (e.g. `["DISPLAY": nil]`).
    init(arguments: [String], environment: [String: String?] = [:]) throws {
        executable = try Self.locateExecutable()
        self.arguments = arguments
        var fullEnvironment = ProcessInfo.processInfo.environment
        for (name, value) in environment { fullEnvironment[name] = value }

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = fullEnvironment
        process.standardInput = FileHandle.nullDevice
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        let output = output
        stdoutPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                output.closedPipes.withLock { $0 += 1 }
            } else {
                output.stdout.withLock { $0.append(data) }
            }
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty {
                handle.readabilityHandler = nil
                output.closedPipes.withLock { $0 += 1 }
            } else {
                output.stderr.withLock { $0.append(data) }
            }
        }
        try process.run()
        self.process = process
        pid = process.processIdentifier
    }

    /// Convenience: `touchtracker --document … --geometry WxH+X+Y --verbose` on `display`.
    convenience init(
        display: String, document: URL, geometry: (width: Int, height: Int, x: Int, y: Int),
        verbose: Bool = true, extraArguments: [String] = []
    ) throws {
        var arguments = [
            "--document", document.path,
            "--geometry", "\(geometry.width)x\(geometry.height)+\(geometry.x)+\(geometry.y)",
        ]
        if verbose { arguments.append("--verbose") }
        try self.init(arguments: arguments + extraArguments, environment: ["DISPLAY": display])
    }

    deinit {
        if process.isRunning {
            Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    var stdout: String { output.stdout.withLock { String(decoding: $0, as: UTF8.self) } }
    var stderr: String { output.stderr.withLock { String(decoding: $0, as: UTF8.self) } }
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
    var isRunning: Bool { process.isRunning }

    /// Waits for a stderr line containing `text` and returns it. Fails early (with the
    /// captured output) if the app exits first.
    @discardableResult
    func waitForStderrLine(containing text: String, timeout: Duration = .seconds(10)) async throws -> String {
        do {
            return try await waitForValue("a stderr line containing \"\(text)\"", timeout: timeout) {
                if let line = stderrLines.first(where: { $0.contains(text) }) { return line }
                // After exit, keep looking until the pipes are drained.
                if !process.isRunning && outputClosed {
                    throw AppError(description: "touchtracker exited with status \(process.terminationStatus)")
                }
                return nil
            }
        } catch {
            throw AppError(description: "\(error) while waiting for \"\(text)\"\n\(transcript)")
        }
    }

    /// Waits for the app to exit and returns its exit status (or 128 + signal if killed).
    @discardableResult
    func waitForExit(timeout: Duration = .seconds(10)) async throws -> Int32 {
        do {
            try await waitUntil("touchtracker to exit", timeout: timeout) { !process.isRunning }
        } catch {
            throw AppError(description: "\(error)\n\(transcript)")
        }
        // Let the pipes drain so stderr is complete.
        try? await waitUntil("output to drain", timeout: .milliseconds(500)) { outputClosed }
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// SIGTERM, then SIGKILL if it has not exited after `timeout`; returns the exit status.
    @discardableResult
    func terminate(timeout: Duration = .seconds(5)) async throws -> Int32 {
        if process.isRunning { Glibc.kill(pid, SIGTERM) }
        do {
            return try await waitForExit(timeout: timeout)
        } catch {
            return try await kill()
        }
    }

    /// Synchronous SIGTERM-then-SIGKILL for `defer` blocks; does nothing if it already exited.
    func stop(timeout: Duration = .seconds(5)) {
        guard process.isRunning else { return }
        Glibc.kill(pid, SIGTERM)
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
        if process.isRunning {
            Glibc.kill(pid, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// SIGKILL; returns the exit status.
    @discardableResult
    func kill() async throws -> Int32 {
        if process.isRunning { Glibc.kill(pid, SIGKILL) }
        return try await waitForExit(timeout: .seconds(5))
    }

    /// Command, status and captured output, for failure messages.
    var transcript: String {
        let status = process.isRunning ? "running" : "exited \(process.terminationStatus)"
        return """
            $ \(executable.path) \(arguments.joined(separator: " "))  [\(status)]
            --- stderr:
            \(stderr)
            --- stdout:
            \(stdout)
            """
    }

    private var outputClosed: Bool { output.closedPipes.withLock { $0 == 2 } }

    /// `TOUCHTRACKER_BIN`, else `touchtracker` next to the running test executable (SwiftPM puts
    /// both in `.build/<triple>/<configuration>/`).
    static func locateExecutable() throws -> URL {
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
