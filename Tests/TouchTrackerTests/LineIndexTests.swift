import Foundation
import SeededRandom
import Testing
import TouchKit
import TouchTracker

@Suite struct LineIndexTests {
    /// The answer the index must give: the topmost (largest ID) line within the radius, by exact distance.
    func bruteForce(_ collection: LineCollection, _ point: Point, radius: Double) -> LineID? {
        collection.order.last { collection[$0]!.distance(to: point) <= radius }
    }

    func randomLines(_ count: Int, seed: UInt64) -> [Line] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            // Mostly on screen, some far off it (beyond the index's flat grid), lengths from 0 to 600 px.
            let far = Double.random(in: 0..<1, using: &generator) < 0.1
            let span = far ? 20_000.0 : 1500.0
            let begin = Point(
                x: Double.random(in: -span..<span, using: &generator),
                y: Double.random(in: -span..<span, using: &generator))
            let length = Double.random(in: 0..<600, using: &generator)
            let angle = Double.random(in: 0..<6.3, using: &generator)
            return Line(begin: begin, end: begin + Point(x: length * cos(angle), y: length * sin(angle)))
        }
    }

    @Test("the index answers exactly what a scan of every line answers, for 2,000 random queries")
    func matchesBruteForce() {
        var collection = LineCollection(randomLines(3000, seed: 1))
        var generator = SplitMix64(seed: 2)
        // Remove and move some lines so the index is tested after edits too.
        for _ in 0..<300 {
            let id = collection.order[Int.random(in: 0..<collection.count, using: &generator)]
            if Bool.random(using: &generator) {
                collection.remove(id)
            } else {
                collection.replace(id, with: collection[id]!.translated(by: Point(x: 37, y: -11)))
            }
        }
        for _ in 0..<2000 {
            let point = Point(
                x: Double.random(in: -1600..<1600, using: &generator),
                y: Double.random(in: -1600..<1600, using: &generator))
            #expect(collection.topmostLine(near: point, radius: 20) == bruteForce(collection, point, radius: 20))
        }
    }

    @Test("where two lines are both within reach, the most recent one wins even if it is farther")
    func topmostWins() {
        var collection = LineCollection()
        let near = collection.append(Line(begin: Point(x: 0, y: 100), end: Point(x: 200, y: 100)))
        let recent = collection.append(Line(begin: Point(x: 0, y: 115), end: Point(x: 200, y: 115)))
        #expect(collection.topmostLine(near: Point(x: 100, y: 100), radius: 20) == recent)
        collection.remove(recent)
        #expect(collection.topmostLine(near: Point(x: 100, y: 100), radius: 20) == near)
    }

    @Test("a restored line goes back to its place in the stack")
    func restoreKeepsOrder() {
        var collection = LineCollection()
        let a = collection.append(Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 0)))
        let b = collection.append(Line(begin: Point(x: 0, y: 5), end: Point(x: 10, y: 5)))
        let c = collection.append(Line(begin: Point(x: 0, y: 9), end: Point(x: 10, y: 9)))
        let removed = collection.remove(b)!
        collection.restore(b, removed)
        #expect(collection.order == [a, b, c])
        #expect(collection.topmostLine(near: Point(x: 5, y: 5), radius: 20) == c)
    }

    @Test("non-finite query points find nothing and do not trap")
    func nonFiniteQuery() {
        let collection = LineCollection([Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 0))])
        #expect(collection.topmostLine(near: Point(x: .nan, y: 0), radius: 20) == nil)
        #expect(collection.topmostLine(near: Point(x: .infinity, y: 0), radius: 20) == nil)
    }
}

@Suite struct LongLineTests {
    @Test("a line across the whole coordinate range is filed by the cells it crosses and found near its middle")
    func documentSpanningLine() {
        let line = Line(begin: Point(x: -1e6, y: -1e6), end: Point(x: 1e6, y: 1e6))
        let collection = LineCollection([line])
        #expect(collection.topmostLine(near: Point(x: 10, y: 12), radius: 20) != nil)
        #expect(collection.topmostLine(near: Point(x: 10, y: 60), radius: 20) == nil)
    }

    @Test("a line reaching beyond any screen (1e300) is filed without walking its bounding box")
    func astronomicalLine() {
        var collection = LineCollection()
        let id = collection.append(Line(begin: Point(x: 0, y: 0), end: Point(x: 1e300, y: 3e299)))
        #expect(collection.topmostLine(near: Point(x: 0, y: 5), radius: 20) == id)
        collection.remove(id)
        #expect(collection.isEmpty)
    }

    @Test("a finger reported far outside every screen draws a line held within the document's coordinate limit")
    func farTouchIsClamped() {
        var canvas = Canvas()
        canvas.send(1, .began, 100, 100)
        canvas.send(1, .moved, 1e300, 100)
        canvas.send(1, .ended, 1e300, 100)
        #expect(canvas.view.drawing.lines.map(\.end.x) == [DocumentCodec.coordinateLimit])
    }
}
