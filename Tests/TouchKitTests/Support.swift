import Testing

@testable import TouchKit

/// A shared, ordered log of what views and recognizer actions saw.
final class EventLog {
    var entries: [String] = []
    func append(_ entry: String) { entries.append(entry) }
    func clear() { entries.removeAll() }
}

/// A view that logs its touch callbacks and checks it never sees a touch end twice.
final class RecordingView: View {
    let log: EventLog
    let label: String
    /// Touches the view has seen begin and not yet seen end or cancel.
    private(set) var liveTouches: Set<Touch> = []
    private(set) var finishedTouches: Set<Touch> = []
    private(set) var violations: [String] = []
    var shouldBeginAnswer = true

    init(frame: Rect, log: EventLog, label: String = "view") {
        self.log = log
        self.label = label
        super.init(frame: frame)
        isMultipleTouchEnabled = true
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches {
            if liveTouches.contains(touch) || finishedTouches.contains(touch) { violations.append("began twice") }
            liveTouches.insert(touch)
        }
        log.append("\(label).began")
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches where !liveTouches.contains(touch) { violations.append("moved without began") }
        log.append("\(label).moved")
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        finish(touches, "ended")
        log.append("\(label).ended")
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        finish(touches, "cancelled")
        let reasons = Set(touches.map { $0.cancellationReason })
        let reason =
            reasons == [.gestureRecognized] ? "gesture" : reasons == [.system] ? "system" : "\(reasons)"
        log.append("\(label).cancelled(\(reason))")
    }

    private func finish(_ touches: Set<Touch>, _ what: String) {
        for touch in touches {
            if !liveTouches.contains(touch) { violations.append("\(what) without began") }
            liveTouches.remove(touch)
            finishedTouches.insert(touch)
        }
    }

    override func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        shouldBeginAnswer
    }
}

/// A delegate whose answers are closures.
final class TestDelegate: GestureRecognizerDelegate {
    var shouldBegin: (GestureRecognizer) -> Bool = { _ in true }
    var shouldReceive: (GestureRecognizer, Touch) -> Bool = { _, _ in true }
    var simultaneous: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
    var requireFailureOf: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
    var requiredToFailBy: (GestureRecognizer, GestureRecognizer) -> Bool = { _, _ in false }
    var askedToBegin = 0

    func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        askedToBegin += 1
        return shouldBegin(gestureRecognizer)
    }
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        shouldReceive(gestureRecognizer, touch)
    }
    func gestureRecognizer(
        _ gestureRecognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool {
        simultaneous(gestureRecognizer, other)
    }
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer)
        -> Bool
    {
        requireFailureOf(gestureRecognizer, other)
    }
    func gestureRecognizer(_ gestureRecognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer)
        -> Bool
    {
        requiredToFailBy(gestureRecognizer, other)
    }
}

/// A window 800×600 with one full-size recording view, and a script of touches on virtual time.
final class Harness {
    let log = EventLog()
    let window: Window
    let view: RecordingView

    init(width: Double = 800, height: Double = 600) {
        window = Window(frame: Rect(x: 0, y: 0, width: width, height: height))
        view = RecordingView(frame: Rect(x: 0, y: 0, width: width, height: height), log: log)
        window.addSubview(view)
    }

    var clock: Clock { window.clock }

    /// Attaches `recognizer` to `view` (the main view by default) and logs its actions as "name:state".
    @discardableResult
    func add<R: GestureRecognizer>(_ recognizer: R, _ name: String, to view: View? = nil) -> R {
        recognizer.name = name
        (view ?? self.view).addGestureRecognizer(recognizer)
        recognizer.addTarget { [log] (r: R) in log.append("\(name):\(r.state)") }
        return recognizer
    }

    func down(
        _ id: UInt64 = 1, _ x: Double, _ y: Double, at t: TimeInterval, force: Double? = nil,
        type: TouchType = .direct, tilt: StylusTilt? = nil
    ) {
        window.send(
            TouchInput(
                id: id, phase: .began, location: Point(x: x, y: y), timestamp: t, force: force, type: type, tilt: tilt))
    }

    func move(_ id: UInt64 = 1, _ x: Double, _ y: Double, at t: TimeInterval, force: Double? = nil) {
        window.send(TouchInput(id: id, phase: .moved, location: Point(x: x, y: y), timestamp: t, force: force))
    }

    func up(_ id: UInt64 = 1, _ x: Double, _ y: Double, at t: TimeInterval) {
        window.send(TouchInput(id: id, phase: .ended, location: Point(x: x, y: y), timestamp: t))
    }

    func systemCancel(_ id: UInt64 = 1, at t: TimeInterval) {
        window.send(TouchInput(id: id, phase: .cancelled, location: .zero, timestamp: t))
    }

    /// A tap at (x, y) going down at `t` and lifting `duration` later.
    func tap(_ x: Double, _ y: Double, at t: TimeInterval, duration: TimeInterval = 0.1, id: UInt64 = 1) {
        down(id, x, y, at: t)
        up(id, x, y, at: t + duration)
    }

    /// A straight drag in `steps` moves, then a lift at the end point.
    func drag(
        _ id: UInt64 = 1, from a: Point, to b: Point, at t: TimeInterval, duration: TimeInterval = 0.2,
        steps: Int = 10, lift: Bool = true
    ) {
        down(id, a.x, a.y, at: t)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            let p = a + (b - a) * f
            move(id, p.x, p.y, at: t + duration * f)
        }
        if lift { up(id, b.x, b.y, at: t + duration) }
    }

    func advance(to t: TimeInterval) { clock.advance(to: t) }
    func settle() { clock.runUntilIdle() }

    /// Only the recognizer actions, in order.
    var actions: [String] { log.entries.filter { $0.contains(":") } }
    /// Only the view callbacks, in order.
    var viewCalls: [String] { log.entries.filter { !$0.contains(":") } }
}

func pt(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

extension Double {
    func isClose(to other: Double, within tolerance: Double = 1e-6) -> Bool { abs(self - other) <= tolerance }
}

extension Point {
    func isClose(to other: Point, within tolerance: Double = 1e-6) -> Bool {
        abs(x - other.x) <= tolerance && abs(y - other.y) <= tolerance
    }
}
