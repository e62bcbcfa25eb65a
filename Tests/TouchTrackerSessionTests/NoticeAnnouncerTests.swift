import Testing
import TouchTracker

@testable import TouchTrackerSession

/// What a screen reader is told of the notices the window shows: each as it appears, a standing one once.
@Suite struct NoticeAnnouncerTests {
    let standing = Message.notSaved(reason: "the disk is full")

    @Test("a standing notice is said when it first stands, not again when a passing notice gives way to it")
    func standingNoticeIsSaidOnce() {
        var announcer = NoticeAnnouncer()
        let said = [
            announcer.toAnnounce(shows: standing, standing: standing),
            announcer.toAnnounce(shows: .copiedSelection, standing: standing),
            announcer.toAnnounce(shows: standing, standing: standing),
        ]
        #expect(said == [standing, .copiedSelection, nil])
    }

    @Test("a standing notice that stopped standing is said again when it stands again")
    func standingAgainIsSaidAgain() {
        var announcer = NoticeAnnouncer()
        _ = announcer.toAnnounce(shows: standing, standing: standing)
        _ = announcer.toAnnounce(shows: nil, standing: nil)
        #expect(announcer.toAnnounce(shows: standing, standing: standing) == standing)
    }

    @Test("a passing notice shown again after another is said again")
    func passingNoticeIsSaidEachTime() {
        var announcer = NoticeAnnouncer()
        let said = [
            announcer.toAnnounce(shows: .copiedSelection, standing: nil),
            announcer.toAnnounce(shows: .copiedSelection, standing: nil),
            announcer.toAnnounce(shows: .copiedDrawing, standing: nil),
            announcer.toAnnounce(shows: .copiedSelection, standing: nil),
        ]
        #expect(said == [.copiedSelection, nil, .copiedDrawing, .copiedSelection])
    }

    @Test("the same passing notice shown again (Ctrl+C twice) is said again")
    func sameNoticeShownAgainIsSaidAgain() {
        var announcer = NoticeAnnouncer()
        let said = [
            announcer.toAnnounce(shows: .copiedSelection, standing: nil, passingShown: 1),
            announcer.toAnnounce(shows: .copiedSelection, standing: nil, passingShown: 1),
            announcer.toAnnounce(shows: .copiedSelection, standing: nil, passingShown: 2),
        ]
        #expect(said == [.copiedSelection, nil, .copiedSelection])
    }
}
