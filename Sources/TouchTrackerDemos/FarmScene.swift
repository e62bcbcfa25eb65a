import Foundation
import JSON
import TouchKit

/// What a farm animal is now. Taps and long presses move it along the UIKit course's cycle.
public enum AnimalKind: String, CaseIterable, Sendable, Hashable {
    case hen, egg, chicken, friedEgg, roast

    /// A tap: hen → egg → chicken → hen; a fried egg and a roast stay as they are.
    public var afterTap: AnimalKind {
        switch self {
        case .hen: .egg
        case .egg: .chicken
        case .chicken: .hen
        case .friedEgg, .roast: self
        }
    }

    /// The beginning of a long press: a hen is roasted, an egg is fried; the others stay as they are.
    public var afterLongPress: AnimalKind {
        switch self {
        case .hen: .roast
        case .egg: .friedEgg
        case .chicken, .friedEgg, .roast: self
        }
    }

    /// The size of the kind's picture, which is the animal view's bounds (as the UIKit course sizes its image view).
    public var pictureSize: Size {
        switch self {
        case .hen: Size(width: 120, height: 110)
        case .egg: Size(width: 64, height: 80)
        case .chicken: Size(width: 84, height: 84)
        case .friedEgg: Size(width: 120, height: 96)
        case .roast: Size(width: 140, height: 96)
        }
    }
}

/// One animal on the farm: a view of its own with its own recognizers (the UIKit course's GHPImageView).
///
/// Tap cycles its kind, a long press roasts or fries it with a flip, and pan, pinch and rotation move, scale and
/// turn it, all three at once with two fingers. Each gesture's change is applied and the recognizer's value reset
/// (translation to zero, scale to 1, rotation to 0), so the view's transform accumulates every gesture.
public final class AnimalView: View, GestureRecognizerDelegate {
    public private(set) var kind: AnimalKind
    /// The accumulated scale factor (pinches multiply it).
    public private(set) var scale: Double = 1
    /// The accumulated rotation in radians, clockwise on screen (rotations add to it).
    public private(set) var rotation: Double = 0
    /// The flip in progress after a long press: the kind shown before it and when it started.
    public private(set) var flip: (from: AnimalKind, start: TimeInterval)?

    public let tapRecognizer = TapGestureRecognizer()
    public let longPressRecognizer = LongPressGestureRecognizer()
    public let panRecognizer = PanGestureRecognizer()
    public let pinchRecognizer = PinchGestureRecognizer()
    public let rotationRecognizer = RotationGestureRecognizer()

    /// Called after every visible change (the scene marks itself for redrawing).
    var onChange: () -> Void = {}

    /// How long the long press's flip lasts.
    public static let flipDuration: TimeInterval = 0.5

    public init(kind: AnimalKind, center: Point) {
        self.kind = kind
        super.init(frame: Rect(origin: .zero, size: kind.pictureSize))
        self.center = center
        // Two fingers on one animal pinch and rotate it: the second finger must reach the view.
        isMultipleTouchEnabled = true
        installRecognizers()
    }

    private func installRecognizers() {
        tapRecognizer.name = "animal tap"
        tapRecognizer.addTarget(self) { animal, recognizer in
            if recognizer.state == .ended { animal.setKind(animal.kind.afterTap) }
        }
        longPressRecognizer.name = "animal long press"
        longPressRecognizer.addTarget(self) { animal, recognizer in
            // A long press is continuous; only its beginning matters here (as in the UIKit course).
            if recognizer.state == .began { animal.longPressBegan(at: recognizer.now) }
        }
        panRecognizer.name = "animal pan"
        panRecognizer.delegate = self
        panRecognizer.addTarget(self) { animal, recognizer in
            guard recognizer.state.isApplied, let superview = animal.superview else { return }
            animal.center += recognizer.translation(in: superview)
            recognizer.setTranslation(.zero, in: superview)
            animal.onChange()
        }
        pinchRecognizer.name = "animal pinch"
        pinchRecognizer.delegate = self
        pinchRecognizer.addTarget(self) { animal, recognizer in
            guard recognizer.state.isApplied else { return }
            animal.scale = min(max(animal.scale * recognizer.scale, 0.1), 20)
            recognizer.scale = 1
            animal.updateTransform()
        }
        rotationRecognizer.name = "animal rotation"
        rotationRecognizer.delegate = self
        rotationRecognizer.addTarget(self) { animal, recognizer in
            guard recognizer.state.isApplied else { return }
            animal.rotation += recognizer.rotation
            recognizer.rotation = 0
            animal.updateTransform()
        }
        for recognizer in [
            tapRecognizer, longPressRecognizer, panRecognizer, pinchRecognizer, rotationRecognizer,
        ] as [GestureRecognizer] {
            addGestureRecognizer(recognizer)
        }
    }

    /// Pan, pinch and rotation of the same animal work together; everything else is exclusive.
    public func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        let together: [GestureRecognizer] = [panRecognizer, pinchRecognizer, rotationRecognizer]
        return together.contains { $0 === gestureRecognizer } && together.contains { $0 === other }
    }

    private func setKind(_ newKind: AnimalKind) {
        guard newKind != kind else { return }
        kind = newKind
        // The view takes its picture's size, keeping its centre.
        bounds.size = newKind.pictureSize
        onChange()
    }

    private func longPressBegan(at time: TimeInterval) {
        let before = kind
        let after = before.afterLongPress
        guard after != before else { return }
        flip = (before, time)
        setKind(after)
        window?.clock.schedule(after: Self.flipDuration) { [weak self] in
            guard let self, let flip = self.flip, flip.start == time else { return }
            self.flip = nil
            self.onChange()
        }
    }

    private func updateTransform() {
        transform = AffineTransform(scaleX: scale, y: scale).concatenating(AffineTransform(rotationAngle: rotation))
        onChange()
    }

    /// The flip's progress at `time`, 0 to 1, or nil when no flip is running then.
    public func flipProgress(at time: TimeInterval) -> Double? {
        guard let flip else { return nil }
        let progress = (time - flip.start) / Self.flipDuration
        return progress < 1 ? max(0, progress) : nil
    }

    /// What to draw at `time`: the kind shown and the horizontal squeeze of the flip (1 when not flipping). The old
    /// picture turns away during the first half, the new one turns in during the second half.
    public func appearance(at time: TimeInterval) -> (kind: AnimalKind, widthFactor: Double) {
        guard let flip, let progress = flipProgress(at: time) else { return (kind, 1) }
        let factor = abs(cos(progress * .pi))
        return (progress < 0.5 ? flip.from : kind, factor)
    }
}

extension GestureRecognizer.State {
    /// The states whose values a continuous gesture's action applies.
    var isApplied: Bool { self == .began || self == .changed || self == .ended }
}

/// La Granja (the UIKit course's Farm demo): a tap on the background creates a hen where it lands; a pan from the left
/// edge of the window clears every animal with a 0.5 s cross-dissolve. Each animal is an `AnimalView`.
public final class FarmScene: DemoScene {
    public let kind = DemoSceneKind.farm
    public let window: Window
    /// The farm's background: the animals are its subviews, in stacking order.
    public let background: View
    /// Tap on the background: a new hen there.
    public let tapRecognizer = TapGestureRecognizer()
    /// Pan from the left edge: clear the farm.
    public let edgePanRecognizer = ScreenEdgePanGestureRecognizer()
    /// Animals that were cleared and are fading out, with when they started to.
    public private(set) var leaving: [(animal: AnimalView, start: TimeInterval)] = []
    public var needsDisplay = true

    /// How long the clearing cross-dissolve lasts.
    public static let dissolveDuration: TimeInterval = 0.5

    public init(size: Size, clock: Clock = Clock()) {
        let frame = Rect(origin: .zero, size: size)
        window = Window(frame: frame, clock: clock)
        background = View(frame: frame)
        background.isMultipleTouchEnabled = true
        window.addSubview(background)
        tapRecognizer.name = "farm tap"
        tapRecognizer.addTarget(self) { scene, recognizer in
            if recognizer.state == .ended { scene.addHen(at: recognizer.location(in: scene.background)) }
        }
        edgePanRecognizer.name = "farm edge pan"
        edgePanRecognizer.edges = .left
        edgePanRecognizer.addTarget(self) { scene, recognizer in
            if recognizer.state == .began { scene.clear() }
        }
        background.addGestureRecognizer(tapRecognizer)
        background.addGestureRecognizer(edgePanRecognizer)
    }

    /// The animals on the farm, bottom to top.
    public var animals: [AnimalView] { background.subviews.compactMap { $0 as? AnimalView } }

    /// Adds a hen centred at `point` (background coordinates) and returns it.
    @discardableResult
    public func addHen(at point: Point) -> AnimalView {
        let hen = AnimalView(kind: .hen, center: point)
        hen.onChange = { [weak self] in self?.needsDisplay = true }
        background.addSubview(hen)
        needsDisplay = true
        return hen
    }

    /// Takes every animal off the farm at once (they no longer take touches) and fades them out.
    public func clear() {
        let now = window.clock.now
        let cleared = animals
        guard !cleared.isEmpty else { return }
        for animal in cleared {
            animal.removeFromSuperview()
            leaving.append((animal, now))
        }
        needsDisplay = true
        window.clock.schedule(after: Self.dissolveDuration) { [weak self] in
            guard let self else { return }
            self.leaving.removeAll { $0.start <= now }
            self.needsDisplay = true
        }
    }

    /// The opacity at `time` of an animal that started leaving at `start`.
    public static func dissolveOpacity(start: TimeInterval, at time: TimeInterval) -> Double {
        min(1, max(0, 1 - (time - start) / dissolveDuration))
    }

    public func resize(to size: Size) {
        let frame = Rect(origin: .zero, size: size)
        window.frame = frame
        background.frame = frame
        needsDisplay = true
    }

    public var isAnimating: Bool {
        let now = window.clock.now
        return leaving.contains { now < $0.start + Self.dissolveDuration }
            || animals.contains { $0.flipProgress(at: now) != nil }
    }

    /// `{"version": 1, "scene": "farm", "animals": [...]}`, animals bottom to top and then those fading out, each
    /// `{"kind", "x", "y" (centre), "width", "height" (bounds), "scale", "rotation" (radians, clockwise),
    /// "opacity", "leaving" (fading out after a clear), "flipping"}`.
    public var snapshot: [UInt8] {
        let now = window.clock.now
        var entries: [JSONValue] = []
        for animal in animals { entries.append(Self.describe(animal, opacity: 1, leaving: false, at: now)) }
        for (animal, start) in leaving {
            let opacity = Self.dissolveOpacity(start: start, at: now)
            entries.append(Self.describe(animal, opacity: opacity, leaving: true, at: now))
        }
        return JSONValue.object([
            ("version", .number(1)),
            ("scene", .string(kind.rawValue)),
            ("animals", .array(entries)),
        ]).sceneSnapshotBytes
    }

    private static func describe(_ animal: AnimalView, opacity: Double, leaving: Bool, at time: TimeInterval)
        -> JSONValue
    {
        .object([
            ("kind", .string(animal.kind.rawValue)),
            ("x", .number(animal.center.x)),
            ("y", .number(animal.center.y)),
            ("width", .number(animal.bounds.width)),
            ("height", .number(animal.bounds.height)),
            ("scale", .number(animal.scale)),
            ("rotation", .number(animal.rotation)),
            ("opacity", .number(opacity)),
            ("leaving", .bool(leaving)),
            ("flipping", .bool(animal.flipProgress(at: time) != nil)),
        ])
    }
}
