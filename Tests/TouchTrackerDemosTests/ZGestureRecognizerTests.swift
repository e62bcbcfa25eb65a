import Testing
import TouchKit
import TouchTrackerDemos

@Suite struct ZPathTests {
    func verdict(_ points: [Point]) -> ZPath.Verdict {
        var path = ZPath()
        for point in points where path.add(point) == .impossible { return .impossible }
        return path.finalVerdict
    }

    @Test("right, down-left, right again, each 150 px: a Z")
    func zed() {
        #expect(verdict(zPoints(x: 100, y: 100)) == .zed)
    }

    @Test("a hand-drawn Z with wobbles, a steep diagonal and a longer bottom bar is still a Z")
    func wobblyZ() {
        let points: [Point] = [
            Point(x: 100, y: 100), Point(x: 130, y: 104), Point(x: 160, y: 98), Point(x: 190, y: 103),
            Point(x: 205, y: 100), Point(x: 190, y: 140), Point(x: 170, y: 180), Point(x: 150, y: 222),
            Point(x: 130, y: 260), Point(x: 160, y: 262), Point(x: 200, y: 257), Point(x: 240, y: 263),
            Point(x: 270, y: 260),
        ]
        #expect(verdict(points) == .zed)
    }

    @Test("a Z whose parts are 30 px long is too small")
    func tooSmall() {
        #expect(verdict(zPoints(x: 100, y: 100, size: 30)) == .impossible)
    }

    @Test("a straight stroke to the right is no Z, but stays possible until the finger lifts")
    func straightRight() {
        var path = ZPath()
        for point in ZPoints.line(Point(x: 0, y: 0), Point(x: 200, y: 0)) { #expect(path.add(point) == .undecided) }
        #expect(path.finalVerdict == .impossible)
    }

    @Test(
        "a stroke that starts left, up or down cannot be a Z: it is impossible after 15 px",
        arguments: [Point(x: -1, y: 0), Point(x: 0, y: -1), Point(x: 0, y: 1), Point(x: 1, y: 1.2)])
    func wrongStart(_ direction: Point) {
        var path = ZPath()
        #expect(path.add(.zero) == .undecided)
        #expect(path.add(direction * 14 / direction.length) == .undecided)
        #expect(path.add(direction * 16 / direction.length) == .impossible)
    }

    @Test("a 7 (no bottom bar), a mirrored Z and a Z missing its diagonal are not Zs")
    func lookalikes() {
        let seven = Array(zPoints(x: 100, y: 100).prefix(21))
        #expect(verdict(seven) == .impossible)
        let mirrored = zPoints(x: 100, y: 100).map { Point(x: 400 - $0.x, y: $0.y) }
        #expect(verdict(mirrored) == .impossible)
        let steps =
            ZPoints.line(Point(x: 100, y: 100), Point(x: 250, y: 100))
            + ZPoints.line(Point(x: 250, y: 100), Point(x: 250, y: 250))
            + ZPoints.line(Point(x: 250, y: 250), Point(x: 400, y: 250))
        #expect(verdict(steps) == .impossible)
    }

    @Test("a diagonal that bulges far from its straight line is not a Z")
    func bulgingDiagonal() {
        var points = zPoints(x: 100, y: 100)
        points[15] = points[15] + Point(x: 100, y: 0)
        #expect(verdict(points) == .impossible)
    }
}

enum ZPoints {
    static func line(_ a: Point, _ b: Point) -> [Point] {
        (0...10).map { a + (b - a) * (Double($0) / 10) }
    }
}

@Suite struct ZGestureRecognizerTests {
    let window = Window(frame: Rect(x: 0, y: 0, width: 600, height: 600))
    let z = ZGestureRecognizer()
    let recorder = StateRecorder()

    init() {
        let view = View(frame: window.bounds)
        view.isMultipleTouchEnabled = true
        window.addSubview(view)
        view.addGestureRecognizer(z)
        z.addTarget(recorder) { recorder, recognizer in recorder.states.append(recognizer.state) }
    }

    func send(_ id: UInt64, _ phase: TouchInput.Phase, _ point: Point, _ time: Double) {
        window.send(TouchInput(id: id, phase: phase, location: point, timestamp: time))
    }

    func draw(_ points: [Point], from time: Double) {
        send(1, .began, points[0], time)
        for (index, point) in points.enumerated().dropFirst() { send(1, .moved, point, time + 0.02 * Double(index)) }
        send(1, .ended, points[points.count - 1], time + 0.02 * Double(points.count))
    }

    @Test("recognizes once, when the finger lifts after a Z, and is ready for the next one")
    func recognizesAtLift() {
        let points = zPoints(x: 100, y: 100)
        send(1, .began, points[0], 0)
        for (index, point) in points.enumerated().dropFirst() { send(1, .moved, point, 0.02 * Double(index)) }
        #expect(recorder.states.isEmpty)
        send(1, .ended, points[points.count - 1], 1)
        #expect(recorder.states == [.ended])
        draw(points, from: 2)
        #expect(recorder.states == [.ended, .ended])
    }

    @Test("a second finger makes it fail")
    func secondFingerFails() {
        let points = zPoints(x: 100, y: 100)
        send(1, .began, points[0], 0)
        send(2, .began, Point(x: 500, y: 500), 0.01)
        for (index, point) in points.enumerated().dropFirst() { send(1, .moved, point, 0.02 * Double(index)) }
        send(2, .ended, Point(x: 500, y: 500), 0.7)
        send(1, .ended, points[points.count - 1], 0.8)
        #expect(recorder.states.isEmpty)
    }

    @Test("a Z that takes longer than 3 s fails")
    func tooSlow() {
        let points = zPoints(x: 100, y: 100)
        send(1, .began, points[0], 0)
        for (index, point) in points.enumerated().dropFirst() { send(1, .moved, point, 0.1 * Double(index)) }
        send(1, .ended, points[points.count - 1], 3.2)
        #expect(recorder.states.isEmpty)
    }
}

final class StateRecorder {
    var states: [GestureRecognizer.State] = []
}
