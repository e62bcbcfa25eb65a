import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `posix_spawn`, with an EMPTY signal mask and default signal
/// dispositions. (Foundation's `Process` passes on the spawning thread's mask, and the test
/// runner's threads block SIGTERM, so children started with it ignore `kill -TERM`.)
///
/// Standard input is /dev/null or a pipe we hold the write end of; standard output and error are captured, sent to a file, or
/// discarded. The child gets no other file descriptor of ours.
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
    /// The write end of the child's stdin pipe (`stdinPipe: true`), -1 once closed.
    private let stdinWriteEnd: Mutex<Int32>
    public let executable: String
    public let arguments: [String]

    private let stdoutBuffer = CapturedStream()
    private let stderrBuffer = CapturedStream()
    private let termination = Mutex<Termination?>(nil)

    public init(
        executable: String, arguments: [String], environment: [String: String],
        stdin stdinPipe: Bool = false, stdout: Output = .capture, stderr: Output = .capture
    ) throws {
        self.executable = executable
        self.arguments = arguments

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var parentEnds: [(fd: Int32, buffer: CapturedStream)] = []
        var childEnds: [Int32] = []
        defer { for fd in childEnds { _ = close(fd) } }
        var stdinWriteEnd: Int32 = -1
        if stdinPipe {
            var fds: [Int32] = [-1, -1]
            guard GlibcExtras.pipe2(&fds, O_CLOEXEC) == 0 else {
                throw SpawnError(description: "pipe2: \(String(cString: strerror(errno)))")
            }
            childEnds.append(fds[0])
            stdinWriteEnd = fds[1]
            posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        func route(_ output: Output, to target: Int32, buffer: CapturedStream) throws {
            switch output {
            case .discard:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
                buffer.markClosed()
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
                buffer.markClosed()
            case .capture:
                var fds: [Int32] = [-1, -1]
                guard GlibcExtras.pipe2(&fds, O_CLOEXEC) == 0 else {
                    throw SpawnError(description: "pipe2: \(String(cString: strerror(errno)))")
                }
                parentEnds.append((fds[0], buffer))
                childEnds.append(fds[1])
                posix_spawn_file_actions_adddup2(&actions, fds[1], target)
            }
        }
        do {
            try route(stdout, to: 1, buffer: stdoutBuffer)
            try route(stderr, to: 2, buffer: stderrBuffer)
        } catch {
            for end in parentEnds { _ = close(end.fd) }
            if stdinWriteEnd >= 0 { _ = close(stdinWriteEnd) }
            throw error
        }
        // Keep every other descriptor of this process (X connections, other tests' pipes) out of the child.
        _ = GlibcExtras.addCloseFrom(&actions, 3)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            for end in parentEnds { _ = close(end.fd) }
            if stdinWriteEnd >= 0 { _ = close(stdinWriteEnd) }
            throw SpawnError(description: "posix_spawn \(executable): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        self.stdinWriteEnd = Mutex(stdinWriteEnd)
        for end in parentEnds {
            let (fd, buffer) = end
            Thread.detachNewThread { buffer.drain(fd) }
        }
    }

    deinit {
        if termination.withLock({ $0 == nil }) {
            Glibc.kill(pid, SIGKILL)
            _ = waitForExit(timeout: .seconds(5))
        }
        closeStdin()
    }

    /// Closes our end of the child's stdin pipe: the child reads end of file.
    public func closeStdin() {
        stdinWriteEnd.withLock { fd in
            if fd >= 0 {
                _ = close(fd)
                fd = -1
            }
        }
    }

    public var stdout: Data { stdoutBuffer.data }

    /// Standard error from byte `offset` on, so a reader polling a long run copies only what is new.
    public func stderrBytes(from offset: Int) -> [UInt8] { stderrBuffer.bytes(from: offset) }
    public var stderr: Data { stderrBuffer.data }
    /// Whether both captured streams reached end of file (always true for uncaptured ones).
    public var outputClosed: Bool { stdoutBuffer.isClosed && stderrBuffer.isClosed }

    /// How the child ended, or nil while it runs. Reaps it (waitpid WNOHANG).
    public var exit: Termination? {
        termination.withLock { termination in
            if termination == nil {
                var status: Int32 = 0
                if waitpid(pid, &status, WNOHANG) == pid {
                    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros.
                    termination = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
                }
            }
            return termination
        }
    }

    public var isRunning: Bool { exit == nil }

    public func signal(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
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

/// Bytes read from one pipe by a reader thread until end of file.
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

    func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            state.withLock { $0.data.append(contentsOf: buffer[0..<count]) }
        }
        _ = close(fd)
        markClosed()
    }
}

/// glibc functions the Swift Glibc module does not import (they need _GNU_SOURCE), looked up
/// with dlsym. Both exist in glibc ≥ 2.34.
private enum GlibcExtras {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(nil, name) else { fatalError("glibc has no \(name)") }
        return unsafeBitCast(address, to: type)
    }

    static func pipe2(_ fds: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32 {
        symbol("pipe2", as: Pipe2.self)(fds, flags)
    }

    static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ lowest: Int32) -> Int32 {
        symbol("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self)(actions, lowest)
    }
}
