import TouchTracker

/// Which of the notices the window shows a screen reader is told, once each: a notice as it appears, and a standing
/// one (the drawing is not being saved) when it first stands, not again each time a passing notice gives way to it.
struct NoticeAnnouncer {
    /// The notice shown at the last look.
    private var shown: Message?
    /// How many passing notices had been shown at the last look.
    private var passingShown = 0
    /// The standing notice already said, until it stops standing.
    private var saidStanding: Message?

    /// What to say now, given the notice the window `shows`, the one `standing` behind passing ones, and how many
    /// passing notices have been shown (`passingShown`: one shown again, Ctrl+C twice, is said again).
    mutating func toAnnounce(shows notice: Message?, standing: Message?, passingShown: Int = 0) -> Message? {
        // A standing notice that stopped standing (or became another) is said again when it stands again.
        if saidStanding != standing { saidStanding = nil }
        let shownAgain = passingShown != self.passingShown
        self.passingShown = passingShown
        guard notice != shown || (shownAgain && notice != nil) else { return nil }
        shown = notice
        guard let notice else { return nil }
        if notice == standing, !shownAgain {
            guard notice != saidStanding else { return nil }
            saidStanding = notice
        }
        return notice
    }
}
