import Testing
import TouchKit

@testable import TouchTracker
@testable import TouchTrackerRender

/// The overlay's bounds are what a frame repaints when it changes: every pixel the overlay paints must lie inside
/// them, or a moved label leaves a trail.
@Suite struct OverlayBoundsTests {
    @Test("a touch's long label beside its ring lies inside the overlay's bounds", arguments: [1.0, 2.0])
    func longTouchLabelIsInsideTheBounds(scale: Double) throws {
        let canvasRect = Rect(x: 0, y: 0, width: 800, height: 400)
        let canvas = try CairoSurface(width: 800, height: 400)
        let context = try CairoContext(surface: canvas)
        context.paint(solid: .white)
        var overlay = Overlay()
        overlay.inspector = InspectorSnapshot(
            touches: [
                InspectorSnapshot.TouchMark(
                    id: 12, location: Point(x: 100, y: 250), phase: "cancelled", type: "pointer")
            ], recognizers: [], scale: scale)
        let painter = OverlayPainter(overlay, canvas: canvasRect, translate: untranslated, in: context)
        let bounds = painter.bounds
        painter.paint(in: context)
        canvas.flush()
        // Below the inspector's panel (top left), every painted pixel is the touch's ring or label.
        var outside: [(Int, Int)] = []
        for y in 150..<400 {
            for x in 0..<800 where canvas.pixel(x: x, y: y)! != (255, 255, 255) {
                if !bounds.contains(Point(x: Double(x) + 0.5, y: Double(y) + 0.5)) { outside.append((x, y)) }
            }
        }
        #expect(outside.isEmpty, "\(outside.prefix(5))")
    }
}
