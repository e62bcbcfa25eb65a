import TouchKit

/// Every distance of DESIGN.md §2, in drawing units (one unit is one pixel on a 100 % screen): stroke widths, the
/// hit radius, slops, gesture distances. The screen's scale is applied only where the drawing meets the window's
/// pixels (input on its way in, painting on its way out), so these are the same size on screen at every scale.
enum InteractionMetrics {
    /// Sets the canvas's, the window's and the controller's recognizers' distances.
    static func apply(to controller: DrawingController) {
        let view = controller.drawingView
        view.lineWidth = 10
        view.hitRadius = 20
        view.tracker.tapSlop = 10
        // Width by speed: 2000 units²/s (a speed in units/s divides it).
        view.tracker.speedWidthFactor = 2000
        view.tracker.minimumSpeedWidth = 1
        view.tracker.maximumSpeedWidth = 20
        view.tracker.minimumPressureWidth = 1
        view.tracker.maximumPressureWidth = 20
        controller.window.tapSlop = 10
        controller.window.multiTapDistance = 45
        for tap in [controller.tapRecognizer, controller.doubleTapRecognizer] {
            tap.allowableMovement = 10
            tap.allowableMultiTapDistance = 45
        }
        controller.longPressRecognizer.allowableMovement = 10
        controller.swipeRecognizer.minimumDistance = 50
        controller.swipeRecognizer.directionSlop = 10
    }
}
