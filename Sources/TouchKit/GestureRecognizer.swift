/// A token for one action added with `addTarget`, used to remove it again.
public struct GestureActionToken: Hashable, Sendable {
    let owner: ObjectIdentifier
    let id: UInt64
}

/// Gives every recognizer class typed target-action: the closure receives the recognizer as its own class.
public protocol GestureRecognizerActions: AnyObject {
    init()
}

extension GestureRecognizerActions where Self: GestureRecognizer {
    /// Creates a recognizer with one action, as UIKit's `init(target:action:)`.
    public init(action: @escaping (Self) -> Void) {
        self.init()
        addTarget(action)
    }

    /// Adds an action, called with the recognizer after every state change except to possible and failed.
    @discardableResult
    public func addTarget(_ action: @escaping (Self) -> Void) -> GestureActionToken {
        // Actions are only ever called with the recognizer they were added to, which is a `Self`.
        addAction(target: nil) { recognizer in action(unsafeDowncast(recognizer, to: Self.self)) }
    }

    /// Adds an action on `target`, which is held weakly (as UIKit does): once it is gone the action does nothing.
    @discardableResult
    public func addTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target, Self) -> Void)
        -> GestureActionToken
    {
        addAction(target: ObjectIdentifier(target)) { [weak target] recognizer in
            if let target { action(target, unsafeDowncast(recognizer, to: Self.self)) }
        }
    }
}

/// The base of every gesture recognizer: a state machine fed with the touches of its view (and its subviews) before
/// the view sees them, arbitrated against the other recognizers of the window as UIKit does.
///
/// To write a custom recognizer, subclass and override `touchesBegan(_:with:)`, `touchesMoved(_:with:)`,
/// `touchesEnded(_:with:)`, `touchesCancelled(_:with:)` and `reset()`, and set `state`: to `.began`/`.changed`/
/// `.ended`/`.cancelled` for a continuous gesture, to `.ended` (`.recognized`) for a discrete one, and to `.failed`
/// when the touches cannot be the gesture. Use `scheduleTimer(after:_:)` for timeouts; it runs on the window's clock
/// and is cancelled automatically on reset.
open class GestureRecognizer: GestureRecognizerActions {
    /// Where a recognizer is in recognizing its gesture.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        case possible, began, changed, ended, cancelled, failed
        /// A discrete gesture's end state.
        public static let recognized = State.ended

        /// Whether this state ends the gesture (the recognizer resets once its touches are gone).
        public var isTerminal: Bool { self == .ended || self == .cancelled || self == .failed }

        public var description: String {
            switch self {
            case .possible: "possible"
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            case .cancelled: "cancelled"
            case .failed: "failed"
            }
        }
    }

    /// The view the recognizer is attached to.
    public internal(set) weak var view: View?
    /// Asked about beginning, receiving touches, simultaneity and failure requirements. Held weakly.
    public weak var delegate: (any GestureRecognizerDelegate)?
    /// A name for debugging.
    public var name: String?

    /// Whether the recognizer takes part. Disabling it mid-gesture cancels the gesture (or fails it while still
    /// possible), and it receives no touches until enabled again.
    public var isEnabled: Bool {
        get { enabled }
        set {
            let old = enabled
            enabled = newValue
            if old, !newValue { currentArena?.disable(self) }
        }
    }
    private var enabled = true
    /// Whether recognizing takes the recognizer's touches away from the view (`touchesCancelled` with reason
    /// `.gestureRecognized`). UIKit's default, true.
    public var cancelsTouchesInView = true
    /// Whether the view's `touchesBegan` waits until this recognizer fails. UIKit's default, false.
    public var delaysTouchesBegan = false
    /// Whether the view's `touchesEnded` waits while this recognizer is still possible; if it then recognizes, the
    /// view gets `touchesCancelled` instead. UIKit's default, true.
    public var delaysTouchesEnded = true
    /// The kinds of touch the recognizer receives (UIKit's `allowedTouchTypes`); a touch of any other kind is never
    /// delivered to it, as if `shouldReceive` had said no. Every kind by default.
    public var allowedTouchTypes: Set<TouchType> = Set(TouchType.allCases)
    /// Whether a new touch of another kind than the gesture's first (a pen joining a finger's pan) is ignored, left
    /// to the view, rather than taken into the gesture (UIKit's `requiresExclusiveTouchType`, true by default).
    public var requiresExclusiveTouchType = true

    /// The state as the subclass sees it. Subclasses set it; the setter arbitrates (failure requirements,
    /// exclusivity, `shouldBegin`), so a requested `.began` or `.ended` may leave the state `possible` for a while
    /// (waiting for another recognizer to fail) or turn into `.failed`. Invalid transitions are ignored.
    open var state: State {
        get { reportedState ?? storedState }
        set { requestState(newValue) }
    }

    public required init() {}

    // MARK: Engine bookkeeping (internal)

    var storedState: State = .possible
    /// While the actions of a change of state run: the state that change was to (the recognizer may have moved on
    /// within the same turn, and each action reports its own change).
    var reportedState: State?
    /// A `.began` or `.ended` this recognizer asked for but may not take yet (failure requirements unresolved).
    var pendingState: State?
    /// Its touches ended while a `.began` it asked for waited: it ends as soon as it begins.
    var endsOnceBegun = false
    /// The engine of the window whose touches the recognizer is following; set while engaged (strong, not weak:
    /// weak references make every retain of the target slow, and the arena clears it at reset).
    var arena: GestureArena?
    /// Touches since the set of live touches was last empty: what `location(in:)` and `numberOfTouches` describe.
    var sessionTouches: [Touch] = []
    /// Every touch received since the last reset, for deciding which recognizers compete.
    var trackedTouches: [Touch] = []
    /// Recognizers that must fail first, held strongly as UIKit does.
    var explicitFailureRequirements: [GestureRecognizer] = []
    var timerTokens: [TimerToken] = []
    var generation: UInt64 = 0
    var isQueuedForCheck = false
    var isInEngagedList = false
    /// The event sequence (fingers down without a moment when none is) of the last touch it was given: a
    /// recognizer that failed or ended stays so until that sequence is over (`GestureArena.processChecks`).
    var sequence = 0
    private var actions: [(id: UInt64, target: ObjectIdentifier?, run: (GestureRecognizer) -> Void)] = []
    private var nextActionID: UInt64 = 0

    var currentArena: GestureArena? { arena ?? view?.window?.arena }

    /// Whether the recognizer has taken part in the current touch sequence.
    var isEngaged: Bool { !trackedTouches.isEmpty }

    /// Whether any touch it received is still on the screen.
    var hasLiveTouch: Bool { trackedTouches.contains { !$0.phase.isFinished } }

    /// Whether it still analyses touches (possible and not waiting) or follows them (began/changed).
    var acceptsTouches: Bool {
        switch storedState {
        case .possible: pendingState == nil
        case .began, .changed: true
        case .ended, .cancelled, .failed: false
        }
    }

    /// Whether it receives the moves and ends of touches it already has: while it analyses or follows them, and
    /// while a continuous gesture waits to begin. A discrete gesture that has recognized and only waits for its
    /// failure requirements has decided: like UIKit's, it gets no more touches, so nothing it sees later (a lift,
    /// its own timeout, a turn of the finger) can undo what it recognized.
    var receivesEvents: Bool {
        switch storedState {
        case .possible: pendingState != .ended
        case .began, .changed: true
        case .ended, .cancelled, .failed: false
        }
    }

    /// Whether `touch` belongs to the current session (the touches `location(in:)` describes).
    func isTrackingLive(_ touch: Touch) -> Bool {
        sessionTouches.contains { $0 === touch }
    }

    func tracks(_ touch: Touch) -> Bool {
        trackedTouches.contains { $0 === touch }
    }

    func add(_ touch: Touch) {
        if !sessionTouches.contains(where: { !$0.phase.isFinished }) {
            sessionTouches.removeAll(keepingCapacity: true)
        }
        sessionTouches.append(touch)
        trackedTouches.append(touch)
    }

    // MARK: Target-action

    func addAction(target: ObjectIdentifier?, _ run: @escaping (GestureRecognizer) -> Void) -> GestureActionToken {
        nextActionID += 1
        actions.append((nextActionID, target, run))
        return GestureActionToken(owner: ObjectIdentifier(self), id: nextActionID)
    }

    /// Removes the action `token` names. Removing one twice, or another recognizer's, does nothing.
    public func removeTarget(_ token: GestureActionToken) {
        guard token.owner == ObjectIdentifier(self) else { return }
        actions.removeAll { $0.id == token.id }
    }

    /// Removes every action added with `target`.
    public func removeTarget(_ target: AnyObject) {
        let id = ObjectIdentifier(target)
        actions.removeAll { $0.target == id }
    }

    /// How many actions are attached.
    public var numberOfActions: Int { actions.count }

    func sendActions() {
        let current = actions
        for action in current { action.run(self) }
    }

    // MARK: Failure requirements

    /// Keeps this recognizer in `possible` until `other` fails; if `other` recognizes, this one fails.
    public func require(toFail other: GestureRecognizer) {
        guard other !== self else { return }
        explicitFailureRequirements.removeAll { $0 === other }
        explicitFailureRequirements.append(other)
    }

    // MARK: Location

    /// Whether `location(in:)` and friends describe the live touches (true) or, once all have lifted, the last ones
    /// (so a tap's action can ask where the tap was).
    private var describesLiveTouches: Bool { sessionTouches.contains { !$0.phase.isFinished } }

    private func isDescribed(_ touch: Touch, live: Bool) -> Bool { !live || !touch.phase.isFinished }

    /// How many touches the gesture involves: the live ones, or the last ones once all have lifted.
    public var numberOfTouches: Int {
        let live = describesLiveTouches
        return sessionTouches.reduce(0) { $0 + (isDescribed($1, live: live) ? 1 : 0) }
    }

    /// The centroid of the gesture's touches in `view`'s coordinates (the window's when nil).
    open func location(in view: View?) -> Point {
        let live = describesLiveTouches
        var sum = Point.zero
        var count = 0
        for touch in sessionTouches where isDescribed(touch, live: live) {
            sum += touch.windowLocation
            count += 1
        }
        guard count > 0 else { return .zero }
        let centroid = sum / Double(count)
        return view?.convert(centroid, from: nil) ?? centroid
    }

    /// The location of the touch at `index` (in the order the touches went down), or `.zero` when there is none.
    open func location(ofTouch index: Int, in view: View?) -> Point {
        let live = describesLiveTouches
        var remaining = index
        for touch in sessionTouches where isDescribed(touch, live: live) {
            if remaining == 0 { return touch.location(in: view) }
            remaining -= 1
        }
        return .zero
    }

    /// The live touches this recognizer tracks, in the order they went down.
    public var touches: [Touch] { sessionTouches.filter { !$0.phase.isFinished } }

    /// Converts a vector in window coordinates to `view`'s coordinates (only the linear part of the transforms).
    func windowVector(_ vector: Point, to view: View?) -> Point {
        view?.vectorFromRoot(vector) ?? vector
    }

    func windowVector(_ vector: Point, from view: View?) -> Point {
        view?.vectorToRoot(vector) ?? vector
    }

    // MARK: Subclass API

    /// The current time on the window's clock (0 before the recognizer is in a window).
    public var now: TimeInterval { currentArena?.clock.now ?? view?.window?.clock.now ?? 0 }

    /// Runs `action` after `delay` seconds on the window's clock, unless the recognizer resets first: for a time
    /// that must pass (a long press's minimum duration). Returns nil when the recognizer is not in a window.
    @discardableResult
    public func scheduleTimer(after delay: TimeInterval, _ action: @escaping () -> Void) -> TimerToken? {
        schedule(action) { clock, fire in clock.schedule(after: delay, fire) }
    }

    /// Runs `action` once more than `limit` seconds have passed, unless the recognizer resets first: for a time that
    /// must not be exceeded (a tap's duration, the interval between taps), so an event at exactly the limit is
    /// still within it. Returns nil when the recognizer is not in a window.
    @discardableResult
    public func scheduleTimeout(afterMoreThan limit: TimeInterval, _ action: @escaping () -> Void) -> TimerToken? {
        schedule(action) { clock, fire in clock.schedule(afterMoreThan: limit, fire) }
    }

    private func schedule(
        _ action: @escaping () -> Void, on schedule: (Clock, @escaping () -> Void) -> TimerToken
    ) -> TimerToken? {
        guard let arena = currentArena else { return nil }
        let generation = self.generation
        var token: TimerToken?
        // Captured strongly: a pending timer keeps the recognizer alive until it fires or is cancelled at reset.
        token = schedule(arena.clock) { [self, arena] in
            if let token { self.timerTokens.removeAll { $0 == token } }
            guard self.generation == generation else { return }
            arena.performTurn { action() }
        }
        if let token { timerTokens.append(token) }
        return token
    }

    /// Cancels a timer from `scheduleTimer(after:_:)` or `scheduleTimeout(afterMoreThan:_:)`.
    public func cancelTimer(_ token: TimerToken?) {
        guard let token else { return }
        currentArena?.clock.cancel(token)
        timerTokens.removeAll { $0 == token }
    }

    func cancelAllTimers() {
        if let clock = currentArena?.clock {
            for token in timerTokens { clock.cancel(token) }
        }
        // Every gesture schedules timers again: keep the buffer.
        timerTokens.removeAll(keepingCapacity: true)
    }

    /// Stops delivering `touch` to this recognizer (UIKit's `ignore(_:for:)`).
    public func ignore(_ touch: Touch, for event: TouchEvent? = nil) {
        sessionTouches.removeAll { $0 === touch }
        trackedTouches.removeAll { $0 === touch }
        currentArena?.needsCheck(self)
    }

    /// Called with touches that began in the view; the default does nothing.
    open func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {}
    open func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {}
    open func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {}
    /// The touches were taken away by the system. The default fails the recognizer, or cancels it if it began.
    open func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = .cancelled
        default: break
        }
    }

    /// Called once the gesture is over and its touches are gone, before the recognizer returns to `possible`.
    /// Subclasses clear their per-gesture state here. Timers were already cancelled.
    open func reset() {}

    /// Whether this recognizer, recognizing, may fail `other`. UIKit's default, true.
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
    /// Whether `other`, recognizing, may fail this recognizer. UIKit's default, true.
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
    /// Whether this recognizer must wait for `other` to fail (in addition to `require(toFail:)`). Default false.
    open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }
    /// Whether `other` must wait for this recognizer to fail. Default false.
    open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }
    /// Whether to receive a touch that began, asked before the delegate. Default true.
    open func shouldReceive(_ touch: Touch) -> Bool { true }

    // MARK: State changes

    private func requestState(_ newState: State) {
        if newState == .changed, storedState == .began || storedState == .changed, let arena {
            arena.changed(self)
        } else if let arena = currentArena {
            arena.performTurn { arena.request(self, newState) }
        } else {
            requestDetached(newState)
        }
    }

    /// A recognizer in no window has nobody to compete with: transitions apply at once.
    private func requestDetached(_ newState: State) {
        guard GestureArena.isValidTransition(from: storedState, to: newState) else { return }
        var target = newState
        if storedState == .possible, target == .began || target == .ended {
            if !GestureArena.shouldBegin(self) { target = .failed }
        }
        if (storedState == .began || storedState == .changed) && target == .failed { target = .cancelled }
        storedState = target
        if target != .failed, target != .possible { sendActions() }
        if target.isTerminal {
            cancelAllTimers()
            generation += 1
            storedState = .possible
            sessionTouches.removeAll()
            trackedTouches.removeAll()
            reset()
        }
    }
}

extension GestureRecognizer: CustomStringConvertible {
    public var description: String {
        "\(type(of: self))(\(name.map { "\"\($0)\", " } ?? "")\(storedState))"
    }
}
