import Testing
import TouchKit
import TouchTracker

@Suite struct LineTests {
    let line = Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 0))

    @Test("distance to a point beside the segment is perpendicular")
    func perpendicular() {
        #expect(line.distance(to: Point(x: 50, y: 20)) == 20)
    }

    @Test("distance beyond an end is measured to the end, not to the infinite line")
    func beyondEnd() {
        #expect(line.distance(to: Point(x: 130, y: 40)) == 50)
    }

    @Test("a zero-length line measures to its point")
    func degenerate() {
        let dot = Line(begin: Point(x: 5, y: 5), end: Point(x: 5, y: 5))
        #expect(dot.distance(to: Point(x: 8, y: 9)) == 5)
    }

    @Test("bounds cover the round caps")
    func boundsCoverCaps() {
        let bounds = line.bounds(width: 10)
        #expect(bounds.minX <= -5 && bounds.maxX >= 105 && bounds.minY <= -5 && bounds.maxY >= 5)
    }
}
