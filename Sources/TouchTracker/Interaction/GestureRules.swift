import TouchKit

/// The delegate decisions of TouchTracker's recognizers.
final class GestureRules: GestureRecognizerDelegate {
    weak var controller: DrawingController?

    /// A long press that does not start on a line or circle does not begin, so that finger keeps drawing.
    func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        guard let controller, let press = gestureRecognizer as? LongPressGestureRecognizer,
            press === controller.longPressRecognizer
        else { return true }
        // Where the finger was held, which is where it is unless it moved while the press waited to begin.
        let view = controller.drawingView
        return view.shape(at: press.heldLocation(in: view) ?? press.location(in: view)) != nil
    }
}
