import Testing
import TouchTracker

@testable import TouchTrackerAccessibility

/// What a screen reader is told when the drawing's shapes change: one shape added, wherever it goes (a line goes in
/// below the circles), is an "add" at its own place; anything else asks for the children to be read again.
@Suite struct AccessibleChildrenChangeTests {
    private let lines = (1...2).map { ShapeID(.line, number: UInt64($0)) }
    private let circles = (1...3).map { ShapeID(.circle, number: UInt64($0)) }

    @Test("a line drawn while circles exist is added at its place among the lines, with its own id")
    func lineAddedBelowTheCircles() {
        let added = ShapeID(.line, number: 3)
        let change = AccessibilityBridge.singleInsertion(from: lines + circles, to: lines + [added] + circles)
        #expect(change?.index == 2 && change?.id == added)
    }

    @Test("a circle added on top is added at the end")
    func circleAddedOnTop() {
        let added = ShapeID(.circle, number: 4)
        let change = AccessibilityBridge.singleInsertion(from: lines + circles, to: lines + circles + [added])
        #expect(change?.index == 5 && change?.id == added)
    }

    @Test("two shapes added at once, or one replaced, is not a single insertion")
    func otherChangesAreNotOneAdd() {
        let a = ShapeID(.line, number: 3)
        let b = ShapeID(.line, number: 4)
        #expect(AccessibilityBridge.singleInsertion(from: lines, to: lines + [a, b]) == nil)
        #expect(AccessibilityBridge.singleInsertion(from: lines + [a], to: lines + [b, a]) != nil)
        #expect(AccessibilityBridge.singleInsertion(from: lines, to: [lines[0], a]) == nil)
    }

    @Test(
        """
        a screen reader hears announcements when one listens to object:announcement, to every object event or to \
        every event, and not when it listens only to others (Orca 43's)
        """)
    func announcementsHeard() {
        #expect(AccessibilityBridge.hearsAnnouncements(["Object:Announcement:"]))
        #expect(AccessibilityBridge.hearsAnnouncements(["Object::", "Window:Activate:"]))
        #expect(AccessibilityBridge.hearsAnnouncements(["::"]))
        #expect(
            !AccessibilityBridge.hearsAnnouncements([
                "Object:StateChanged:showing", "Object:ChildrenChanged:add", "Window:Activate:",
            ]))
        #expect(!AccessibilityBridge.hearsAnnouncements([]))
    }
}
