import TouchKit

/// Holds the current demo scene and switches between scenes from the keyboard: Tab for the next scene, Shift+Tab
/// for the previous one, F1/F2/F3 for Farm, Circle and Swipe. The window and replay both drive a host.
public final class DemoHost {
    /// The scene shown now. Replaced (not reused) on every switch, so each visit starts fresh.
    public private(set) var scene: any DemoScene
    public let clock: Clock
    /// Set when the scene was switched, until the host's owner clears it (with the scene's own `needsDisplay`).
    private var switched = false

    /// The shortcut text the title bar shows.
    public static let switcherHint = "Tab: next demo   F1 Farm  F2 Circle  F3 Swipe"

    public init(kind: DemoSceneKind, size: Size, clock: Clock = Clock()) {
        self.clock = clock
        self.scene = kind.makeScene(size: size, clock: clock)
    }

    public var kind: DemoSceneKind { scene.kind }

    /// Replaces the scene with a fresh one of `kind` (even of the same kind: a way to start over).
    public func switchTo(_ kind: DemoSceneKind) {
        // Touches still down belong to the old scene's window: end them there so no gesture is left half done.
        scene.window.cancelAllTouches()
        scene = kind.makeScene(size: scene.size, clock: clock)
        switched = true
    }

    public func send(_ input: TouchInput) {
        scene.send(input)
    }

    /// The switcher's keys first, then the scene's. Returns whether the key was used.
    @discardableResult
    public func handleKey(name: String, control: Bool = false, shift: Bool = false) -> Bool {
        switch (name, control) {
        case ("Tab", false):
            switchTo(shift ? kind.previous : kind.next)
        case ("ISO_Left_Tab", false):
            // What X reports for Shift+Tab.
            switchTo(kind.previous)
        case ("F1", false): switchTo(.farm)
        case ("F2", false): switchTo(.circle)
        case ("F3", false): switchTo(.swipe)
        default:
            return scene.handleKey(name: name, control: control, shift: shift)
        }
        return true
    }

    public func resize(to size: Size) {
        scene.resize(to: size)
    }

    /// Whether the host should redraw: the scene changed or was switched.
    public var needsDisplay: Bool {
        get { switched || scene.needsDisplay }
        set {
            switched = newValue
            scene.needsDisplay = newValue
        }
    }

    public var isAnimating: Bool { scene.isAnimating }

    public var snapshot: [UInt8] { scene.snapshot }
}
