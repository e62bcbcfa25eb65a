import Testing
import TouchKit
import TouchTracker

@testable import TouchTrackerAccessibility

/// What a screen reader is told of the shapes through the view over the drawing (DESIGN.md §2b): their places on
/// the screen follow the zoom and the scroll, and only shapes in view are showing.
@Suite struct AccessibleViewTests {
    /// A 400x300 window at (1000, 500) on the screen, at `scale`, with two lines: one near the origin, one far off.
    private static func scene(viewport: Viewport, scale: Double = 1) -> AccessibleScene {
        let shapes = ShapeCollection(lines: [
            Line(begin: Point(x: 100, y: 100), end: Point(x: 200, y: 100)),
            Line(begin: Point(x: 5000, y: 5000), end: Point(x: 5100, y: 5000)),
        ])
        return AccessibleScene(
            windowTitle: "TouchTracker", windowOrigin: Point(x: 1000, y: 500),
            windowSize: Size(width: 400 * scale, height: 300 * scale), scale: scale, viewport: viewport,
            shapes: shapes, selection: nil, translate: untranslated)
    }

    @Test("zoomed to 200 % and scrolled, a line's extents on the screen are its stroke through the view and the scale")
    func extentsFollowTheView() throws {
        let scene = Self.scene(viewport: Viewport(zoom: 2, offset: Point(x: 100, y: 50)), scale: 1.5)
        let line = try #require(scene.shape(at: 0))
        let box = scene.screenExtents(of: line.shape, lineWidth: 10)
        // Stroke box (94, 94)–(206, 106) in units (half the pen and a unit for antialiasing); ×2 − (100, 50) →
        // (88, 138)–(312, 162); ×1.5 + (1000, 500).
        #expect(box == Rect(x: 1132, y: 707, width: 336, height: 36), "\(box)")
    }

    @Test("only shapes in view are showing: scrolled to the far line, the near one is not")
    func showingFollowsTheView() throws {
        let near = try #require(Self.scene(viewport: .actualSize).shape(at: 0)).id
        let far = try #require(Self.scene(viewport: .actualSize).shape(at: 1)).id
        let atOrigin = Self.scene(viewport: .actualSize)
        #expect(AccessibleNode.shape(near).states(in: atOrigin, lineWidth: 10).contains(.showing))
        #expect(!AccessibleNode.shape(far).states(in: atOrigin, lineWidth: 10).contains(.showing))
        let there = Self.scene(viewport: Viewport(zoom: 1, offset: Point(x: 4900, y: 4900)))
        #expect(!AccessibleNode.shape(near).states(in: there, lineWidth: 10).contains(.showing))
        #expect(AccessibleNode.shape(far).states(in: there, lineWidth: 10).contains(.showing))
    }
}
