import TouchKit

/// The delegate decisions of TouchTracker's recognizers.
final class GestureRules: GestureRecognizerDelegate {
    weak var controller: DrawingController?

    /// A long press that does not start on a line or circle does not begin, so that finger keeps drawing.
    func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        guard let controller, gestureRecognizer === controller.longPressRecognizer else { return true }
        return controller.drawingView.shape(at: gestureRecognizer.location(in: controller.drawingView)) != nil
    }
}
