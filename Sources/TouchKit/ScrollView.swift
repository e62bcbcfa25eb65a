/// A view whose origin moves over its content, and which zooms it (UIKit's `UIScrollView`).
///
/// `contentOffset` is `bounds.origin`, as in UIKit: subviews are placed in content coordinates and move as the offset
/// changes. The scroll view drags with its own `panGestureRecognizer`, zooms the delegate's `viewForZooming(in:)`
/// with its own `pinchGestureRecognizer`, glides after a flick at `decelerationRate` on the window's clock, and holds
/// back or hands on the touches that begin on its content by UIKit's rules (`delaysContentTouches`,
/// `touchesShouldBegin(_:with:in:)`, `canCancelContentTouches`, `touchesShouldCancel(in:)`).
///
/// The scroll view is the delegate of its two recognizers (UIKit requires it): subclass to answer their delegate
/// questions, and configure them directly (touch types, numbers of touches, failure requirements).
open class ScrollView: View, GestureRecognizerDelegate {
    /// Told of scrolling, dragging, deceleration and zooming, and asked for the view to zoom. Held weakly.
    public weak var delegate: (any ScrollViewDelegate)?

    /// The drag that scrolls. Its delegate is the scroll view.
    public let panGestureRecognizer = PanGestureRecognizer()
    /// The pinch that zooms (and, with two fingers, scrolls). Its delegate is the scroll view. It begins only while
    /// zooming is possible: a `viewForZooming(in:)` and `minimumZoomScale < maximumZoomScale`.
    public let pinchGestureRecognizer = PinchGestureRecognizer()
    /// Holds back and hands on the touches that begin on the content.
    let contentTouchRecognizer = ContentTouchGestureRecognizer()

    /// The size of the content, in the scroll view's coordinates. Zooming sets it to the zoomed view's size.
    public var contentSize: Size = .zero
    /// Room to scroll around the content. `EdgeInsets.unbounded` takes every edge away.
    public var contentInset: EdgeInsets = .zero

    /// Whether the user may drag. False disables `panGestureRecognizer` (programmatic scrolling still works).
    public var isScrollEnabled = true {
        didSet { panGestureRecognizer.isEnabled = isScrollEnabled }
    }
    /// Whether a touch on the content waits `contentTouchDelay` (or for the finger to lift) before the content
    /// sees it, so a drag that starts on the content scrolls without the content ever seeing it. UIKit's default,
    /// true.
    public var delaysContentTouches = true
    /// How long `delaysContentTouches` holds a touch back: UIKit's is not documented; 150 ms is what it measures.
    public var contentTouchDelay: TimeInterval = 0.15
    /// Whether a drag may take touches the content has begun to see (it gets `touchesCancelled`). False: once the
    /// content has seen a touch, that touch never scrolls. UIKit's default, true.
    public var canCancelContentTouches = true

    /// How quickly a flick's glide slows down: the velocity is multiplied by this every millisecond.
    public var decelerationRate: DecelerationRate = .normal
    /// The time between two frames of a glide or an animation on the window's clock (a TouchKit addition: UIKit
    /// follows the display).
    public var animationFrameInterval: TimeInterval = 1.0 / 60

    /// Whether the user is dragging the content (the pan has begun and not ended).
    public internal(set) var isDragging = false
    /// Whether the content glides after a flick.
    public var isDecelerating: Bool { deceleration != nil }
    /// Whether a pinch is zooming.
    public internal(set) var isZooming = false
    /// Whether fingers the scroll view could drag or zoom with are down (they may not have moved yet).
    public var isTracking: Bool {
        !panGestureRecognizer.touches.isEmpty || !pinchGestureRecognizer.touches.isEmpty
    }

    /// The smallest and largest `zoomScale`. Both 1 by default, which turns zooming off (as in UIKit).
    public var minimumZoomScale: Double = 1 {
        didSet { keepZoomScaleInRange() }
    }
    public var maximumZoomScale: Double = 1 {
        didSet { keepZoomScaleInRange() }
    }

    // MARK: State kept for the extensions

    var zoomScaleValue: Double = 1
    var deceleration: Deceleration?
    var decelerationTimer: TimerToken?
    var animation: ScrollAnimation?
    var animationTimer: TimerToken?
    /// The content point the pinch holds under its centre, the zoom it started from, and the touches it was taken
    /// with (a finger lifting or coming back takes it again, so the content does not jump).
    var pinchAnchor: (point: Point, scale: Double, touches: [ObjectIdentifier])?

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        isMultipleTouchEnabled = true
        panGestureRecognizer.name = "ScrollView.pan"
        pinchGestureRecognizer.name = "ScrollView.pinch"
        contentTouchRecognizer.name = "ScrollView.contentTouches"
        panGestureRecognizer.delegate = self
        pinchGestureRecognizer.delegate = self
        panGestureRecognizer.addTarget(self) { scrollView, pan in scrollView.handlePan(pan) }
        pinchGestureRecognizer.addTarget(self) { scrollView, pinch in scrollView.handlePinch(pinch) }
        addGestureRecognizer(contentTouchRecognizer)
        addGestureRecognizer(panGestureRecognizer)
        addGestureRecognizer(pinchGestureRecognizer)
    }

    // MARK: Offset

    /// The point of the content at the scroll view's top-left corner: its `bounds.origin`. Setting it tells the
    /// delegate (`scrollViewDidScroll`); it is not clamped, as in UIKit (drags, glides and zooms are).
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue.isFinite, newValue != bounds.origin else { return }
            bounds.origin = newValue
            delegate?.scrollViewDidScroll(self)
        }
    }

    /// Moves the content to `offset`, at once or in an animation on the window's clock; a glide stops.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        guard offset.isFinite else { return }
        stopDecelerating()
        stopAnimation()
        if animated {
            animate(toScale: zoomScale, offset: offset)
        } else {
            contentOffset = offset
        }
    }

    /// Scrolls as little as needed for `rect` (in the scroll view's coordinates, like `bounds`) to be visible; a
    /// rectangle larger than the view shows its top-left part. Nothing happens when it is visible already.
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        guard !rect.isNull, rect.origin.isFinite, rect.width.isFinite, rect.height.isFinite else { return }
        func axis(_ offset: Double, _ length: Double, _ low: Double, _ high: Double) -> Double {
            if low < offset || high - low > length { return low }
            if high > offset + length { return high - length }
            return offset
        }
        let offset = contentOffset
        let target = clampedContentOffset(
            Point(
                x: axis(offset.x, bounds.width, rect.minX, rect.maxX),
                y: axis(offset.y, bounds.height, rect.minY, rect.maxY)))
        guard target != offset else { return }
        setContentOffset(target, animated: animated)
    }

    /// The offsets a drag, a glide or a zoom may reach: from `-contentInset.left`/`top` to the far edge of the
    /// content plus its inset, less the view's size (the near edge when the content is smaller than the view).
    /// Infinite insets make the range endless.
    public var contentOffsetRange: (min: Point, max: Point) {
        let minX = -contentInset.left
        let minY = -contentInset.top
        let maxX = contentSize.width + contentInset.right - bounds.width
        let maxY = contentSize.height + contentInset.bottom - bounds.height
        return (
            Point(x: minX, y: minY),
            Point(x: maxX.isNaN ? minX : Swift.max(minX, maxX), y: maxY.isNaN ? minY : Swift.max(minY, maxY))
        )
    }

    /// `offset` brought within `contentOffsetRange`.
    public func clampedContentOffset(_ offset: Point) -> Point {
        let range = contentOffsetRange
        return Point(
            x: Swift.min(Swift.max(offset.x, range.min.x), range.max.x),
            y: Swift.min(Swift.max(offset.y, range.min.y), range.max.y))
    }

    // MARK: Content touches

    /// Asked when a touch begins on `view`, part of the content (at once, or after `contentTouchDelay` when
    /// `delaysContentTouches`): false keeps every message about the touch from the view. Default true.
    open func touchesShouldBegin(_ touches: Set<Touch>, with event: TouchEvent?, in view: View) -> Bool { true }

    /// Asked, when `canCancelContentTouches`, as a drag or pinch is about to begin with a touch the content view
    /// `view` has begun to see: true cancels the touch in the view and scrolls, false leaves the touch to the view
    /// and the scroll view does not scroll. Default true (TouchKit has no `UIControl`, for which UIKit says false).
    open func touchesShouldCancel(in view: View) -> Bool { true }

    /// Whether `touch` could become a drag or a pinch of this scroll view: only such touches are held back by
    /// `delaysContentTouches` (a pen the pan does not take reaches the content at once).
    func couldScroll(with touch: Touch) -> Bool {
        let pan = panGestureRecognizer
        let pinch = pinchGestureRecognizer
        return (isScrollEnabled && pan.isEnabled && pan.allowedTouchTypes.contains(touch.type))
            || (isZoomingPossible && pinch.isEnabled && pinch.allowedTouchTypes.contains(touch.type))
    }

    // MARK: The recognizers' delegate (subclasses may override)

    /// The pan and pinch begin only when the content may lose its touches: none of theirs has reached a content
    /// view yet, or `canCancelContentTouches` and `touchesShouldCancel(in:)` allow it. The pinch also needs
    /// zooming to be possible.
    open override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        guard gestureRecognizer === panGestureRecognizer || gestureRecognizer === pinchGestureRecognizer else {
            return true
        }
        if gestureRecognizer === pinchGestureRecognizer, !isZoomingPossible { return false }
        for touch in gestureRecognizer.touches where touch.viewDelivery == .delivered {
            guard let view = touch.view, view !== self else { continue }
            if !canCancelContentTouches || !touchesShouldCancel(in: view) { return false }
        }
        return true
    }

    /// The pan and the pinch recognize together (two fingers scroll while they zoom).
    open func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        (gestureRecognizer === panGestureRecognizer && other === pinchGestureRecognizer)
            || (gestureRecognizer === pinchGestureRecognizer && other === panGestureRecognizer)
    }

    open func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }

    open func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer
    ) -> Bool { false }

    open func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer
    ) -> Bool { false }

    // MARK: Dragging

    func handlePan(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            stopDecelerating()
            stopAnimation()
            isDragging = true
            delegate?.scrollViewWillBeginDragging(self)
            followPan(pan)
        case .changed:
            followPan(pan)
        case .ended:
            followPan(pan)
            isDragging = false
            // The content moves against the finger.
            let velocity = pan.velocity(in: self) * -1
            endDragging(velocity: isZooming ? .zero : velocity)
        case .cancelled:
            isDragging = false
            delegate?.scrollViewDidEndDragging(self, willDecelerate: false)
        default:
            break
        }
    }

    /// Moves the content by the pan's step since the last report, unless a two-finger pinch is placing it.
    private func followPan(_ pan: PanGestureRecognizer) {
        let step = pan.translation(in: self)
        pan.setTranslation(.zero, in: self)
        if isZooming, pinchGestureRecognizer.numberOfTouches >= 2 { return }
        contentOffset = clampedContentOffset(contentOffset - step)
    }
}
