import TouchKit

/// Every distance of DESIGN.md §2 at 96 dpi, times a HiDPI scale (device pixels per 96-dpi pixel), so the app has
/// the same physical size at any resolution: stroke widths, the hit radius, slops, gesture distances.
struct InteractionMetrics {
    let scale: Double

    /// Sets the canvas's, the window's and the controller's recognizers' distances.
    func apply(to controller: DrawingController) {
        let view = controller.drawingView
        view.lineWidth = 10 * scale
        view.hitRadius = 20 * scale
        view.tracker.tapSlop = 10 * scale
        // Width by speed: 2000 px²/s at scale 1 (a speed in px/s divides it), so it grows with the square.
        view.tracker.speedWidthFactor = 2000 * scale * scale
        view.tracker.minimumSpeedWidth = 1 * scale
        view.tracker.maximumSpeedWidth = 20 * scale
        view.tracker.minimumPressureWidth = 1 * scale
        view.tracker.maximumPressureWidth = 20 * scale
        controller.window.tapSlop = 10 * scale
        controller.window.multiTapDistance = 45 * scale
        for tap in [controller.tapRecognizer, controller.doubleTapRecognizer] {
            tap.allowableMovement = 10 * scale
            tap.allowableMultiTapDistance = 45 * scale
        }
        controller.longPressRecognizer.allowableMovement = 10 * scale
        controller.swipeRecognizer.minimumDistance = 50 * scale
        controller.swipeRecognizer.directionSlop = 10 * scale
    }
}
