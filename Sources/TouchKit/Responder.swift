/// An object that can handle touches and pass what it does not handle along the responder chain.
open class Responder {
    public init() {}

    /// The next responder in the chain: a view's superview, and nothing after the window.
    open var next: Responder? { nil }

    open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        next?.touchesBegan(touches, with: event)
    }

    open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        next?.touchesMoved(touches, with: event)
    }

    open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        next?.touchesEnded(touches, with: event)
    }

    /// The touches were taken away: by a recognizer that claimed them (`Touch.cancellationReason` is
    /// `.gestureRecognized`) or by the system (`.system`).
    open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        next?.touchesCancelled(touches, with: event)
    }

    /// Whether this responder accepts becoming the first responder (the receiver of key events).
    open var canBecomeFirstResponder: Bool { false }
    open var canResignFirstResponder: Bool { true }

    /// The window that tracks the first responder, if this responder is in one.
    var owningWindow: Window? { nil }

    public var isFirstResponder: Bool { owningWindow?.firstResponder === self }

    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder, let window = owningWindow else { return false }
        if window.firstResponder === self { return true }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        window.firstResponder = self
        return true
    }

    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard canResignFirstResponder else { return false }
        if let window = owningWindow, window.firstResponder === self { window.firstResponder = nil }
        return true
    }
}

/// Why a touch was cancelled. UIKit does not say; TouchKit does, because a drawing app must keep a stroke the
/// system interrupted but drop one a gesture claimed.
public enum TouchCancellationReason: Sendable, Hashable {
    /// A gesture recognizer recognized the touch and `cancelsTouchesInView` took it from the view.
    case gestureRecognized
    /// The platform took it away: device removed, grab taken, window unmapped, or `Window.cancelAllTouches()`.
    case system
    /// The window system claimed it for a gesture of its own (`TouchInput.Phase.claimed`).
    case claimedBySystem
}
