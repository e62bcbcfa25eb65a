/// A scroll view's gate for the touches that begin on its content (UIKit's private "delayed touches began" gesture
/// recognizer): it decides, touch by touch, whether and when the content view sees a touch. It never recognizes and
/// never fails, so it takes no part in arbitration; it releases a touch by ignoring it and keeps one from the view by
/// finishing the view's delivery before it began.
///
/// - A touch that goes down while the content glides stops the glide; one the scroll view could drag or zoom with
///   is kept from the content (a tap on a gliding list stops it without choosing a row), any other (a pen the
///   recognizers do not take) goes on as below.
/// - With `delaysContentTouches`, a touch the scroll view could drag or zoom with is held back for
///   `contentTouchDelay`: if the pan or pinch takes it meanwhile, the content never sees it; otherwise, when the
///   time is up or the finger lifts (a quick tap), `touchesShouldBegin(_:with:in:)` is asked.
/// - Any other touch (`delaysContentTouches` false, or a touch of a kind neither recognizer takes) is put to
///   `touchesShouldBegin(_:with:in:)` at once.
/// - `touchesShouldBegin` true hands the touch to its view (`touchesBegan`, the latest move, and its end if it has
///   lifted); false keeps every message about it from the view.
final class ContentTouchGestureRecognizer: GestureRecognizer {
    /// Touches held back, with the timer that hands them on.
    private var delayed: [(touch: Touch, timer: TimerToken?)] = []

    required init() {
        super.init()
        delaysTouchesBegan = true
        delaysTouchesEnded = false
        cancelsTouchesInView = false
    }

    override func canPrevent(_ other: GestureRecognizer) -> Bool { false }
    override func canBePrevented(by other: GestureRecognizer) -> Bool { false }

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        guard let scrollView = view as? ScrollView else {
            for touch in touches { ignore(touch, for: event) }
            return
        }
        scrollView.touchJoinedPinch()
        let stoppedGlide = scrollView.isDecelerating
        scrollView.stopDecelerating()
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            guard let target = touch.view, target !== scrollView else {
                // A touch on the scroll view itself is not the content's: it goes its way at once.
                ignore(touch, for: event)
                continue
            }
            if stoppedGlide, scrollView.couldScroll(with: touch) {
                keepFromView(touch, event: event)
            } else if scrollView.delaysContentTouches, scrollView.couldScroll(with: touch) {
                let timer = scheduleTimer(after: scrollView.contentTouchDelay) { [unowned self] in
                    self.decide(touch, event: self.currentArena?.event)
                }
                delayed.append((touch, timer))
            } else {
                decide(touch, event: event)
            }
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        // A quick tap: the content is asked now, and sees the touch begin and end.
        for touch in touches where delayed.contains(where: { $0.touch === touch }) {
            decide(touch, event: event)
        }
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches { forget(touch, event: event) }
    }

    /// Asks the scroll view whether the content view may have `touch`, unless a drag or pinch took it already.
    private func decide(_ touch: Touch, event: TouchEvent?) {
        guard let scrollView = view as? ScrollView, let target = touch.view, touch.viewDelivery == .withheld else {
            return forget(touch, event: event)
        }
        if scrollView.touchesShouldBegin([touch], with: event, in: target) {
            forget(touch, event: event)
        } else {
            keepFromView(touch, event: event)
        }
    }

    /// The view never sees `touch`: its delivery is over before it began.
    private func keepFromView(_ touch: Touch, event: TouchEvent?) {
        touch.viewDelivery = .finished
        touch.pendingMoveForView = false
        touch.pendingEndForView = false
        forget(touch, event: event)
    }

    /// Stops holding `touch` back: what the view is still owed is delivered at the end of the turn.
    private func forget(_ touch: Touch, event: TouchEvent?) {
        if let index = delayed.firstIndex(where: { $0.touch === touch }) {
            cancelTimer(delayed[index].timer)
            delayed.remove(at: index)
        }
        if tracks(touch) { ignore(touch, for: event) }
    }

    override func reset() {
        super.reset()
        delayed.removeAll()
    }
}
