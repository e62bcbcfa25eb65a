import Foundation
import SeededRandom
import Testing
import TouchKit
import TouchTracker

@Suite struct ShapeIndexTests {
    /// The answer the index must give: the topmost (largest ID) shape within the radius, by exact distance.
    func bruteForce(_ collection: ShapeCollection, _ point: Point, radius: Double) -> ShapeID? {
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

    func randomCircles(_ count: Int, seed: UInt64) -> [Circle] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            // Some small, some larger than the index files cell by cell (every tenth spans 3,000 px).
            let size = index % 10 == 0 ? 3000.0 : Double.random(in: 0..<300, using: &generator)
            return Circle(
                frame: Rect(
                    x: Double.random(in: -1500..<1500, using: &generator),
                    y: Double.random(in: -1500..<1500, using: &generator), width: size,
                    height: size * Double.random(in: 0.2..<1.5, using: &generator)))
        }
    }

    @Test("the index answers exactly what a scan of every shape answers, for 2,000 random queries")
    func matchesBruteForce() {
        var collection = ShapeCollection(lines: randomLines(3000, seed: 1), circles: randomCircles(60, seed: 3))
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
            #expect(collection.topmostShape(near: point, radius: 20) == bruteForce(collection, point, radius: 20))
        }
    }

    @Test("the shapes reaching a small or a zoomed-out tile's rectangle come bottom to top, each once")
    func shapesReachingComeOnceInOrder() {
        var collection = ShapeCollection(lines: randomLines(3000, seed: 5), circles: randomCircles(40, seed: 6))
        // Lines drawn while a document loads are numbered far above the document's; some removed, leaving gaps.
        var loading = ShapeCollection(firstNumber: DrawingView.numbersWhileLoading)
        for line in randomLines(50, seed: 7) { loading.append(.line(line)) }
        var generator = SplitMix64(seed: 8)
        for _ in 0..<200 {
            collection.remove(collection.order[Int.random(in: 0..<collection.count, using: &generator)])
        }
        let merged = collection.merging(loading)
        for (collection, name) in [(collection, "document"), (merged, "with lines drawn while loading")] {
            for size in [10.0, 300, 3000, 40_000] {
                let rect = Rect(x: -size / 2, y: -size / 3, width: size, height: size)
                var reached = Set<ShapeID>()
                collection.index.shapes(in: rect) { reached.insert($0) }
                let expected = collection.order.filter(reached.contains)
                #expect(collection.shapes(reaching: rect).map(\.id) == expected, "\(name), \(size)")
            }
        }
    }

    @Test("where two lines are both within reach, the most recent one wins even if it is farther")
    func topmostWins() {
        var collection = ShapeCollection()
        let near = collection.append(.line(Line(begin: Point(x: 0, y: 100), end: Point(x: 200, y: 100))))
        let recent = collection.append(.line(Line(begin: Point(x: 0, y: 115), end: Point(x: 200, y: 115))))
        #expect(collection.topmostShape(near: Point(x: 100, y: 100), radius: 20) == recent)
        collection.remove(recent)
        #expect(collection.topmostShape(near: Point(x: 100, y: 100), radius: 20) == near)
    }

    @Test("a circle drawn before a line is still above it: circles stack above every line")
    func circlesAboveLines() {
        var collection = ShapeCollection()
        let circle = collection.append(.circle(Circle(frame: Rect(x: 0, y: 80, width: 200, height: 40))))
        let line = collection.append(.line(Line(begin: Point(x: 0, y: 100), end: Point(x: 200, y: 100))))
        #expect(collection.order == [line, circle])
        #expect(collection.topmostShape(near: Point(x: 100, y: 85), radius: 20) == circle)
        #expect(collection.lines.count == 1 && collection.circles.count == 1)
        #expect(collection.position(of: circle) == 0 && collection.position(of: line) == 0)
    }

    @Test("a circle too large to file cell by cell is still found on its outline, and not inside it")
    func hugeCircle() {
        var collection = ShapeCollection()
        let id = collection.append(.circle(Circle(frame: Rect(x: -1e6, y: -1e6, width: 2e6, height: 2e6))))
        #expect(collection.topmostShape(near: Point(x: 0, y: -1e6 + 5), radius: 20) == id)
        #expect(collection.topmostShape(near: Point(x: 0, y: 0), radius: 20) == nil)
        #expect(collection.shapes(reaching: Rect(x: 0, y: 0, width: 10, height: 10)).map(\.id) == [id])
        collection.remove(id)
        #expect(collection.topmostShape(near: Point(x: 0, y: -1e6 + 5), radius: 20) == nil)
    }

    @Test("a restored line goes back to its place in the stack")
    func restoreKeepsOrder() {
        var collection = ShapeCollection()
        let a = collection.append(.line(Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 0))))
        let b = collection.append(.line(Line(begin: Point(x: 0, y: 5), end: Point(x: 10, y: 5))))
        let c = collection.append(.line(Line(begin: Point(x: 0, y: 9), end: Point(x: 10, y: 9))))
        let removed = collection.remove(b)!
        collection.restore(b, removed)
        #expect(collection.order == [a, b, c])
        #expect(collection.topmostShape(near: Point(x: 5, y: 5), radius: 20) == c)
    }

    @Test("non-finite query points find nothing and do not trap")
    func nonFiniteQuery() {
        let collection = ShapeCollection(lines: [Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 0))])
        #expect(collection.topmostShape(near: Point(x: .nan, y: 0), radius: 20) == nil)
        #expect(collection.topmostShape(near: Point(x: .infinity, y: 0), radius: 20) == nil)
    }
}

@Suite struct LongLineTests {
    @Test("a line across the whole coordinate range is filed by the cells it crosses and found near its middle")
    func documentSpanningLine() {
        let line = Line(begin: Point(x: -1e6, y: -1e6), end: Point(x: 1e6, y: 1e6))
        let collection = ShapeCollection(lines: [line])
        #expect(collection.topmostShape(near: Point(x: 10, y: 12), radius: 20) != nil)
        #expect(collection.topmostShape(near: Point(x: 10, y: 60), radius: 20) == nil)
    }

    @Test("a line reaching beyond any screen (1e300) is filed without walking its bounding box")
    func astronomicalLine() {
        var collection = ShapeCollection()
        let id = collection.append(.line(Line(begin: Point(x: 0, y: 0), end: Point(x: 1e300, y: 3e299))))
        #expect(collection.topmostShape(near: Point(x: 0, y: 5), radius: 20) == id)
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

    @Test("the drawing's extent to a cell follows what is added, and shrinks once what lay at its edge is gone")
    func extentFollowsTheShapes() {
        var shapes = ShapeCollection(lines: [
            Line(begin: Point(x: 10, y: 10), end: Point(x: 50, y: 20)),
            Line(begin: Point(x: -5000, y: 7000), end: Point(x: -4990, y: 7010)),
        ])
        let both = shapes.approximateBounds
        #expect(both.minX <= -5000 && both.minX > -5000 - 32 && both.maxY >= 7010 && both.maxY < 7010 + 32)
        #expect(both.maxX >= 50 && both.maxX < 50 + 32 && both.minY <= 10 && both.minY > 10 - 32)
        _ = shapes.remove(shapes.order[1])
        let one = shapes.approximateBounds
        #expect(one.minX <= 10 && one.minX > 10 - 32 && one.maxY >= 20 && one.maxY < 20 + 32, "\(one)")
        _ = shapes.remove(shapes.order[0])
        #expect(shapes.approximateBounds.isNull)
    }
}
