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
}
