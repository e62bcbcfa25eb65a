import TouchTracker

/// Which of the notices the window shows a screen reader is told, once each: a notice as it appears, and a standing
/// one (the drawing is not being saved) when it first stands, not again each time a passing notice gives way to it.
struct NoticeAnnouncer {
    /// The notice shown at the last look.
    private var shown: Message?
    /// The standing notice already said, until it stops standing.
    private var saidStanding: Message?

    /// What to say now, given the notice the window `shows` and the one `standing` behind passing ones.
    mutating func toAnnounce(shows notice: Message?, standing: Message?) -> Message? {
        // A standing notice that stopped standing (or became another) is said again when it stands again.
        if saidStanding != standing { saidStanding = nil }
        guard notice != shown else { return nil }
        shown = notice
        guard let notice else { return nil }
        if notice == standing {
            guard notice != saidStanding else { return nil }
            saidStanding = notice
        }
        return notice
    }
}
