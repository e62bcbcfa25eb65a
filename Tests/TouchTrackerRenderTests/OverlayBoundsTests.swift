import Testing
import TouchKit

@testable import TouchTracker
@testable import TouchTrackerRender

/// The overlay's bounds are what a frame repaints when it changes: every pixel the overlay paints must lie inside
/// them, or a moved label leaves a trail.
@Suite struct OverlayBoundsTests {
    @Test("a touch's long label beside its ring lies inside the overlay's bounds", arguments: [1.0, 2.0])
    func longTouchLabelIsInsideTheBounds(scale: Double) throws {
        // The overlay is laid out and painted in drawing units, `scale` pixels each, as the renderer does.
        let canvasRect = Rect(x: 0, y: 0, width: 800 / scale, height: 400 / scale)
        let canvas = try CairoSurface(width: 800, height: 400)
        let context = try CairoContext(surface: canvas)
        context.paint(solid: .white)
        context.scale(by: scale)
        var overlay = Overlay()
        overlay.inspector = InspectorSnapshot(
            touches: [
                InspectorSnapshot.TouchMark(
                    id: 12, location: Point(x: 200 / scale, y: 300 / scale), phase: "cancelled", type: "pointer")
            ], recognizers: [])
        let painter = OverlayPainter(overlay, canvas: canvasRect, translate: untranslated, in: context)
        let bounds = painter.bounds.scaled(by: scale)
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
