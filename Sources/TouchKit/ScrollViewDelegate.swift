/// What a scroll view tells, and asks, the object that manages its content (UIKit's `UIScrollViewDelegate`). Every
/// method has a default, so implement only what you need.
public protocol ScrollViewDelegate: AnyObject {
    /// `contentOffset` changed: by a drag, a deceleration's frame, a zoom, an animation or the program.
    func scrollViewDidScroll(_ scrollView: ScrollView)
    /// `zoomScale` changed.
    func scrollViewDidZoom(_ scrollView: ScrollView)
    /// The view that zooms: it gets the zoom as its `transform`. Nil (the default) turns zooming off.
    func viewForZooming(in scrollView: ScrollView) -> View?
    /// A drag is about to move the content (the pan gesture began).
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The fingers lifted after a drag. `velocity` is the content offset's, in points per millisecond (as UIKit
    /// gives it); `targetContentOffset` is where the deceleration will come to rest, and may be changed.
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point)
    /// The drag ended; `decelerate` tells whether the content goes on moving.
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// The content is about to glide after a flick.
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    /// The glide after a flick is over: it came to rest, or a touch stopped it.
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    /// A pinch is about to zoom `view`.
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?)
    /// A pinch, or an animated change of zoom, ended at `scale`.
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double)
    /// An animation started by `setContentOffset(_:animated:)`, `setZoomScale(_:animated:)` or
    /// `zoom(to:animated:)` ended.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewDidZoom(_ scrollView: ScrollView) {}
    public func viewForZooming(in scrollView: ScrollView) -> View? { nil }
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) {}
    public func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
}
