import TouchKit

/// The TouchTracker canvas (the seed's TouchDrawView): every finger draws its own straight line, keyed by touch.
///
/// It owns the document while the app runs, reports each completed edit through `onEdit` so the platform can save,
/// and records what needs redrawing in `damage`, which the renderer reads and clears.
public final class DrawingView: View {
    /// Stroke width of every line, in pixels.
    public var lineWidth = 10.0
    /// How far a finger must move before its line appears (UIKit's tap slop), so taps leave no dots.
    public var tapSlop = 10.0

    public private(set) var drawing: Drawing
    /// Lines being drawn, by `Touch.identifier` (unique per contact, never a reused platform id).
    public private(set) var linesInProgress: [UInt64: LineInProgress] = [:]
    /// What changed since the renderer last looked.
    public var damage = Damage()
    /// Called after every completed edit with the new document.
    public var onEdit: ((Drawing) -> Void)?

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        self.drawing = drawing
        super.init(frame: frame)
        isMultipleTouchEnabled = true
        damage.completeLinesChanged = true
    }

    /// The in-progress lines that are visible, oldest touch first.
    public var visibleLinesInProgress: [Line] {
        linesInProgress.sorted { $0.key < $1.key }.compactMap { $0.value.isVisible ? $0.value.line : nil }
    }

    /// Replaces the whole document (loading a file).
    public func replaceDrawing(_ newDrawing: Drawing) {
        drawing = newDrawing
        damage.completeLinesChanged = true
        damage.add(bounds)
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            let point = touch.location(in: self)
            linesInProgress[touch.identifier] = LineInProgress(begin: point, end: point, isVisible: false)
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches { update(touch) }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        complete(touches)
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        // A gesture that claimed the touch owns it: its stroke was never meant as a line. A touch the system took
        // away (device unplugged, grab) keeps its work: the line completes where the finger was last seen.
        let kept = touches.filter { $0.cancellationReason == .system }
        for touch in touches.subtracting(kept) {
            if let line = linesInProgress.removeValue(forKey: touch.identifier), line.isVisible {
                damage.add(line.line.bounds(width: lineWidth))
            }
        }
        complete(kept, updatingLocation: false)
    }

    private func update(_ touch: Touch) {
        guard var line = linesInProgress[touch.identifier] else { return }
        let point = touch.location(in: self)
        guard point.isFinite else { return }
        if line.isVisible { damage.add(line.line.bounds(width: lineWidth)) }
        line.end = point
        if !line.isVisible, line.begin.distance(to: point) > tapSlop { line.isVisible = true }
        if line.isVisible { damage.add(line.line.bounds(width: lineWidth)) }
        linesInProgress[touch.identifier] = line
    }

    private func complete(_ touches: Set<Touch>, updatingLocation: Bool = true) {
        var added: [Line] = []
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            if updatingLocation { update(touch) }
            guard let line = linesInProgress.removeValue(forKey: touch.identifier), line.isVisible else { continue }
            added.append(line.line)
            damage.add(line.line.bounds(width: lineWidth))
        }
        guard !added.isEmpty else { return }
        drawing.lines.append(contentsOf: added)
        damage.completeLinesChanged = true
        onEdit?(drawing)
    }
}
