import Testing
import TouchKit
import TouchTracker

@Suite struct DamageTests {
    /// A line's stroke bounds from the benchmark whose width does not survive `maxX - minX` exactly.
    static let awkward = Rect(
        x: 60.73663071829213, y: 303.08469832396145, width: 70.88026213865477, height: 92.82768542079685)

    @Test("marking the same part of the cache stale three times restrokes it once, whatever its floating-point extent")
    func sameRegionOnce() {
        var damage = DrawingChanges()
        for _ in 0..<3 { damage.noteCompleteShapesChanged(in: Self.awkward) }
        #expect(damage.completeShapesChanged.rects.count == 1)
    }

    @Test("a stale region inside one already marked adds nothing; one beside it is kept apart")
    func containedAndSeparateRegions() {
        var damage = DrawingChanges()
        damage.noteCompleteShapesChanged(in: Rect(x: 0, y: 0, width: 100, height: 100))
        damage.noteCompleteShapesChanged(in: Rect(x: 10, y: 10, width: 20, height: 20))
        damage.noteCompleteShapesChanged(in: Rect(x: 300, y: 300, width: 20, height: 20))
        #expect(damage.completeShapesChanged.rects.count == 2)
    }

    @Test("a rectangle contains itself, its inner rectangles, and not one that sticks out")
    func rectContainsRect() {
        #expect(Self.awkward.contains(Self.awkward))
        #expect(Self.awkward.contains(Self.awkward.insetBy(dx: 1, dy: 1)))
        #expect(!Self.awkward.contains(Self.awkward.insetBy(dx: -0.001, dy: 0)))
        #expect(!Rect.null.contains(Self.awkward))
    }
}

/// A stroke damages a band of small boxes along it, not its bounding box.
@Suite struct StrokeBandTests {
    @Test("a line across a 1920x1080 window damages a band of boxes covering a tenth of its bounding box")
    func diagonalBandIsThin() {
        let line = Line(begin: Point(x: 20, y: 20), end: Point(x: 1900, y: 1060))
        let band = DamageRegion.band(along: [line], width: 10)
        let area = band.rects.reduce(0) { $0 + $1.width * $1.height }
        #expect(area < 0.1 * line.bounds(width: 10).width * line.bounds(width: 10).height)
        // Every point of the stroke is inside the band: along the segment and half the pen to either side.
        for step in 0...200 {
            let t = Double(step) / 200
            let center = line.begin + (line.end - line.begin) * t
            for offset in [Point(x: 5, y: 0), Point(x: -5, y: 0), Point(x: 0, y: 5), Point(x: 0, y: -5)] {
                #expect(band.contains(center + offset), "\(center + offset)")
            }
        }
    }

    @Test("the old and the new place of a moving line share one band")
    func movingLineIsOneBand() {
        let old = Line(begin: Point(x: 20, y: 20), end: Point(x: 1900, y: 1060))
        let new = Line(begin: Point(x: 20, y: 20), end: Point(x: 1903, y: 1060))
        let both = DamageRegion.band(along: [old, new], width: 10)
        #expect(both.rects.count == DamageRegion.band(along: [new], width: 10).rects.count)
        for t in stride(from: 0.0, through: 1.0, by: 0.01) {
            #expect(both.contains(old.begin + (old.end - old.begin) * t))
            #expect(both.contains(new.begin + (new.end - new.begin) * t))
        }
    }

    @Test("four long lines in progress at once damage four bands, not the whole window")
    func manyLongLinesStayBands() {
        let lines = [
            Line(begin: Point(x: 20, y: 20), end: Point(x: 1900, y: 1060)),
            Line(begin: Point(x: 1900, y: 20), end: Point(x: 20, y: 1060)),
            Line(begin: Point(x: 20, y: 540), end: Point(x: 1900, y: 500)),
            Line(begin: Point(x: 960, y: 20), end: Point(x: 1000, y: 1060)),
        ]
        var region = DamageRegion()
        for line in lines { region.add(DamageRegion.band(along: [line], width: 10)) }
        #expect(region.rects.count <= DamageRegion.limit)
        let area = region.rects.reduce(0) { $0 + $1.width * $1.height }
        #expect(area < 0.25 * 1920 * 1080)
        for line in lines {
            for t in stride(from: 0.0, through: 1.0, by: 0.01) {
                #expect(region.contains(line.begin + (line.end - line.begin) * t))
            }
        }
    }

    @Test("a region keeps no rectangle inside another, and never holds more than its limit yet covers all it got")
    func regionStaysShort() {
        var region = DamageRegion()
        region.add(Rect(x: 10, y: 10, width: 5, height: 5))
        region.add(Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(region.rects == [Rect(x: 0, y: 0, width: 100, height: 100)])
        let added = (0..<1000).map { Rect(x: 200 + Double($0) * 10, y: Double($0 % 7) * 20, width: 5, height: 5) }
        for rect in added { region.add(rect) }
        #expect(region.rects.count <= DamageRegion.limit)
        #expect(added.allSatisfy { rect in region.contains(rect.center) })
    }
}
