import TouchKit

/// The one line of text shown at the bottom of the window: a passing notice (an option toggled, a file exported)
/// that goes after a while on the window's clock, over a standing one that stays until it is taken away (the
/// drawing is not saved).
final class NoticeBoard {
    private let clock: Clock
    private(set) var passing: Message?
    private var timer: TimerToken?
    var standing: Message?
    /// How many passing notices have been shown: the same notice shown again (Ctrl+C twice) counts again.
    private(set) var passingShown = 0

    init(clock: Clock) {
        self.clock = clock
    }

    /// What shows now: the passing notice, else the standing one.
    var shown: Message? { passing ?? standing }

    /// Shows `text` for `duration` seconds, in place of any passing notice.
    func show(_ text: Message, for duration: TimeInterval) {
        if let timer { clock.cancel(timer) }
        passing = text
        passingShown += 1
        timer = clock.schedule(after: duration) { [weak self] in
            self?.passing = nil
            self?.timer = nil
        }
    }
}
