import Synchronization
import TouchTrackerAccessibility

/// What assistive clients asked the window to do, handed from the accessibility bridge's worker to the event loop,
/// which does it at the next frame.
final class AccessibilityMailbox: Sendable {
    private let requests = Mutex<[AccessibilityRequest]>([])

    /// From any thread.
    func post(_ request: AccessibilityRequest) {
        requests.withLock { $0.append(request) }
    }

    /// The requests posted since the last call, oldest first.
    func take() -> [AccessibilityRequest] {
        requests.withLock { requests in
            defer { requests.removeAll() }
            return requests
        }
    }
}
