import JSON
import TouchKit

/// The UIKit course's Circle demo: a red filled circle. A tap places its centre, a pan makes it follow the finger (the
/// translation is applied and reset on every change), a pinch scales its radius (likewise with the scale). Pan and
/// pinch work together, so two fingers can move and size it at once. Every property change asks for a redraw.
public final class CircleScene: DemoScene {
    public let kind = DemoSceneKind.circle
    public let window: Window
    /// The view the recognizers watch (the UIKit course's top view); the circle is drawn on it.
    public let canvas: View
    public let tapRecognizer = TapGestureRecognizer()
    public let panRecognizer = PanGestureRecognizer()
    public let pinchRecognizer = PinchGestureRecognizer()
    private let rules = SimultaneousRecognizers()
    public var needsDisplay = true

    /// The circle's centre, in window coordinates. Starts at the window's centre.
    public var center: Point { didSet { needsDisplay = true } }
    /// The circle's radius (100 at first, as in the UIKit course), at least `minimumRadius`.
    public var radius: Double = 100 {
        didSet {
            radius = max(radius, Self.minimumRadius)
            needsDisplay = true
        }
    }

    public static let minimumRadius = 2.0

    public init(size: Size, clock: Clock = Clock()) {
        let frame = Rect(origin: .zero, size: size)
        window = Window(frame: frame, clock: clock)
        canvas = View(frame: frame)
        canvas.isMultipleTouchEnabled = true
        window.addSubview(canvas)
        center = frame.center
        tapRecognizer.name = "circle tap"
        tapRecognizer.addTarget(self) { scene, recognizer in
            if recognizer.state == .ended { scene.center = recognizer.location(in: scene.canvas) }
        }
        panRecognizer.name = "circle pan"
        panRecognizer.addTarget(self) { scene, recognizer in
            guard recognizer.state.isApplied else { return }
            scene.center += recognizer.translation(in: scene.canvas)
            recognizer.setTranslation(.zero, in: scene.canvas)
        }
        pinchRecognizer.name = "circle pinch"
        pinchRecognizer.addTarget(self) { scene, recognizer in
            guard recognizer.state.isApplied else { return }
            scene.radius *= recognizer.scale
            recognizer.scale = 1
        }
        rules.together = [panRecognizer, pinchRecognizer]
        panRecognizer.delegate = rules
        pinchRecognizer.delegate = rules
        canvas.addGestureRecognizer(tapRecognizer)
        canvas.addGestureRecognizer(panRecognizer)
        canvas.addGestureRecognizer(pinchRecognizer)
    }

    public func resize(to size: Size) {
        let frame = Rect(origin: .zero, size: size)
        window.frame = frame
        canvas.frame = frame
        needsDisplay = true
    }

    public var isAnimating: Bool { false }

    /// `{"version": 1, "scene": "circle", "x", "y" (centre), "radius"}`.
    public var snapshot: [UInt8] {
        JSONValue.object([
            ("version", .number(1)),
            ("scene", .string(kind.rawValue)),
            ("x", .number(center.x)),
            ("y", .number(center.y)),
            ("radius", .number(radius)),
        ]).sceneSnapshotBytes
    }
}

/// A delegate that lets a fixed group of recognizers recognize at the same time.
final class SimultaneousRecognizers: GestureRecognizerDelegate {
    var together: [GestureRecognizer] = []

    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        together.contains { $0 === gestureRecognizer } && together.contains { $0 === other }
    }
}
