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

    @Test("a segment crosses a rectangle it passes through, or ends in, and not one beside it")
    func crossesRectangle() {
        let box = Rect(x: 40, y: 40, width: 20, height: 20)
        #expect(Line(begin: Point(x: 0, y: 0), end: Point(x: 100, y: 100)).crosses(box))
        #expect(Line(begin: Point(x: 50, y: 50), end: Point(x: 200, y: 0)).crosses(box))
        #expect(Line(begin: Point(x: 50, y: 0), end: Point(x: 50, y: 100)).crosses(box))
        #expect(Line(begin: Point(x: 45, y: 45), end: Point(x: 45, y: 45)).crosses(box))
        // Beside it, below it, and diagonally past its corner (where their bounding boxes do overlap).
        #expect(!Line(begin: Point(x: 0, y: 0), end: Point(x: 0, y: 100)).crosses(box))
        #expect(!Line(begin: Point(x: 0, y: 70), end: Point(x: 100, y: 70)).crosses(box))
        #expect(!Line(begin: Point(x: 0, y: 50), end: Point(x: 50, y: 0)).crosses(box))
    }

    @Test("a stroke may touch a rectangle within half its width and a pixel, and not a rectangle further away")
    func strokeMayTouchRectangle() {
        let box = Rect(x: 40, y: 40, width: 20, height: 20)
        let beside = Line(begin: Point(x: 34, y: 0), end: Point(x: 34, y: 100))
        #expect(beside.strokeMayTouch(box, width: 10))
        #expect(!beside.strokeMayTouch(box, width: 8))
        // A diagonal whose bounding box covers the rectangle but whose stroke passes 21 px from its corner.
        let diagonal = Line(begin: Point(x: 0, y: 50), end: Point(x: 50, y: 0))
        #expect(diagonal.bounds(width: 10).intersects(box))
        #expect(!diagonal.strokeMayTouch(box, width: 10))
    }
}
