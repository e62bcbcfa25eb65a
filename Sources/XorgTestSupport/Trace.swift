import Foundation

private let traceEnabled = ProcessInfo.processInfo.environment["E2E_TRACE"] != nil
private let traceStart = ContinuousClock.now

/// With `E2E_TRACE` set, prints `message` to stderr with the time since the first trace, for
/// finding where an end-to-end test spends its time.
public func trace(_ message: @autoclosure () -> String) {
    guard traceEnabled else { return }
    let elapsed = ContinuousClock.now - traceStart
    FileHandle.standardError.write(Data("[e2e \(elapsed)] \(message())\n".utf8))
}
