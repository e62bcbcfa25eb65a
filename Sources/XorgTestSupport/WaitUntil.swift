import Foundation

/// Thrown when a `waitUntil` condition does not become true in time.
public struct WaitTimeout: Error, CustomStringConvertible {
    public let what: String
    public let timeout: Duration
    public var description: String { "timed out after \(timeout) waiting for \(what)" }
}

/// Polls `condition` every `poll` until it returns true; throws `WaitTimeout` after `timeout`.
/// The condition is always evaluated at least once, and once more at the deadline.
public func waitUntil(
    _ what: String = "condition",
    timeout: Duration = .seconds(5),
    poll: Duration = .milliseconds(10),
    _ condition: () throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start.advanced(by: timeout)
    trace("waiting for \(what)")
    defer { trace("done waiting for \(what) after \(clock.now - start)") }
    while true {
        if try condition() { return }
        if clock.now >= deadline { break }
        try await Task.sleep(for: poll)
    }
    if try condition() { return }
    throw WaitTimeout(what: what, timeout: timeout)
}

/// Polls `produce` until it returns a value; throws `WaitTimeout` after `timeout`.
public func waitForValue<T>(
    _ what: String = "value",
    timeout: Duration = .seconds(5),
    poll: Duration = .milliseconds(10),
    _ produce: () throws -> T?
) async throws -> T {
    var result: T?
    try await waitUntil(what, timeout: timeout, poll: poll) {
        result = try produce()
        return result != nil
    }
    return result!
}
