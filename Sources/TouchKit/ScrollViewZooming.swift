extension ScrollView {
    /// The view that zooms: the delegate's `viewForZooming(in:)`, when it is one of the scroll view's subviews.
    var zoomingView: View? {
        guard let view = delegate?.viewForZooming(in: self), view.superview === self else {
            return nil
        }
        return view
    }

    /// Whether a pinch may zoom: there is a view to zoom and a range of scales to zoom in.
    var isZoomingPossible: Bool { minimumZoomScale < maximumZoomScale && zoomingView != nil }

    /// How much the zooming view is scaled, within `minimumZoomScale…maximumZoomScale`. Setting it zooms about the
    /// centre of the visible area (without a view to zoom it stays 1).
    public var zoomScale: Double {
        get { zoomScaleValue }
        set { setZoomScale(newValue, animated: false) }
    }

    /// Zooms about the centre of the visible area: the content point there stays there.
    public func setZoomScale(_ scale: Double, animated: Bool) {
        setZoomScale(
            scale, anchoredAt: contentOffset + Point(x: bounds.width / 2, y: bounds.height / 2), animated: animated)
    }

    /// Zooms so that the content point under `anchor` (in the scroll view's coordinates) stays under it: the
    /// pointer for a Ctrl+wheel, the window's centre for a key (a TouchKit addition; UIKit offers `zoom(to:)`).
    /// The offset is then held within `contentOffsetRange`.
    public func setZoomScale(_ scale: Double, anchoredAt anchor: Point, animated: Bool) {
        guard scale.isFinite, scale > 0, anchor.isFinite, let view = zoomingView else { return }
        stopDecelerating()
        stopAnimation()
        let target = clampedZoomScale(scale)
        let point = view.convert(anchor, from: self)
        let visible = anchor - contentOffset
        if animated {
            // Where the zoom would put the content, worked out on the target scale without showing it.
            let offset = offsetKeeping(point, of: view, at: visible, scale: target)
            animate(toScale: target, offset: offset)
        } else {
            applyZoomScale(target, to: view)
            place(point, of: view, at: visible)
        }
    }

    /// Zooms so that `rect`, in the zooming view's coordinates, fills the scroll view as far as the zoom range
    /// allows, centred.
    public func zoom(to rect: Rect, animated: Bool) {
        guard let view = zoomingView, !rect.isNull, rect.width > 0 || rect.height > 0, rect.center.isFinite else {
            return
        }
        stopDecelerating()
        stopAnimation()
        let fit = Swift.min(
            rect.width > 0 ? bounds.width / rect.width : .infinity,
            rect.height > 0 ? bounds.height / rect.height : .infinity)
        let target = clampedZoomScale(fit)
        let centre = Point(x: bounds.width / 2, y: bounds.height / 2)
        let offset = offsetKeeping(rect.center, of: view, at: centre, scale: target)
        if animated {
            animate(toScale: target, offset: offset)
        } else {
            applyZoomScale(target, to: view)
            contentOffset = offset
        }
    }

    func clampedZoomScale(_ scale: Double) -> Double {
        Swift.min(Swift.max(scale, minimumZoomScale), Swift.max(minimumZoomScale, maximumZoomScale))
    }

    func keepZoomScaleInRange() {
        let scale = clampedZoomScale(zoomScaleValue)
        if scale != zoomScaleValue { zoomScale = scale }
    }

    /// Gives `view` the zoom as its transform, with its bounds' origin at the content's origin (as UIKit lays the
    /// zooming view out), and makes the content its zoomed size.
    func applyZoomScale(_ scale: Double, to view: View) {
        guard scale != zoomScaleValue || view.transform != AffineTransform(scaleX: scale, y: scale) else { return }
        view.transform = AffineTransform(scaleX: scale, y: scale)
        view.center = Point(x: view.bounds.midX * scale, y: view.bounds.midY * scale)
        contentSize = Size(width: view.bounds.width * scale, height: view.bounds.height * scale)
        zoomScaleValue = scale
        delegate?.scrollViewDidZoom(self)
    }

    /// Scrolls so that `point` of `view` shows at `visible` (relative to the scroll view's top-left corner), held
    /// within `contentOffsetRange`.
    func place(_ point: Point, of view: View, at visible: Point) {
        contentOffset = clampedContentOffset(convert(point, from: view) - visible)
    }

    /// The offset that shows `point` of `view` at `visible` once the zoom is `scale`. The zooming view's centre is
    /// its bounds' centre times the scale, so its point p is at (p − centre)·scale + centre·scale = p·scale in the
    /// content at every scale. Held within `contentOffsetRange` as it is once the content has that size.
    func offsetKeeping(_ point: Point, of view: View, at visible: Point, scale: Double) -> Point {
        let size = contentSize
        contentSize = Size(width: view.bounds.width * scale, height: view.bounds.height * scale)
        defer { contentSize = size }
        return clampedContentOffset(Point(x: point.x * scale, y: point.y * scale) - visible)
    }

    // MARK: Pinching

    func handlePinch(_ pinch: PinchGestureRecognizer) {
        guard let view = zoomingView else { return }
        switch pinch.state {
        case .began:
            stopDecelerating()
            stopAnimation()
            isZooming = true
            delegate?.scrollViewWillBeginZooming(self, with: view)
            anchorPinch(pinch, on: view, fromTouchDown: true)
            followPinch(pinch, on: view)
        case .changed:
            followPinch(pinch, on: view)
        case .ended, .cancelled:
            isZooming = false
            pinchAnchor = nil
            delegate?.scrollViewDidEndZooming(self, with: view, atScale: zoomScale)
        default:
            break
        }
    }

    /// A finger went down during a zoom: if it joins the pinch's pair (one had lifted), the anchor is taken again
    /// now, from where the fingers are as it goes down, so the content does not jump at the pinch's next move.
    func touchJoinedPinch() {
        let pinch = pinchGestureRecognizer
        guard isZooming, pinch.touches.count == 2, let view = zoomingView else { return }
        anchorPinch(pinch, on: view, fromTouchDown: false)
    }

    /// Takes the content point under the pinch's centre as the one to hold there, and the zoom the pinch's scale
    /// multiplies. When the pinch begins its scale counts from the fingers' touch-down, the travel before it began
    /// included (as a drag's translation does), so the content catches up with the fingers at once and then stays
    /// under them; when a finger of the pair is replaced, the scale starts again from 1.
    private func anchorPinch(_ pinch: PinchGestureRecognizer, on view: View, fromTouchDown: Bool) {
        if !fromTouchDown { pinch.scale = 1 }
        pinchAnchor = (
            view.convert(pinch.location(in: nil), from: nil), zoomScale,
            pinch.touches.map { ObjectIdentifier($0) }
        )
    }

    /// Zooms by the pinch's scale since it was anchored, and scrolls so that the anchored content point is under
    /// the fingers' centre (which also pans when the fingers move together).
    private func followPinch(_ pinch: PinchGestureRecognizer, on view: View) {
        if pinchAnchor?.touches != pinch.touches.map({ ObjectIdentifier($0) }) {
            anchorPinch(pinch, on: view, fromTouchDown: false)
        }
        guard let anchor = pinchAnchor else { return }
        let visible = convert(pinch.location(in: nil), from: nil) - contentOffset
        applyZoomScale(clampedZoomScale(anchor.scale * pinch.scale), to: view)
        place(anchor.point, of: view, at: visible)
    }
}
