import JSON
import TouchKit

/// The UIKit course's swipe test, written on raw touches: compare where a finger went down with where it lifted (the path
/// in between is not looked at, as in the UIKit course).
public enum RawSwipe {
    /// Travel needed along the axis (the UIKit course's kMinLength).
    public static let minimumLength = 30.0
    /// Largest drift across the axis (the UIKit course's kMaxError).
    public static let maximumError = 5.0

    /// "Horizontal", "Vertical", or nil when the stroke is neither.
    public static func classify(from start: Point, to end: Point) -> String? {
        let dx = abs(start.x - end.x)
        let dy = abs(start.y - end.y)
        if dx >= minimumLength && dy <= maximumError { return "Horizontal" }
        if dy >= minimumLength && dx <= maximumError { return "Vertical" }
        return nil
    }
}

/// A view that detects swipes with `touchesBegan`/`touchesEnded` overrides only, no recognizer (the UIKit course's first
/// swipe demo). The label keeps the last swipe's name; a stroke that is neither leaves it as it was.
public final class RawSwipeView: View {
    /// "Horizontal", "Vertical", or empty before the first swipe.
    public private(set) var label = ""
    /// How many swipes it has detected.
    public private(set) var count = 0
    private var starts: [ObjectIdentifier: Point] = [:]
    var onChange: () -> Void = {}

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isMultipleTouchEnabled = true
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches { starts[ObjectIdentifier(touch)] = touch.location(in: self) }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            guard let start = starts.removeValue(forKey: ObjectIdentifier(touch)) else { continue }
            if let name = RawSwipe.classify(from: start, to: touch.location(in: self)) {
                label = name
                count += 1
                onChange()
            }
        }
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches { starts[ObjectIdentifier(touch)] = nil }
    }
}

/// The Swipe demo: on the left, the raw-touch swipe detector; on the right, the same idea with a
/// `SwipeGestureRecognizer` (all four directions, its direction shown) that requires the custom Z recognizer to
/// fail (the UIKit course's "Z del zorro" example), so a Z is never taken for a rightward swipe.
public final class SwipeScene: DemoScene {
    public let kind = DemoSceneKind.swipe
    public let window: Window
    /// The left half: raw touches, no recognizer.
    public let rawView: RawSwipeView
    /// The right half: the swipe and Z recognizers.
    public let recognizerView: View
    public let swipeRecognizer = SwipeGestureRecognizer()
    public let zRecognizer = ZGestureRecognizer()
    public var needsDisplay = true

    /// The last direction the swipe recognizer recognized ("Right", "Left", "Up", "Down"), empty before the first.
    public private(set) var swipeLabel = ""
    public private(set) var swipeCount = 0
    /// How many Zs were recognized.
    public private(set) var zCount = 0
    /// What the right half recognized last: "Swipe" or "Z", empty before the first.
    public private(set) var lastRecognized = ""

    public init(size: Size, clock: Clock = Clock()) {
        window = Window(frame: Rect(origin: .zero, size: size), clock: clock)
        rawView = RawSwipeView()
        recognizerView = View()
        recognizerView.isMultipleTouchEnabled = true
        window.addSubview(rawView)
        window.addSubview(recognizerView)
        layout(size)
        rawView.onChange = { [weak self] in self?.needsDisplay = true }
        zRecognizer.name = "Z"
        zRecognizer.addTarget(self) { scene, recognizer in
            guard recognizer.state == .recognized else { return }
            scene.zCount += 1
            scene.lastRecognized = "Z"
            scene.needsDisplay = true
        }
        swipeRecognizer.name = "swipe"
        swipeRecognizer.direction = [.right, .left, .up, .down]
        swipeRecognizer.require(toFail: zRecognizer)
        swipeRecognizer.addTarget(self) { scene, recognizer in
            guard recognizer.state == .recognized else { return }
            scene.swipeLabel = Self.name(of: recognizer.recognizedDirection)
            scene.swipeCount += 1
            scene.lastRecognized = "Swipe"
            scene.needsDisplay = true
        }
        // The Z first, so at a lift it decides before the swipe looks at the same touch.
        recognizerView.addGestureRecognizer(zRecognizer)
        recognizerView.addGestureRecognizer(swipeRecognizer)
    }

    static func name(of direction: SwipeGestureRecognizer.Direction) -> String {
        switch direction {
        case .right: "Right"
        case .left: "Left"
        case .up: "Up"
        case .down: "Down"
        default: "?"
        }
    }

    private func layout(_ size: Size) {
        let half = (size.width / 2).rounded()
        rawView.frame = Rect(x: 0, y: 0, width: half, height: size.height)
        recognizerView.frame = Rect(x: half, y: 0, width: size.width - half, height: size.height)
    }

    public func resize(to size: Size) {
        window.frame = Rect(origin: .zero, size: size)
        layout(size)
        needsDisplay = true
    }

    public var isAnimating: Bool { false }

    /// `{"version": 1, "scene": "swipe", "rawLabel", "rawCount", "swipeLabel", "swipeCount", "zCount",
    /// "lastRecognized"}`.
    public var snapshot: [UInt8] {
        JSONValue.object([
            ("version", .number(1)),
            ("scene", .string(kind.rawValue)),
            ("rawLabel", .string(rawView.label)),
            ("rawCount", .number(Double(rawView.count))),
            ("swipeLabel", .string(swipeLabel)),
            ("swipeCount", .number(Double(swipeCount))),
            ("zCount", .number(Double(zCount))),
            ("lastRecognized", .string(lastRecognized)),
        ]).sceneSnapshotBytes
    }
}
