import Foundation
import Subprocess
import Synchronization
import SystemPackage

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with swift-subprocess, which spawns it with an EMPTY signal mask and default signal
/// dispositions (Foundation's `Process` passes on the spawning thread's mask, and the test runner's threads block
/// SIGTERM, so children started with it ignore `kill -TERM`) and closes every descriptor of ours but 0, 1 and 2 in
/// it (X connections, other tests' pipes).
///
/// Standard input is /dev/null or a pipe we hold the write end of; standard output and error are captured, sent to a
/// file, or discarded.
///
/// Subprocess runs a child inside one async `run` call that returns once the child has exited and been reaped. This
/// class keeps the synchronous interface its callers poll: `init` returns once the child is spawned (with its pid),
/// the captured streams fill while it runs, `exit` turns non-nil once it has exited, and `signal` reaches it through
/// the running `Execution`. The `run` call goes on on `ChildProcessExecutor`'s own thread, not on the shared
/// cooperative pool, whose threads the callers block in `waitForExit` and `stop` (sync, in `defer`s) while they wait
/// for it; the only hand-written parts left are that executor and the wait for the exit (`waitUntilExited`).
public final class ChildProcess: Sendable {
    public enum Output: Sendable {
        case capture
        case file(String)
        case discard
    }

    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        /// The shell's `$?`: the exit status, or 128 + signal.
        public var status: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let signal): "killed by signal \(signal)"
            }
        }
    }

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    public let pid: pid_t
    /// The write end of the child's stdin pipe (`stdinPipe: true`), nil once closed.
    private let stdinWriteEnd: Mutex<FileDescriptor?>
    public let executable: String
    public let arguments: [String]

    private let stdoutBuffer: CapturedStream
    private let stderrBuffer: CapturedStream
    private let supervision: Supervision

    /// `argumentBytes`, when given, are passed instead of `arguments`, byte for byte (file names that are not
    /// UTF-8); `workingDirectory` is the child's current folder (nil: this process's).
    public init(
        executable: String, arguments: [String], argumentBytes: [[UInt8]]? = nil, environment: [String: String],
        workingDirectory: String? = nil, stdin stdinPipe: Bool = false, stdout: Output = .capture,
        stderr: Output = .capture
    ) throws {
        self.executable = executable
        self.arguments = arguments
        let (stdoutBuffer, stderrBuffer, supervision) = (CapturedStream(), CapturedStream(), Supervision())
        (self.stdoutBuffer, self.stderrBuffer, self.supervision) = (stdoutBuffer, stderrBuffer, supervision)

        // Subprocess gives the child its standard input from a descriptor of ours (and closes our copy once the child
        // is spawned); the pipe's write end stays here, so `closeStdin()` (or this process's death, for the Xorg
        // watchdog) is what the child reads as end of file. Subprocess's own `.inputWriter` input would close it when
        // `run`'s body returns, and that body must run until the child exits.
        let stdinReadEnd: FileDescriptor
        var stdinWriteEnd: FileDescriptor?
        do {
            if stdinPipe {
                (stdinReadEnd, stdinWriteEnd) = try FileDescriptor.pipe(options: .closeOnExec)
            } else {
                stdinReadEnd = try FileDescriptor.open("/dev/null", .readOnly, options: .closeOnExec)
            }
        } catch {
            throw SpawnError(description: "standard input for \(executable): \(error)")
        }
        self.stdinWriteEnd = Mutex(stdinWriteEnd)
        let configuration = Configuration(
            executable: .path(FilePath(executable)),
            // Subprocess 1.0.2 copies raw byte arguments with strdup, which needs a terminating 0.
            arguments: argumentBytes.map { Arguments($0.map { $0 + [0] }) } ?? Arguments(arguments),
            // By name (Subprocess 1.0.2 copies `.custom([[UInt8]])` entries with strdup, which needs a terminating 0).
            environment: .custom(
                Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) })
            ),
            workingDirectory: workingDirectory.map { FilePath($0) })
        let input = FileDescriptorInput.fileDescriptor(stdinReadEnd, closeAfterSpawningProcess: true)

        func file(_ path: String) throws -> FileDescriptorOutput {
            let descriptor = try FileDescriptor.open(
                FilePath(path), .writeOnly, options: [.create, .append, .closeOnExec],
                permissions: [
                    .ownerReadWrite, .groupRead, .otherRead,
                ])
            return .fileDescriptor(descriptor, closeAfterSpawningProcess: true)
        }
        // Subprocess picks how to route a stream by the static type of its output: one `start` per pair.
        func start<Out: OutputProtocol>(_ output: Out) throws {
            switch stderr {
            case .capture: start(output, error: SequenceOutput.sequence)
            case .discard: start(output, error: DiscardedOutput.discarded)
            case .file(let path): start(output, error: try file(path))
            }
        }
        func start<Out: OutputProtocol, Err: ErrorOutputProtocol>(_ output: Out, error: Err) {
            Self.supervise(
                configuration, input: input, output: output, error: error, stdout: stdoutBuffer,
                stderr: stderrBuffer, supervision: supervision)
        }
        do {
            if case .capture = stdout {} else { stdoutBuffer.markClosed() }
            if case .capture = stderr {} else { stderrBuffer.markClosed() }
            switch stdout {
            case .capture: try start(SequenceOutput.sequence)
            case .discard: try start(DiscardedOutput.discarded)
            case .file(let path): try start(try file(path))
            }
            pid = try supervision.waitUntilSpawned()
        } catch {
            try? stdinWriteEnd?.close()
            throw SpawnError(description: "spawning \(executable): \(error)")
        }
    }

    deinit {
        if supervision.termination == nil {
            supervision.send(SIGKILL)
            _ = waitForExit(timeout: .seconds(5))
        }
        closeStdin()
    }

    /// Runs the child to its end on `ChildProcessExecutor`: hands its pid and a way to signal it to `supervision`,
    /// drains the captured streams into their buffers, and records how it ended.
    private static func supervise<Out: OutputProtocol, Err: ErrorOutputProtocol>(
        _ configuration: Configuration, input: FileDescriptorInput, output: Out, error: Err,
        stdout: CapturedStream, stderr: CapturedStream, supervision: Supervision
    ) {
        Task.detached(executorPreference: ChildProcessExecutor.shared) {
            do {
                let result = try await Subprocess.run(configuration, input: input, output: output, error: error) {
                    execution in
                    supervision.spawned(execution.processIdentifier.value) { signal in
                        try? execution.send(signal: Signal(rawValue: signal))
                    }
                    // The streams exist only for the `.sequence` outputs (`.capture`).
                    let standardOutput =
                        (execution as Any as? Execution<FileDescriptorInput, SequenceOutput, Err>)?.standardOutput
                    let standardError =
                        (execution as Any as? Execution<FileDescriptorInput, Out, SequenceOutput>)?.standardError
                    async let drainedOutput: Void = stdout.drain(standardOutput)
                    async let drainedError: Void = stderr.drain(standardError)
                    // The body must last as long as the child: `execution` (and the pidfd `send` uses) is valid only
                    // until it returns. Subprocess has no call that waits for the exit inside the body, so wait here.
                    await waitUntilExited(execution.processIdentifier.value, supervision: supervision)
                    _ = await (drainedOutput, drainedError)
                }
                // Normally recorded already, by `waitUntilExited`.
                switch result.terminationStatus {
                case .exited(let status): supervision.finished(.exited(status))
                case .signaled(let signal): supervision.finished(.signaled(signal))
                }
            } catch {
                supervision.failed(error)
            }
        }
    }

    /// Returns once the child `pid` has exited, having recorded how it ended in `supervision`, without reaping it
    /// (Subprocess reaps it after `run`'s body returns, so the pid stays this child's until then): a blocking
    /// `waitid(WNOWAIT)` on a thread of its own.
    ///
    /// `exit` is set here rather than from `run`'s result because the rest of `run` (ending its cleanup task, which
    /// sleeps with `Task.sleep`) needs a thread of the cooperative pool, and the callers may hold every one of those
    /// in a synchronous `waitForExit` or `stop` until the exit is seen.
    private static func waitUntilExited(_ pid: pid_t, supervision: Supervision) async {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var info = siginfo_t()
                var result: Int32
                repeat {
                    result = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
                } while result < 0 && errno == EINTR
                if result == 0 {
                    // `si_status` lives in glibc's `_sifields` union (a C field; the si_status macro is not imported).
                    let status = info._sifields._sigchld.si_status
                    supervision.finished(info.si_code == CLD_EXITED ? .exited(status) : .signaled(status))
                }
                continuation.resume()
            }
        }
    }

    /// Closes our end of the child's stdin pipe: the child reads end of file.
    public func closeStdin() {
        stdinWriteEnd.withLock { descriptor in
            try? descriptor?.close()
            descriptor = nil
        }
    }

    public var stdout: Data { stdoutBuffer.data }

    /// Standard error from byte `offset` on, so a reader polling a long run copies only what is new.
    public func stderrBytes(from offset: Int) -> [UInt8] { stderrBuffer.bytes(from: offset) }
    public var stderr: Data { stderrBuffer.data }
    /// Whether both captured streams reached end of file (always true for uncaptured ones).
    public var outputClosed: Bool { stdoutBuffer.isClosed && stderrBuffer.isClosed }

    /// How the child ended, or nil while it runs.
    public var exit: Termination? { supervision.termination }

    public var isRunning: Bool { exit == nil }

    public func signal(_ signal: Int32) {
        supervision.send(signal)
    }

    /// Blocks (polling every 5 ms) until the child exits or `timeout` passes.
    public func waitForExit(timeout: Duration) -> Termination? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if let exit { return exit }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// SIGTERM, then SIGKILL after `timeout`; returns how it ended.
    @discardableResult
    public func stop(timeout: Duration = .seconds(5)) -> Termination? {
        signal(SIGTERM)
        if let exit = waitForExit(timeout: timeout) { return exit }
        signal(SIGKILL)
        return waitForExit(timeout: timeout)
    }
}

/// What the task running one child shares with its `ChildProcess`: the outcome of the spawn (which `init` waits for),
/// a way to signal the child until it has exited, and how it ended.
private final class Supervision: Sendable {
    private struct State {
        var spawn: Result<pid_t, any Error>?
        var signal: (@Sendable (Int32) -> Void)?
        var termination: ChildProcess.Termination?
    }
    private let state = Mutex(State())
    private let spawnSettled = DispatchSemaphore(value: 0)

    func spawned(_ pid: pid_t, signal: @escaping @Sendable (Int32) -> Void) {
        state.withLock {
            $0.spawn = .success(pid)
            $0.signal = signal
        }
        spawnSettled.signal()
    }

    /// The child's pid, once it runs; throws what Subprocess threw if it could not start it.
    func waitUntilSpawned() throws -> pid_t {
        spawnSettled.wait()
        spawnSettled.signal()
        return try state.withLock { $0.spawn! }.get()
    }

    /// Sends `signal` to the child if it has not exited yet.
    func send(_ signal: Int32) {
        state.withLock { $0.signal?(signal) }
    }

    /// Records how the child ended (the first report stands): no more signals.
    func finished(_ termination: ChildProcess.Termination) {
        state.withLock {
            $0.signal = nil
            if $0.termination == nil { $0.termination = termination }
        }
    }

    func failed(_ error: any Error) {
        let wasSpawned = state.withLock { state in
            state.signal = nil
            if state.spawn == nil {
                state.spawn = .failure(error)
                return false
            }
            return true
        }
        if wasSpawned {
            // Subprocess lost track of a running child (it could not monitor or reap it): there is no exit to report.
            FileHandle.standardError.write(Data("ChildProcess: \(error)\n".utf8))
        } else {
            spawnSettled.signal()
        }
    }

    var termination: ChildProcess.Termination? { state.withLock { $0.termination } }
}

/// Bytes read from one of the child's output streams until end of file.
private final class CapturedStream: Sendable {
    private let state = Mutex<(data: Data, closed: Bool)>((Data(), false))

    var data: Data { state.withLock { $0.data } }
    var isClosed: Bool { state.withLock { $0.closed } }

    /// The bytes from `offset` on (a reader that keeps its place copies only what is new).
    func bytes(from offset: Int) -> [UInt8] {
        state.withLock { state in
            guard offset < state.data.count else { return [] }
            return [UInt8](state.data[(state.data.startIndex + offset)...])
        }
    }

    func markClosed() {
        state.withLock { $0.closed = true }
    }

    /// Appends everything `sequence` yields (nothing if the stream is not captured), then marks the stream closed.
    func drain(_ sequence: SubprocessOutputSequence?) async {
        if let sequence {
            do {
                for try await buffer in sequence {
                    buffer.withUnsafeBytes { bytes in state.withLock { $0.data.append(contentsOf: bytes) } }
                }
            } catch {
                // A read error ends the stream like end of file does.
            }
        }
        markClosed()
    }
}

/// One thread that runs every child's Subprocess task (the spawn, the stream reads, the wait for its end): work that
/// must go on while callers block threads of the cooperative pool polling for it.
private final class ChildProcessExecutor: TaskExecutor {
    static let shared = ChildProcessExecutor()

    private let jobs = Mutex<[UnownedJob]>([])
    private let available = DispatchSemaphore(value: 0)

    private init() {
        Thread.detachNewThread { [self] in
            while true {
                available.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        available.signal()
    }
}
