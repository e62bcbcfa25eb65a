import Testing

@testable import TouchKit

/// A stand-in for TouchTracker's drawing view, for TouchKit's own tests (this target sees TouchKit alone, not the
/// app): the same four recognizers with the same requirements as `DrawingController` sets up (a tap that waits for
/// the double tap to fail, a long press that begins only on a line, a one-finger pan that does not cancel the
/// view's touches), and a view of its own that starts a line only once a touch leaves the tap slop, drops lines a
/// gesture claimed and keeps ones the system interrupted. The app's own wiring is tested through its controller in
/// TouchTrackerTests (the replay scenarios and DrawingViewTests).
final class DrawingStandIn: View, GestureRecognizerDelegate {
    var linesInProgress: [Touch: (Point, Point)] = [:]
    var lines: [(Point, Point)] = []
    var selected: Int?
    var cleared = 0
    var log: [String] = []
    let slop = 10.0

    let doubleTap = TapGestureRecognizer()
    let tap = TapGestureRecognizer()
    let longPress = LongPressGestureRecognizer()
    let moveLine = PanGestureRecognizer()

    override init(frame: Rect) {
        super.init(frame: frame)
        isMultipleTouchEnabled = true
        doubleTap.numberOfTapsRequired = 2
        doubleTap.addTarget(self) { view, _ in view.clearAll() }
        tap.require(toFail: doubleTap)
        tap.addTarget(self) { view, tap in view.select(at: tap.location(in: view)) }
        longPress.delegate = self
        longPress.addTarget(self) { view, press in view.pressed(press) }
        moveLine.cancelsTouchesInView = false
        moveLine.maximumNumberOfTouches = 1
        moveLine.delegate = self
        moveLine.addTarget(self) { view, pan in view.moved(pan) }
        for recognizer in [doubleTap, tap, longPress, moveLine] as [GestureRecognizer] {
            addGestureRecognizer(recognizer)
        }
    }

    func line(near p: Point) -> Int? {
        lines.indices.last { index in
            let (a, b) = lines[index]
            let ab = b - a
            let t = max(0, min(1, ((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / max(1e-9, ab.x * ab.x + ab.y * ab.y)))
            return p.distance(to: a + ab * t) <= 20
        }
    }

    func clearAll() {
        cleared += 1
        lines.removeAll()
        linesInProgress.removeAll()
        selected = nil
        log.append("clear")
    }

    func select(at p: Point) {
        selected = line(near: p)
        log.append("select \(selected.map(String.init) ?? "none")")
    }

    func pressed(_ press: LongPressGestureRecognizer) {
        switch press.state {
        case .began:
            selected = line(near: press.location(in: self))
            moveLine.setTranslation(.zero, in: self)
            log.append("press began")
        case .ended, .cancelled:
            selected = nil
            log.append("press \(press.state)")
        default: break
        }
    }

    func moved(_ pan: PanGestureRecognizer) {
        guard longPress.state == .began || longPress.state == .changed, let index = selected else { return }
        let t = pan.translation(in: self)
        lines[index] = (lines[index].0 + t, lines[index].1 + t)
        pan.setTranslation(.zero, in: self)
    }

    /// Both the View's hook and the delegate's method, as in UIKit: one override serves as both.
    override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        gestureRecognizer !== longPress || line(near: gestureRecognizer.location(in: self)) != nil
    }

    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        (gestureRecognizer === moveLine && other === longPress)
            || (gestureRecognizer === longPress && other === moveLine)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        log.append("began")
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            let start = touch.location(in: self)
            if let line = linesInProgress[touch] {
                linesInProgress[touch] = (line.0, start)
            } else if let origin = origin(of: touch), origin.distance(to: start) > slop {
                linesInProgress[touch] = (origin, start)
            }
        }
    }

    private var origins: [Touch: Point] = [:]
    private func origin(of touch: Touch) -> Point? {
        if let origin = origins[touch] { return origin }
        return nil
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            if let line = linesInProgress.removeValue(forKey: touch) {
                lines.append((line.0, touch.location(in: self)))
            }
        }
        log.append("ended")
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            let line = linesInProgress.removeValue(forKey: touch)
            if touch.cancellationReason == .system, let line { lines.append((line.0, touch.location(in: self))) }
        }
        log.append("cancelled \(touches.first?.cancellationReason == .system ? "system" : "gesture")")
    }

    func noteOrigin(_ touch: Touch) { origins[touch] = touch.location(in: self) }
}

@Suite struct TouchTrackerScenarioTests {
    func makeApp() -> (Harness, DrawingStandIn) {
        let h = Harness()
        let drawing = DrawingStandIn(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        h.window.addSubview(drawing)
        return (h, drawing)
    }

    /// Draws a line with finger `id` and records its origin the way the app does on touchesBegan.
    func draw(_ h: Harness, _ drawing: DrawingStandIn, from a: Point, to b: Point, at t: TimeInterval, id: UInt64 = 1) {
        h.down(id, a.x, a.y, at: t)
        if let touch = h.window.activeTouches.first(where: { $0.platformID == id }) { drawing.noteOrigin(touch) }
        for step in 1...10 {
            let p = a + (b - a) * (Double(step) / 10)
            h.move(id, p.x, p.y, at: t + 0.02 * Double(step))
        }
        h.up(id, b.x, b.y, at: t + 0.25)
    }

    @Test("a drag draws a line and no recognizer claims it")
    func dragDraws() {
        let (h, drawing) = makeApp()
        draw(h, drawing, from: pt(100, 100), to: pt(300, 100), at: 0)
        h.settle()
        #expect(drawing.lines.count == 1)
        #expect(drawing.log == ["began", "ended"])
    }

    @Test("a single tap selects after the double-tap interval and its touch is cancelled, never ended")
    func tapSelects() {
        let (h, drawing) = makeApp()
        draw(h, drawing, from: pt(100, 100), to: pt(300, 100), at: 0)
        drawing.log.removeAll()
        h.tap(200, 105, at: 1, duration: 0.05)
        #expect(drawing.log == ["began"])
        h.settle()
        #expect(drawing.log == ["began", "cancelled gesture", "select 0"])
        #expect(drawing.selected == 0)
        #expect(drawing.lines.count == 1)
    }

    @Test("a double tap clears, and the single tap never fires")
    func doubleTapClears() {
        let (h, drawing) = makeApp()
        draw(h, drawing, from: pt(100, 100), to: pt(300, 100), at: 0)
        h.tap(500, 500, at: 1, duration: 0.05)
        h.tap(500, 500, at: 1.2, duration: 0.05)
        h.settle()
        #expect(drawing.cleared == 1)
        #expect(drawing.lines.isEmpty)
        #expect(!drawing.log.contains { $0.hasPrefix("select") })
    }

    @Test("a long press on a line takes the finger's stroke and then drags the line exactly")
    func longPressMovesLine() {
        let (h, drawing) = makeApp()
        draw(h, drawing, from: pt(100, 100), to: pt(300, 100), at: 0)
        drawing.log.removeAll()
        h.down(1, 200, 100, at: 1)
        h.move(1, 204, 100, at: 1.2)
        h.advance(to: 1.5)
        #expect(drawing.log == ["began", "cancelled gesture", "press began"])
        #expect(drawing.selected == 0)
        for step in 1...10 { h.move(1, 204 + Double(step) * 5, 100 + Double(step) * 10, at: 1.5 + Double(step) * 0.02) }
        #expect(drawing.lines[0].0.isClose(to: pt(150, 200)))
        #expect(drawing.lines[0].1.isClose(to: pt(350, 200)))
        h.up(1, 254, 200, at: 2)
        #expect(drawing.selected == nil)
        #expect(drawing.log.last == "press ended")
        #expect(drawing.linesInProgress.isEmpty)
    }

    @Test("a long press off every line does not begin, so that finger keeps drawing")
    func longPressOffLineDraws() {
        let (h, drawing) = makeApp()
        h.down(1, 400, 400, at: 0)
        if let touch = h.window.activeTouches.first { drawing.noteOrigin(touch) }
        h.advance(to: 0.8)
        #expect(drawing.longPress.state == .failed)
        for step in 1...10 { h.move(1, 400 + Double(step) * 10, 400, at: 0.8 + Double(step) * 0.02) }
        h.up(1, 500, 400, at: 1.1)
        #expect(drawing.log == ["began", "ended"])
        #expect(drawing.lines.count == 1)
    }

    @Test("while one finger drags a line, another finger draws a new line")
    func twoFingers() {
        let (h, drawing) = makeApp()
        draw(h, drawing, from: pt(100, 100), to: pt(300, 100), at: 0)
        h.down(1, 200, 100, at: 1)
        h.advance(to: 1.6)
        draw(h, drawing, from: pt(400, 400), to: pt(600, 400), at: 1.7, id: 2)
        h.move(1, 200, 150, at: 2.1)
        h.up(1, 200, 150, at: 2.2)
        h.settle()
        #expect(drawing.lines.count == 2)
        #expect(drawing.lines[0].0.isClose(to: pt(100, 150)))
        #expect(drawing.lines[1].0 == pt(400, 400))
    }

    @Test("a system cancel keeps the stroke; a gesture claim drops it")
    func systemCancelKeepsStroke() {
        let (h, drawing) = makeApp()
        h.down(1, 100, 100, at: 0)
        if let touch = h.window.activeTouches.first { drawing.noteOrigin(touch) }
        h.move(1, 150, 100, at: 0.05)
        h.move(1, 200, 100, at: 0.1)
        h.window.cancelAllTouches()
        #expect(drawing.lines.count == 1)
        #expect(drawing.log.last == "cancelled system")
        for recognizer in drawing.gestureRecognizers { #expect(recognizer.state == .possible) }
    }

    @Test("the mouse is fed as a touch with its own platform id and taps like a finger")
    func mouseAsTouch() {
        let (h, drawing) = makeApp()
        let mouse: UInt64 = 0xFFFF_FFFF_0000_0001
        h.down(mouse, 300, 300, at: 0)
        h.up(mouse, 300, 300, at: 0.08)
        h.down(mouse, 300, 300, at: 0.2)
        h.up(mouse, 300, 300, at: 0.28)
        #expect(drawing.cleared == 1)
    }
}
