import TouchKit

/// Which part of the drawing the window shows, and how large: a window point is `drawing point × zoom − offset`
/// (window units, DESIGN.md §2a). The drawing has no edge, so any offset is a place the window can be.
///
/// The view of the drawing is the controller's (`CanvasNavigation`); the renderer reads it each frame to turn the
/// drawing's units into the canvas's pixels, the screen's scale on top.
public struct Viewport: Hashable, Sendable, CustomStringConvertible {
    /// Window units per drawing unit: 1 is 100 %.
    public var zoom: Double
    /// The window's top-left corner in the zoomed drawing: the drawing point there, times `zoom`.
    public var offset: Point

    public init(zoom: Double = 1, offset: Point = .zero) {
        self.zoom = zoom
        self.offset = offset
    }

    /// 100 %, the drawing's origin at the window's top-left corner: the view before zoom and scroll existed, and
    /// replay's and export's unless they ask otherwise.
    public static let actualSize = Viewport()

    /// Where the drawing point `point` shows in the window.
    public func windowPoint(of point: Point) -> Point {
        Point(x: point.x * zoom - offset.x, y: point.y * zoom - offset.y)
    }

    /// The drawing point the window shows at `point`.
    public func drawingPoint(at point: Point) -> Point {
        Point(x: (point.x + offset.x) / zoom, y: (point.y + offset.y) / zoom)
    }

    /// Where the drawing's `rect` shows in the window.
    public func windowRect(of rect: Rect) -> Rect {
        guard !rect.isNull else { return rect }
        let origin = windowPoint(of: rect.origin)
        return Rect(x: origin.x, y: origin.y, width: rect.width * zoom, height: rect.height * zoom)
    }

    /// The part of the drawing the window's `rect` shows.
    public func drawingRect(of rect: Rect) -> Rect {
        guard !rect.isNull else { return rect }
        let origin = drawingPoint(at: rect.origin)
        return Rect(x: origin.x, y: origin.y, width: rect.width / zoom, height: rect.height / zoom)
    }

    /// The part of the drawing a window of `size` shows.
    public func visibleRect(in size: Size) -> Rect {
        let origin = drawingPoint(at: .zero)
        return Rect(x: origin.x, y: origin.y, width: size.width / zoom, height: size.height / zoom)
    }

    /// The zoom as a whole percentage, as the window says it ("150 %").
    public var percent: Int { Int((zoom * 100).rounded()) }

    public var description: String { "\(percent)% at \(offset)" }
}
