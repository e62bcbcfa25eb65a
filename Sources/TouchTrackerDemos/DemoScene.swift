import TouchKit

/// The built-in gesture demos, in switcher order.
public enum DemoSceneKind: String, CaseIterable, Sendable, Hashable {
    /// La Granja: hens, eggs and chickens to tap, press, drag, pinch and turn.
    case farm
    /// A red circle to place with a tap, drag with a pan and size with a pinch.
    case circle
    /// A swipe detector written with raw touches next to SwipeGestureRecognizer and the custom Z recognizer.
    case swipe

    /// The name shown in the title bar.
    public var title: String {
        switch self {
        case .farm: "Farm"
        case .circle: "Circle"
        case .swipe: "Swipe"
        }
    }

    /// The scene after this one, wrapping round.
    public var next: DemoSceneKind {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The scene before this one, wrapping round.
    public var previous: DemoSceneKind {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + all.count - 1) % all.count]
    }

    /// Builds a fresh scene of this kind filling `size`, its recognizers running on `clock`.
    public func makeScene(size: Size, clock: Clock) -> any DemoScene {
        switch self {
        case .farm: FarmScene(size: size, clock: clock)
        case .circle: CircleScene(size: size, clock: clock)
        case .swipe: SwipeScene(size: size, clock: clock)
        }
    }
}

/// One demo as a host (the X11 window, replay, tests) sees it: a TouchKit window to feed, a damage flag, time-based
/// animations on the window's clock, and a JSON snapshot of its state.
///
/// A host sends input with `send(_:)` (which advances the clock to the input's time), advances `clock` between
/// inputs, redraws when `needsDisplay` is set (and clears it), and keeps drawing frames while `isAnimating`.
/// Animations also end with a timer on the clock, so running the clock until idle finishes them.
public protocol DemoScene: AnyObject {
    /// Which demo this is.
    var kind: DemoSceneKind { get }
    /// The TouchKit window the scene's views live in; its size is the scene's size.
    var window: Window { get }
    /// Feeds one platform touch into the scene's window.
    func send(_ input: TouchInput)
    /// Handles a key press (an X keysym name); returns whether the scene used it.
    func handleKey(name: String, control: Bool, shift: Bool) -> Bool
    /// Matches the platform window's size.
    func resize(to size: Size)
    /// Whether something visible changed since the host last cleared the flag.
    var needsDisplay: Bool { get set }
    /// Whether an animation is running at the clock's current time (the host should keep drawing frames).
    var isAnimating: Bool { get }
    /// The scene's state as UTF-8 JSON (`demo --state` writes it), numbers rounded to 4 decimals.
    var snapshot: [UInt8] { get }
}

extension DemoScene {
    /// The time line the scene's recognizers and animations run on.
    public var clock: Clock { window.clock }

    /// The scene's size.
    public var size: Size { window.bounds.size }

    public func send(_ input: TouchInput) {
        window.send(input)
    }

    public func handleKey(name: String, control: Bool, shift: Bool) -> Bool { false }
}
