import Foundation

/// An animated change of offset and zoom, played on the window's clock: the zoom moves geometrically (each frame
/// multiplies it by the same factor) and the content point at the centre of the view moves in a straight line,
/// eased in and out, so the animation ends exactly at the offset and zoom asked for.
struct ScrollAnimation {
    let startTime: TimeInterval
    let duration: TimeInterval
    let fromScale: Double
    let toScale: Double
    /// The content point (in the zooming view's coordinates, or the scroll view's without one) at the centre of
    /// the view, at the start and at the end.
    let fromCentre: Point
    let toCentre: Point
    let toOffset: Point

    /// Progress at `time`, eased (smoothstep), from 0 to 1.
    func progress(at time: TimeInterval) -> Double {
        guard duration > 0 else { return 1 }
        let t = Swift.min(1, Swift.max(0, (time - startTime) / duration))
        return t * t * (3 - 2 * t)
    }

    func scale(at progress: Double) -> Double {
        fromScale * pow(toScale / fromScale, progress)
    }

    func centre(at progress: Double) -> Point {
        fromCentre + (toCentre - fromCentre) * progress
    }
}

extension ScrollView {
    /// How long `setContentOffset`, `setZoomScale` and `zoom(to:)` animate (UIKit's is not documented; 0.3 s).
    public static let scrollAnimationDuration: TimeInterval = 0.3

    /// Starts an animation to `scale` and `offset` (a scale the zoom cannot take, with no view to zoom, is ignored).
    func animate(toScale scale: Double, offset: Point) {
        guard let clock = window?.clock else {
            if let view = zoomingView { applyZoomScale(scale, to: view) }
            contentOffset = offset
            return
        }
        let view = zoomingView
        let half = Point(x: bounds.width / 2, y: bounds.height / 2)
        let target = view == nil ? zoomScale : scale
        // The content point at the centre now, and the one there at the end (p·scale in the content, see
        // `offsetKeeping`).
        let fromCentre = view.map { $0.convert(contentOffset + half, from: self) } ?? contentOffset + half
        let end = offset + half
        let toCentre = view == nil ? end : Point(x: end.x / target, y: end.y / target)
        animation = ScrollAnimation(
            startTime: clock.now, duration: Self.scrollAnimationDuration, fromScale: zoomScale, toScale: target,
            fromCentre: fromCentre, toCentre: toCentre, toOffset: offset)
        scheduleAnimationFrame()
    }

    private func scheduleAnimationFrame() {
        guard let clock = window?.clock else { return stopAnimation() }
        animationTimer = clock.schedule(after: animationFrameInterval) { [weak self] in self?.animationFrame() }
    }

    private func animationFrame() {
        animationTimer = nil
        guard let animation, let now = window?.clock.now else { return stopAnimation() }
        let progress = animation.progress(at: now)
        let half = Point(x: bounds.width / 2, y: bounds.height / 2)
        if progress >= 1 {
            let zoomed = animation.toScale != animation.fromScale
            if let view = zoomingView { applyZoomScale(animation.toScale, to: view) }
            contentOffset = animation.toOffset
            self.animation = nil
            if zoomed { delegate?.scrollViewDidEndZooming(self, with: zoomingView, atScale: zoomScale) }
            delegate?.scrollViewDidEndScrollingAnimation(self)
            return
        }
        if let view = zoomingView {
            let scale = animation.scale(at: progress)
            applyZoomScale(scale, to: view)
            let centre = animation.centre(at: progress)
            contentOffset = Point(x: centre.x * scale, y: centre.y * scale) - half
        } else {
            contentOffset = animation.centre(at: progress) - half
        }
        scheduleAnimationFrame()
    }

    /// Stops an animation where it is (a drag or a pinch began, or another change was asked for).
    func stopAnimation() {
        if let token = animationTimer { window?.clock.cancel(token) }
        animationTimer = nil
        animation = nil
    }
}
