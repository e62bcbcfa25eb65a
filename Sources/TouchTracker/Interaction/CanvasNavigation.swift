import Foundation
import TouchKit

/// The view over the drawing: where the window looks and how large it shows the drawing (DESIGN.md §2b). A
/// TouchKit `ScrollView` (UIKit's model) holds the canvas as its view for zooming, with no edge on any side; this
/// type configures it for a drawing app and answers the conventions of the desktop: the wheel scrolls, Shift+wheel
/// sideways, Ctrl+wheel and a touchpad's pinch zoom about the pointer, keys zoom about the window's centre.
///
/// Fingers on the screen draw: several fingers drawing at once is the app's reason to exist, so by default no
/// touch on the screen scrolls or zooms. With `fingersNavigate` (offered once a pen has been seen, as PencilKit's
/// `pencilOnly` policy) one finger scrolls and two zoom, and only the pen draws.
public final class CanvasNavigation: ScrollViewDelegate {
    public let scrollView: CanvasScrollView
    private unowned let canvas: DrawingView
    /// Told after every change of the view (a scroll or a zoom), with the zoom before it.
    var onChange: ((_ previousZoom: Double) -> Void)?
    private var reportedZoom = 1.0

    /// How far the drawing can be zoomed out and in: at 10 % a 1920-unit window shows 19,200 units, room for the
    /// largest drawings people make; at 1000 % a unit is ten pixels, closer than a line's width needs.
    public static let zoomRange = 0.1...10.0
    /// How far one click of the wheel scrolls, in window units (about three lines of text, as GTK's views).
    public static let wheelNotch = 60.0
    /// How much one click of Ctrl+wheel zooms: four clicks double or halve.
    public static let wheelZoomStep = 1.189_207_115_002_721  // 2^(1/4)
    /// How much Ctrl++ and Ctrl+- zoom: two presses double or halve.
    public static let keyZoomStep = 1.414_213_562_373_095  // 2^(1/2)
    /// How far a touchpad's smooth travel with Ctrl held must go to double the zoom, in window units.
    public static let smoothZoomDoubling = 240.0
    /// Room kept around the drawing when it is fitted to the window, in window units.
    public static let fitMargin = 24.0

    init(canvas: DrawingView, frame: Rect) {
        self.canvas = canvas
        scrollView = CanvasScrollView(frame: frame)
        scrollView.contentInset = .unbounded
        scrollView.minimumZoomScale = Self.zoomRange.lowerBound
        scrollView.maximumZoomScale = Self.zoomRange.upperBound
        // A finger that draws must draw at once: nothing is held back waiting to see whether it scrolls.
        scrollView.delaysContentTouches = false
        scrollView.addSubview(canvas)
        scrollView.delegate = self
        configureRecognizers()
    }

    /// Whether fingers on the screen scroll (one) and zoom (two) while only a pen draws.
    public var fingersNavigate = false {
        didSet {
            scrollView.fingersNavigate = fingersNavigate
            configureRecognizers()
        }
    }

    /// The pan takes fingers only when they navigate; the pinch takes a touchpad's pinch always, and fingers when
    /// they navigate.
    private func configureRecognizers() {
        scrollView.panGestureRecognizer.allowedTouchTypes = fingersNavigate ? [.direct] : []
        scrollView.panGestureRecognizer.isEnabled = fingersNavigate
        scrollView.pinchGestureRecognizer.allowedTouchTypes =
            fingersNavigate ? [.direct, .indirectPointer] : [.indirectPointer]
    }

    // MARK: The view

    /// Which part of the drawing the window shows.
    public var viewport: Viewport {
        Viewport(zoom: scrollView.zoomScale, offset: scrollView.contentOffset)
    }

    /// Shows the drawing as `viewport` says (window memory, replay), its zoom held within `zoomRange`.
    public func show(_ viewport: Viewport) {
        guard viewport.offset.isFinite, viewport.zoom.isFinite, viewport.zoom > 0 else { return }
        scrollView.setZoomScale(viewport.zoom, anchoredAt: scrollView.contentOffset, animated: false)
        scrollView.setContentOffset(viewport.offset, animated: false)
        settle()
    }

    /// Follows the window's new size: the drawing stays where it is under the window's top-left corner.
    func resize(to size: Size) {
        let offset = scrollView.contentOffset
        scrollView.frame = Rect(origin: .zero, size: size)
        scrollView.contentOffset = offset
    }

    /// Scrolls by `delta` window units (the drawing moves the other way).
    public func scroll(by delta: Point) {
        guard delta.isFinite, delta != .zero else { return }
        scrollView.setContentOffset(scrollView.contentOffset + delta, animated: false)
        report()
    }

    /// Multiplies the zoom by `factor`, keeping the drawing point under `anchor` (window units) under it.
    public func zoom(by factor: Double, around anchor: Point) {
        guard factor.isFinite, factor > 0 else { return }
        zoom(to: scrollView.zoomScale * factor, around: anchor)
    }

    /// Zooms to `zoom` (held within `zoomRange`), keeping the drawing point under `anchor` under it.
    public func zoom(to zoom: Double, around anchor: Point) {
        guard anchor.isFinite, zoom.isFinite, zoom > 0 else { return }
        let target = Self.onLadder(zoom.clamped(to: Self.zoomRange))
        scrollView.setZoomScale(target, anchoredAt: anchor + scrollView.contentOffset, animated: false)
        settle()
    }

    /// `zoom`, when it is within rounding of a step of the ladder the wheel and the keys climb (2^(n/4)), exactly
    /// that step: four clicks in are 2, not 1.9999999999999998, and the offset that holds a point still is that
    /// point's, so the drawing's numbers stay the ones the user drew. A pinch's zoom is left as it is.
    static func onLadder(_ zoom: Double) -> Double {
        let steps = 4 * log2(zoom)
        let step = steps.rounded()
        guard abs(steps - step) < 1e-6 else { return zoom }
        return pow(2, step / 4)
    }

    /// `value` to the nearest 1/`steps` when it is only rounding away from it (a billionth), else as it is.
    private static func snapped(_ value: Double, to steps: Double) -> Double {
        let snapped = (value * steps).rounded() / steps
        return snapped.isFinite && abs(snapped - value) < 1e-9 ? snapped : value
    }

    /// Rounds away the last bits of the offset a zoom left, and reports the change.
    private func settle() {
        let offset = scrollView.contentOffset
        scrollView.contentOffset = Point(x: Self.snapped(offset.x, to: 1e6), y: Self.snapped(offset.y, to: 1e6))
        report()
    }

    /// Zooms and scrolls so `rect` (drawing units) fills the window with `fitMargin` around it, as far as the zoom
    /// range allows, centred. An empty drawing shows its origin at 100 %.
    public func fit(_ rect: Rect) {
        let size = scrollView.bounds.size
        guard !rect.isNull, rect.origin.isFinite, rect.width.isFinite, rect.height.isFinite else {
            show(.actualSize)
            return
        }
        let room = Size(
            width: Swift.max(1, size.width - 2 * Self.fitMargin), height: Swift.max(1, size.height - 2 * Self.fitMargin)
        )
        let fit = Swift.min(
            rect.width > 0 ? room.width / rect.width : .infinity,
            rect.height > 0 ? room.height / rect.height : .infinity)
        let zoom = (fit.isFinite ? fit : 1).clamped(to: Self.zoomRange)
        let centre = rect.center
        show(
            Viewport(
                zoom: zoom, offset: Point(x: centre.x * zoom - size.width / 2, y: centre.y * zoom - size.height / 2)))
    }

    /// Scrolls as little as needed for `rect` (drawing units) to show, with a little room around it: the keyboard
    /// cursor and the shape Tab selects stay in view.
    public func keepVisible(_ rect: Rect) {
        guard !rect.isNull, rect.origin.isFinite else { return }
        let room = Self.fitMargin
        let shown = viewport.windowRect(of: rect).insetBy(dx: -room, dy: -room)
        let size = scrollView.bounds.size
        func step(_ low: Double, _ high: Double, _ length: Double) -> Double {
            if high - low > length || low < 0 { return low }
            if high > length { return high - length }
            return 0
        }
        scroll(by: Point(x: step(shown.minX, shown.maxX, size.width), y: step(shown.minY, shown.maxY, size.height)))
    }

    /// A wheel or touchpad scroll: Ctrl zooms about the pointer; otherwise the view moves, a wheel's vertical
    /// clicks sideways with Shift.
    public func scroll(_ input: ScrollInput) {
        if input.control {
            let clicks = input.notches.y + input.notches.x
            let travel = input.distance.y + input.distance.x
            let factor =
                pow(Self.wheelZoomStep, -clicks) * pow(2, -travel / Self.smoothZoomDoubling)
            zoom(by: factor, around: input.location)
            return
        }
        var clicks = input.notches
        if input.shift, clicks.x == 0 { clicks = Point(x: clicks.y, y: 0) }
        scroll(by: clicks * Self.wheelNotch + input.distance)
    }

    // MARK: ScrollViewDelegate

    public func viewForZooming(in scrollView: ScrollView) -> View? { canvas }

    public func scrollViewDidScroll(_ scrollView: ScrollView) { report() }

    public func scrollViewDidZoom(_ scrollView: ScrollView) { report() }

    /// A pinch ended: its offset is rounded as every other zoom's.
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) { settle() }

    /// Tells `onChange` once per change of the view, whichever way it came.
    private func report() {
        let now = viewport
        guard now != lastReported else { return }
        lastReported = now
        let before = reportedZoom
        reportedZoom = now.zoom
        onChange?(before)
    }

    private var lastReported = Viewport.actualSize
}

/// The scroll view under the canvas: it keeps from the canvas the touches that only navigate — a touchpad's
/// pinch (TouchKit's virtual fingers), and fingers on the screen while they navigate — so they never draw.
public final class CanvasScrollView: ScrollView {
    var fingersNavigate = false

    public override func touchesShouldBegin(_ touches: Set<Touch>, with event: TouchEvent?, in view: View) -> Bool {
        !touches.contains { touch in
            touch.platformID >= TouchpadGestureBridge.identifierBase || (fingersNavigate && touch.type == .direct)
        }
    }
}
