import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A connection to a helper of the tests' own that takes text commands, one a line, over a Unix socket and answers
/// some of them with lines (weston's input module, KWin's fake-input client): commands are sent as they are, a
/// request reads answers up to its own, and errors answered meanwhile (`error …` lines) are thrown then. Blocking
/// I/O, serialized by a lock.
public final class LineConnection: Sendable {
    /// Errors the helper answered for commands sent since the last request, or a broken connection.
    public struct CommandError: Error, CustomStringConvertible {
        /// The helper's answers, without their "error " prefix.
        public let messages: [String]
        public let description: String

        public init(messages: [String], description: String) {
            self.messages = messages
            self.description = description
        }
    }

    private struct State {
        /// The socket; -1 once closed.
        var fd: Int32
        /// Bytes received after the last complete line read.
        var pending: [UInt8] = []
    }
    private let state: Mutex<State>
    /// Who answers, for messages ("the weston input module").
    private let peer: String

    /// Connects to `socketPath`, retrying for `timeout` while it does not exist yet or refuses and `alive()` holds
    /// (a helper that exited will never listen).
    public init(socketPath: String, peer: String, timeout: Duration, alive: () -> Bool = { true }) throws {
        self.peer = peer
        state = Mutex(State(fd: try UnixSocket.connect(path: socketPath, timeout: timeout, alive: alive)))
    }

    deinit {
        close()
    }

    public func close() {
        state.withLock { state in
            if state.fd >= 0 {
                _ = Glibc.close(state.fd)
                state.fd = -1
            }
        }
    }

    /// Sends one command line (without its newline) as it is. An error it causes surfaces at the next request.
    public func send(_ command: String) throws {
        precondition(!command.contains("\n"), "one command per line")
        try state.withLock { state in
            // Take in the answers already there first (errors of earlier commands): a helper may stop reading a
            // client whose answers pile up, and this one, blocked writing, would then wait for ever.
            if state.fd >= 0 { state.pending += try UnixSocket.readAvailable(state.fd) }
            try write(command, on: state)
        }
    }

    /// Sends `command` and reads answers up to the first that starts with `answerPrefix`, which it returns; errors
    /// answered before it are thrown (`CommandError`). A request that gets no answer in `timeout` closes the
    /// connection (a late answer would otherwise answer the next one).
    @discardableResult
    public func request(_ command: String, answerPrefix: String, timeout: Duration) throws -> String {
        try state.withLock { state in
            try write(command, on: state)
            var errors: [String] = []
            var answer: String?
            let deadline = ContinuousClock.now.advanced(by: timeout)
            while answer == nil {
                for line in Self.takeLines(&state.pending) {
                    if answer == nil, line.hasPrefix(answerPrefix) {
                        answer = line
                    } else {
                        errors.append(
                            line.hasPrefix("error ") ? String(line.dropFirst(6)) : "unexpected answer: \(line)")
                    }
                }
                if answer != nil { break }
                do {
                    state.pending += try UnixSocket.read(state.fd, deadline: deadline, from: peer)
                } catch {
                    _ = Glibc.close(state.fd)
                    state.fd = -1
                    throw CommandError(messages: errors, description: (["\(error)"] + errors).joined(separator: "\n"))
                }
            }
            guard errors.isEmpty, let answer else {
                throw CommandError(messages: errors, description: "\(peer): " + errors.joined(separator: "; "))
            }
            return answer
        }
    }

    private func write(_ command: String, on state: State) throws {
        guard state.fd >= 0 else {
            throw UnixSocket.Failure(description: "the connection to \(peer) is closed")
        }
        try UnixSocket.writeAll(state.fd, Array((command + "\n").utf8))
    }

    /// The complete lines in `pending`, without their newlines, taken out of it.
    static func takeLines(_ pending: inout [UInt8]) -> [String] {
        guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let lines = pending[..<last].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        pending.removeSubrange(...last)
        return lines
    }
}
