internal import CWayland
import Glibc
import TouchTrackerSession

/// When frames reached the screen, from the compositor's presentation feedback (`wp_presentation`), for
/// `--trace-frames`: each committed frame asks for feedback, and `presented` is turned from the compositor's clock
/// (weston's is CLOCK_MONOTONIC_RAW) onto the app's monotonic time line, so it compares with input times.
final class PresentationClock {
    private let presentation: OpaquePointer
    /// The compositor's presentation clock (`WaylandGlobals.presentationClockID`).
    private let clock: clockid_t
    /// Held so the connection is closed only after this object's proxies are destroyed.
    private let connection: WaylandConnection
    private let feedbackListener: WaylandListener<wp_presentation_feedback_listener>
    private var outstanding: Set<OpaquePointer> = []
    /// Called with the monotonic time a frame was shown.
    private let shown: (Double) -> Void

    init(
        connection: WaylandConnection, presentation: OpaquePointer, clock: clockid_t,
        shown: @escaping (Double) -> Void
    ) {
        self.connection = connection
        self.presentation = presentation
        self.clock = clock
        self.shown = shown
        feedbackListener = WaylandListener(
            wp_presentation_feedback_listener(
                sync_output: { _, _, _ in },
                presented: { data, feedback, secondsHigh, secondsLow, nanoseconds, _, _, _, _ in
                    let owner = listenerOwner(data, as: PresentationClock.self)
                    let seconds = Double(UInt64(secondsHigh) << 32 | UInt64(secondsLow)) + Double(nanoseconds) / 1e9
                    owner.finish(feedback)
                    owner.shown(owner.monotonic(seconds))
                },
                discarded: { data, feedback in listenerOwner(data, as: PresentationClock.self).finish(feedback) }))
    }

    deinit {
        // The presentation global itself is `WaylandGlobals`'.
        for feedback in outstanding { wp_presentation_feedback_destroy(feedback) }
    }

    /// Asks for feedback on the next commit of `surface`.
    func requestFeedback(for surface: OpaquePointer) {
        guard let feedback = wp_presentation_feedback(presentation, surface) else { return }
        wp_presentation_feedback_add_listener(feedback, feedbackListener.pointer, listenerData(self))
        outstanding.insert(feedback)
    }

    private func finish(_ feedback: OpaquePointer?) {
        guard let feedback else { return }
        outstanding.remove(feedback)
        wp_presentation_feedback_destroy(feedback)
    }

    /// `seconds` on the compositor's clock as the app's monotonic time.
    private func monotonic(_ seconds: Double) -> Double {
        guard clock != CLOCK_MONOTONIC else { return seconds }
        var now = timespec()
        clock_gettime(clock, &now)
        let compositorNow = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return seconds - compositorNow + MonotonicClock.now()
    }
}
