import Testing
import TouchKit
import TouchTracker

@Suite struct DamageTests {
    /// A line's stroke bounds from the benchmark whose width does not survive `maxX - minX` exactly.
    static let awkward = Rect(
        x: 60.73663071829213, y: 303.08469832396145, width: 70.88026213865477, height: 92.82768542079685)

    @Test("marking the same part of the cache stale three times restrokes it once, whatever its floating-point extent")
    func sameRegionOnce() {
        var damage = Damage()
        for _ in 0..<3 { damage.invalidateCache(Self.awkward) }
        #expect(damage.staleCacheRegions.count == 1)
    }

    @Test("a stale region inside one already marked adds nothing; one beside it is kept apart")
    func containedAndSeparateRegions() {
        var damage = Damage()
        damage.invalidateCache(Rect(x: 0, y: 0, width: 100, height: 100))
        damage.invalidateCache(Rect(x: 10, y: 10, width: 20, height: 20))
        damage.invalidateCache(Rect(x: 300, y: 300, width: 20, height: 20))
        #expect(damage.staleCacheRegions.count == 2)
    }

    @Test("a rectangle contains itself, its inner rectangles, and not one that sticks out")
    func rectContainsRect() {
        #expect(Self.awkward.contains(Self.awkward))
        #expect(Self.awkward.contains(Self.awkward.insetBy(dx: 1, dy: 1)))
        #expect(!Self.awkward.contains(Self.awkward.insetBy(dx: -0.001, dy: 0)))
        #expect(!Rect.null.contains(Self.awkward))
    }
}
