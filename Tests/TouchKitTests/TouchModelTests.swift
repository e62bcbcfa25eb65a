import Testing

@testable import TouchKit

@Suite struct TouchModelTests {
    @Test("a touch reports its previous location and the time of its last change")
    func previousLocation() {
        let h = Harness()
        h.down(1, 10, 20, at: 0)
        let touch = h.window.activeTouches.first
        h.move(1, 30, 40, at: 0.1)
        h.move(1, 35, 45, at: 0.2)
        #expect(touch?.location(in: nil) == pt(35, 45))
        #expect(touch?.previousLocation(in: nil) == pt(30, 40))
        #expect(touch?.previousLocation(in: h.view) == pt(30, 40))
        #expect(touch?.timestamp == 0.2)
        #expect(touch?.phase == .moved)
    }

    @Test("a touch that did not change in an event is stationary in it; it moves again when it moves")
    func unchangedTouchIsStationary() {
        let h = Harness()
        h.down(1, 10, 20, at: 0)
        h.down(2, 100, 100, at: 0.05)
        h.move(2, 120, 100, at: 0.1)
        let phases = { Dictionary(uniqueKeysWithValues: h.window.activeTouches.map { ($0.platformID, $0.phase) }) }
        #expect(phases() == [1: .stationary, 2: .moved])
        h.move(1, 15, 20, at: 0.2)
        #expect(phases() == [1: .moved, 2: .stationary])
    }

    @Test("a second tap exactly the multi-tap interval after the first counts 2, as the double-tap recognizer does")
    func tapCountAtExactlyTheInterval() {
        let h = Harness()
        h.down(1, 100, 100, at: 1.0)
        h.up(1, 100, 100, at: 1.1)
        h.down(2, 100, 100, at: 1.1 + 0.35)
        h.up(2, 100, 100, at: 1.5)
        #expect(h.view.finishedTouches.sorted { $0.identifier < $1.identifier }.map(\.tapCount) == [1, 2])
    }

    @Test("a touch keeps its identity and view for its whole life, and its view after it ends")
    func identity() {
        let h = Harness()
        h.down(9, 10, 20, at: 0)
        let touch = h.window.activeTouches.first
        h.move(9, 30, 40, at: 0.1)
        #expect(h.window.activeTouches.first === touch)
        h.up(9, 30, 40, at: 0.2)
        #expect(touch?.phase == .ended)
        #expect(touch?.view === h.view)
        #expect(touch?.window === h.window)
        #expect(touch?.platformID == 9)
    }

    @Test("the event sorts touches by view and by recognizer")
    func eventQueries() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 0, y: 0, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        let pan = h.add(PanGestureRecognizer(), "pan", to: child)
        h.down(1, 50, 50, at: 0)
        h.down(2, 500, 500, at: 0.01)
        let event = h.window.arena.event
        #expect(event.allTouches.count == 2)
        #expect(event.touches(for: child).count == 1)
        #expect(event.touches(for: h.view).count == 1)
        #expect(event.touches(for: pan).count == 1)
    }

    @Test("a touch's tap count does not count a touch that moved")
    func tapCountNeedsTaps() {
        let h = Harness()
        h.drag(from: pt(100, 100), to: pt(130, 100), at: 0, duration: 0.1, steps: 2)
        h.tap(100, 100, at: 0.2)
        let counts = h.view.finishedTouches.sorted { $0.identifier < $1.identifier }.map(\.tapCount)
        #expect(counts == [1, 1])
    }

    /// The tap counts of the view's finished touches, in the order they went down.
    private func counts(_ h: Harness) -> [Int] {
        h.view.finishedTouches.sorted { $0.identifier < $1.identifier }.map(\.tapCount)
    }

    @Test("tap count measures each tap's distance from the first tap, as the tap recognizer does, not from the last")
    func tapCountMeasuresFromTheFirstTap() {
        let h = Harness()
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(140, 100, at: 0.15, duration: 0.05)  // 40 px from the first: a second tap
        h.tap(180, 100, at: 0.3, duration: 0.05)  // 40 px from the second, 80 from the first: a new series
        #expect(counts(h) == [1, 2, 1])
    }

    @Test("a touch that wanders beyond the tap slop and comes home is not a tap for tap count")
    func scribbleThatComesHomeIsNotATap() {
        let h = Harness()
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 100, at: 0.05)
        h.move(1, 100, 100, at: 0.1)
        h.up(1, 100, 100, at: 0.15)
        h.tap(100, 100, at: 0.25, duration: 0.05)
        #expect(counts(h) == [1, 1])
    }

    @Test("a tap in another view does not count towards the next tap's count")
    func tapInAnotherViewStartsANewSeries() {
        let h = Harness()
        let other = RecordingView(frame: Rect(x: 90, y: 90, width: 20, height: 20), log: h.log, label: "other")
        h.view.addSubview(other)
        h.tap(100, 100, at: 0, duration: 0.05)  // on the other view
        h.tap(115, 100, at: 0.15, duration: 0.05)  // on the main view, 15 px away
        #expect(counts(h) == [1])
        #expect(other.finishedTouches.map(\.tapCount) == [1])
    }
}
