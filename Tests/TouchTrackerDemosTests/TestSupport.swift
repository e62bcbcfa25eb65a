import TouchKit
import TouchTrackerDemos

/// Small drivers for scenes in unit tests: the same `TouchInput`s a platform or replay sends.
extension DemoScene {
    func touch(_ id: UInt64, _ phase: TouchInput.Phase, _ x: Double, _ y: Double, at time: Double) {
        send(TouchInput(id: id, phase: phase, location: Point(x: x, y: y), timestamp: time))
    }

    /// A 0.05 s tap.
    func tap(_ x: Double, _ y: Double, at time: Double, id: UInt64 = 1) {
        touch(id, .began, x, y, at: time)
        touch(id, .ended, x, y, at: time + 0.05)
    }

    /// A finger held still for `duration`.
    func press(_ x: Double, _ y: Double, at time: Double, for duration: Double, id: UInt64 = 1) {
        touch(id, .began, x, y, at: time)
        touch(id, .ended, x, y, at: time + duration)
    }

    /// One finger along `points`, 0.02 s per point, lifting at the last one.
    func stroke(_ points: [Point], at time: Double, id: UInt64 = 1) {
        guard let first = points.first, let last = points.last else { return }
        touch(id, .began, first.x, first.y, at: time)
        for (index, point) in points.dropFirst().enumerated() {
            touch(id, .moved, point.x, point.y, at: time + 0.02 * Double(index + 1))
        }
        touch(id, .ended, last.x, last.y, at: time + 0.02 * Double(points.count))
    }

    /// Points from `a` to `b` in `steps` equal steps, `a` included.
    static func line(_ a: Point, _ b: Point, steps: Int) -> [Point] {
        (0...steps).map { a + (b - a) * (Double($0) / Double(steps)) }
    }
}

/// A "Z" 150 px wide and tall with its top-left corner at (x, y), a point every 15 px.
func zPoints(x: Double, y: Double, size: Double = 150) -> [Point] {
    let step = size / 10
    var points: [Point] = []
    for k in 0...10 { points.append(Point(x: x + step * Double(k), y: y)) }
    for k in 1...10 { points.append(Point(x: x + size - step * Double(k), y: y + step * Double(k))) }
    for k in 1...10 { points.append(Point(x: x + step * Double(k), y: y + size)) }
    return points
}
