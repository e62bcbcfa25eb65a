import Testing
import TouchKit
import TouchTracker

/// The controller's desktop features on a virtual clock: distances in drawing units, the gesture inspector, Ctrl+S and notices.
@Suite struct DesktopControllerTests {
    /// A controller on an 800x600 window with its own clock, fed like replay feeds it.
    final class Harness {
        let controller: DrawingController
        var time: TimeInterval = 0

        init(drawing: Drawing = Drawing()) {
            controller = DrawingController(size: Size(width: 800, height: 600), drawing: drawing)
        }

        func send(_ id: UInt64, _ phase: TouchInput.Phase, _ x: Double, _ y: Double, after delay: Double = 0.02) {
            time += delay
            controller.advanceTime(to: time)
            controller.send(TouchInput(id: id, phase: phase, location: Point(x: x, y: y), timestamp: time))
        }

        func tap(_ id: UInt64, _ x: Double, _ y: Double) {
            send(id, .began, x, y)
            send(id, .ended, x, y)
        }

        func settle() {
            time += 1
            controller.advanceTime(to: time)
        }
    }

    let horizontal = Drawing(lines: [Line(begin: Point(x: 100, y: 200), end: Point(x: 600, y: 200))])

    @Test("a tap on Colours opens the colour menu with nothing highlighted; Return on it opens it on its first")
    func coloursByTapHasNoHighlight() throws {
        let harness = Harness()
        harness.controller.contextClick(at: Point(x: 300, y: 300))
        let settings = try #require(harness.controller.menu)
        let colours = try #require(settings.items.firstIndex(of: .colors))
        let place = settings.itemFrame(colours)
        harness.tap(1, place.midX, place.midY)
        #expect(harness.controller.menu?.items == MenuItem.colorMenu)
        #expect(harness.controller.menu?.highlightedIndex == nil)
        harness.controller.handleKey(KeyCommand(key: "Escape"))
        harness.controller.handleKey(KeyCommand(key: "F2"))
        for _ in 0..<colours { harness.controller.handleKey(KeyCommand(key: "Down")) }
        harness.controller.handleKey(KeyCommand(key: "Return"))
        #expect(harness.controller.menu?.items == MenuItem.colorMenu)
        #expect(harness.controller.menu?.highlightedIndex == 0)
    }

    @Test("every distance is in drawing units, whatever the screen's scale: width 10, slop 10, hit radius 20")
    func distancesAreDrawingUnits() {
        let controller = Harness().controller
        #expect(controller.drawingView.lineWidth == 10)
        #expect(controller.drawingView.tracker.tapSlop == 10)
        #expect(controller.drawingView.hitRadius == 20)
        #expect(controller.window.tapSlop == 10 && controller.window.multiTapDistance == 45)
        #expect(controller.tapRecognizer.allowableMovement == 10)
        #expect(controller.doubleTapRecognizer.allowableMovement == 10)
        #expect(controller.doubleTapRecognizer.allowableMultiTapDistance == 45)
        #expect(controller.longPressRecognizer.allowableMovement == 10)
    }

    @Test("a 15-unit wobble draws a line and a tap 35 units from a line deselects: units are not pixels")
    func gestureDistancesInUnits() {
        let harness = Harness(drawing: horizontal)
        harness.send(1, .began, 300, 300)
        harness.send(1, .moved, 309, 312)
        harness.send(1, .ended, 309, 312)
        harness.settle()
        #expect(harness.controller.drawingView.drawing.lines.count == 2)
        harness.tap(2, 300, 235)
        harness.settle()
        #expect(harness.controller.drawingView.selection == nil)
    }

    @Test("the menu's metrics are drawing units: Delete's menu is 120 x 44 at every scale")
    func menuMetricsInUnits() {
        let bounds = Rect(x: 0, y: 0, width: 800, height: 600)
        let menu = PopupMenu(anchor: Point(x: 100, y: 100), items: [.delete], within: bounds)
        #expect(menu.frame == Rect(x: 100, y: 100, width: 120, height: 44))
        #expect(menu.itemFrame(0) == Rect(x: 100, y: 104, width: 120, height: 36))
    }

    @Test("F1 toggles the inspector, which lists live touches with their ids and every recognizer with its state")
    func inspectorListsTouchesAndRecognizers() throws {
        let harness = Harness(drawing: horizontal)
        let controller = harness.controller
        #expect(controller.inspector == nil && controller.overlay.isEmpty)
        #expect(controller.handleKey(KeyCommand(key: "F1")))
        harness.send(7, .began, 300, 400)
        harness.send(8, .began, 500, 400)
        let inspector = try #require(controller.inspector)
        #expect(inspector.touches.map(\.location) == [Point(x: 300, y: 400), Point(x: 500, y: 400)])
        #expect(Set(inspector.touches.map(\.id)).count == 2)
        #expect(inspector.recognizers.map(\.name) == ["tap", "double tap", "long press", "three-finger swipe"])
        // Two fingers at once are more than the one-finger tap allows: it has failed while they are down.
        #expect(inspector.recognizers[0].state == "failed", "\(inspector.recognizerLines)")
        harness.send(7, .ended, 300, 400)
        harness.send(8, .ended, 500, 400)
        let after = try #require(controller.inspector)
        #expect(after.touches.isEmpty)
        #expect(after.recognizerLines[0] == "tap: possible (last: failed)", "\(after.recognizerLines)")
        #expect(controller.handleKey(KeyCommand(key: "F1")))
        #expect(controller.inspector == nil)
    }

    @Test("the inspector keeps a recognized tap's outcome after the recognizer resets")
    func inspectorKeepsLastOutcome() throws {
        let harness = Harness(drawing: horizontal)
        harness.controller.handleKey(KeyCommand(key: "F1"))
        harness.tap(1, 300, 205)
        harness.settle()
        let inspector = try #require(harness.controller.inspector)
        #expect(inspector.recognizerLines[0] == "tap: possible (last: ended)", "\(inspector.recognizerLines)")
        #expect(harness.controller.drawingView.selection != nil)
    }

    @Test("Ctrl+S asks the platform to export; without an exporter it does nothing")
    func controlSExports() {
        let controller = Harness().controller
        #expect(!controller.handleKey(KeyCommand(key: "s", control: true)))
        var exports = 0
        controller.onExport = { exports += 1 }
        #expect(controller.handleKey(KeyCommand(key: "s", control: true)))
        #expect(!controller.handleKey(KeyCommand(key: "s")))
        #expect(exports == 1)
    }

    @Test("a notice shows for its time on the window clock, and a new one restarts the time")
    func noticeExpires() {
        let harness = Harness()
        let controller = harness.controller
        controller.showNotice(.exported("a.png"), for: 2)
        controller.advanceTime(to: 1.5)
        controller.showNotice(.exported("b.png"), for: 2)
        controller.advanceTime(to: 3)
        #expect(controller.overlay.notice?.description == "Exported b.png")
        controller.advanceTime(to: 3.6)
        #expect(controller.notice == nil && controller.overlay.isEmpty)
    }

    @Test("a notice is kept in English and put in the user's language only where it is drawn")
    func noticeTranslatedAtTheEdge() {
        let message = Message.optionSwitched(.widthBySpeed, on: true)
        let german = ["{1}: on": "{1}: an", "Width by Speed": "Breite nach Tempo"]
        #expect(message.description == "Width by Speed: on")
        #expect(message.localized(Translate(text: { german[$0] ?? $0 })) == "Breite nach Tempo: an")
    }
}
