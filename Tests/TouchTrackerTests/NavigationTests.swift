import Testing
import TouchKit

@testable import TouchTracker

/// The view over the drawing (DESIGN.md §2b): the wheel scrolls, Ctrl+wheel, a touchpad's pinch and the keys zoom,
/// the drawing has no edge, and what stays on screen stays the same size there.
@Suite struct NavigationTests {
    /// An 800x600 window's controller on the virtual clock.
    final class Window {
        let controller: DrawingController
        var time = 0.0

        init(drawing: Drawing = Drawing()) {
            controller = DrawingController(size: Size(width: 800, height: 600), drawing: drawing)
        }

        /// A finger (or the mouse: `type`) drawn from `from` to `to` in window units.
        func stroke(_ id: UInt64, from: Point, to: Point, type: TouchType = .direct) {
            for (index, phase) in [TouchInput.Phase.began, .moved, .ended].enumerated() {
                let point = index == 0 ? from : to
                time += 0.05
                controller.send(TouchInput(id: id, phase: phase, location: point, timestamp: time, type: type))
            }
            time += 1
            controller.advanceTime(to: time)
        }

        func wheel(_ clicks: Point, at point: Point, control: Bool = false, shift: Bool = false) {
            controller.scroll(ScrollInput(location: point, notches: clicks, control: control, shift: shift))
        }

        func key(_ name: String, control: Bool = true, shift: Bool = false) {
            controller.handleKey(KeyCommand(key: name, control: control, shift: shift))
        }

        var lines: [Line] { controller.drawingView.drawing.lines }
        var viewport: Viewport { controller.viewport }
    }

    static let oneLine = Drawing(lines: [Line(begin: Point(x: 100, y: 100), end: Point(x: 300, y: 100))])

    @Test("three clicks of the wheel down move the view 180 units down the drawing: a line drawn then is saved there")
    func wheelScrollsAndDrawingFollows() {
        let window = Window()
        window.wheel(Point(x: 0, y: 3), at: Point(x: 400, y: 300))
        window.stroke(1, from: Point(x: 100, y: 100), to: Point(x: 200, y: 100))
        #expect(window.lines == [Line(begin: Point(x: 100, y: 280), end: Point(x: 200, y: 280))])
    }

    @Test("Shift turns the wheel's clicks sideways")
    func shiftWheelScrollsSideways() {
        let window = Window()
        window.wheel(Point(x: 0, y: 2), at: Point(x: 400, y: 300), shift: true)
        #expect(window.viewport.offset == Point(x: 120, y: 0))
    }

    @Test("a touchpad's smooth travel scrolls by exactly that many window units, at any zoom")
    func smoothScrollIsExact() {
        let window = Window()
        window.key("plus")
        let before = window.viewport.offset
        window.controller.scroll(ScrollInput(location: Point(x: 10, y: 10), distance: Point(x: 7, y: -13)))
        #expect(window.viewport.offset == before + Point(x: 7, y: -13))
    }

    @Test("Ctrl+wheel zooms about the pointer: the drawing point under it stays under it")
    func controlWheelZoomsAboutThePointer() {
        let window = Window()
        let pointer = Point(x: 250, y: 400)
        let under = window.viewport.drawingPoint(at: pointer)
        window.wheel(Point(x: 0, y: -4), at: pointer, control: true)
        #expect(window.viewport.zoom == 2)
        #expect(window.viewport.drawingPoint(at: pointer) == under)
        window.wheel(Point(x: 0, y: 8), at: pointer, control: true)
        #expect(window.viewport.zoom == 0.5)
        #expect(window.viewport.drawingPoint(at: pointer) == under)
    }

    @Test("Ctrl++ and Ctrl+- zoom about the window's centre, two presses doubling; Ctrl+0 is 100 % again")
    func keysZoomAboutTheCentre() {
        let window = Window()
        window.key("plus", shift: true)
        window.key("equal")
        #expect(window.viewport.zoom == 2)
        #expect(window.viewport.drawingPoint(at: Point(x: 400, y: 300)) == Point(x: 400, y: 300))
        window.key("minus")
        window.key("KP_Subtract")
        window.key("minus")
        window.key("minus")
        #expect(window.viewport.zoom == 0.5)
        window.key("0")
        #expect(window.viewport.zoom == 1)
        #expect(window.viewport.drawingPoint(at: Point(x: 400, y: 300)) == Point(x: 400, y: 300))
    }

    @Test("the zoom stays within 10 % and 1000 %")
    func zoomIsBounded() {
        let window = Window()
        window.wheel(Point(x: 0, y: -100), at: .zero, control: true)
        #expect(window.viewport.zoom == 10)
        window.wheel(Point(x: 0, y: 200), at: .zero, control: true)
        #expect(window.viewport.zoom == 0.1)
    }

    @Test("a change of zoom is shown for a moment as a percentage")
    func zoomIsShown() {
        let window = Window()
        window.key("plus")
        #expect(window.controller.notice == "Zoom: 141 %")
    }

    @Test("Ctrl+Shift+J fits the whole drawing in the window, centred")
    func fitShowsTheWholeDrawing() {
        let drawing = Drawing(lines: [
            Line(begin: Point(x: -2000, y: -1000), end: Point(x: 3000, y: 1000)),
            Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 10)),
        ])
        let window = Window(drawing: drawing)
        window.key("J", shift: true)
        let shown = window.viewport.windowRect(of: Rect(x: -2000, y: -1000, width: 5000, height: 2000))
        #expect(Rect(x: 0, y: 0, width: 800, height: 600).contains(shown), "\(shown)")
        #expect(shown.width > 700, "\(shown)")
    }

    @Test("a line can be drawn far beyond where the window first was, at negative coordinates")
    func theDrawingHasNoEdge() {
        let window = Window()
        window.controller.navigation.scroll(by: Point(x: -5000, y: -3000))
        window.stroke(1, from: Point(x: 10, y: 10), to: Point(x: 110, y: 10))
        #expect(window.lines == [Line(begin: Point(x: -4990, y: -2990), end: Point(x: -4890, y: -2990))])
    }

    @Test("zoomed to 400 %, a line drawn is a quarter as long in the drawing")
    func drawingWhileZoomedIsInDrawingUnits() {
        let window = Window()
        window.controller.navigation.zoom(to: 4, around: .zero)
        window.stroke(1, from: Point(x: 100, y: 100), to: Point(x: 500, y: 100))
        #expect(window.lines == [Line(begin: Point(x: 25, y: 25), end: Point(x: 125, y: 25))])
    }

    @Test("the hit radius stays the same on screen: zoomed out to 25 %, a tap 15 px off a line still selects it")
    func hitRadiusIsOnScreen() {
        let window = Window(drawing: Self.oneLine)
        window.controller.navigation.zoom(to: 0.25, around: .zero)
        // The line at y 100 shows at y 25; 15 px below is 60 drawing units away.
        window.stroke(1, from: Point(x: 50, y: 40), to: Point(x: 50, y: 40))
        #expect(window.controller.drawingView.selection != nil)
    }

    @Test("a menu opens where the tap was on screen, whatever the zoom, and Delete in it deletes the line")
    func menuOpensOnScreen() throws {
        let window = Window(drawing: Self.oneLine)
        window.controller.navigation.zoom(to: 2, around: .zero)
        window.stroke(1, from: Point(x: 400, y: 200), to: Point(x: 400, y: 200))
        let menu = try #require(window.controller.menu)
        #expect(menu.anchor == Point(x: 400, y: 200))
        let item = menu.itemFrame(0).center
        window.stroke(2, from: item, to: item)
        #expect(window.lines.isEmpty)
    }

    @Test("scrolling closes an open menu: its shape moved away from under it")
    func scrollingClosesTheMenu() {
        let window = Window(drawing: Self.oneLine)
        window.stroke(1, from: Point(x: 200, y: 100), to: Point(x: 200, y: 100))
        #expect(window.controller.menu != nil)
        window.wheel(Point(x: 0, y: 1), at: Point(x: 200, y: 100))
        #expect(window.controller.menu == nil)
    }

    @Test("fingers draw with two fingers at once by default: nothing on the screen scrolls or zooms")
    func fingersDrawByDefault() {
        let window = Window()
        let t = 0.1
        let c = window.controller
        c.send(TouchInput(id: 1, phase: .began, location: Point(x: 100, y: 100), timestamp: t))
        c.send(TouchInput(id: 2, phase: .began, location: Point(x: 300, y: 100), timestamp: t))
        c.send(TouchInput(id: 1, phase: .moved, location: Point(x: 50, y: 300), timestamp: t + 0.1))
        c.send(TouchInput(id: 2, phase: .moved, location: Point(x: 450, y: 300), timestamp: t + 0.1))
        c.send(TouchInput(id: 1, phase: .ended, location: Point(x: 50, y: 300), timestamp: t + 0.2))
        c.send(TouchInput(id: 2, phase: .ended, location: Point(x: 450, y: 300), timestamp: t + 0.2))
        c.advanceTime(to: 2)
        #expect(window.lines.count == 2)
        #expect(window.viewport == .actualSize)
    }

    @Test("a touchpad's pinch zooms about its centre and draws nothing")
    func touchpadPinchZooms() {
        let window = Window()
        var bridge = TouchpadGestureBridge()
        let focus = Point(x: 400, y: 300)
        var inputs = bridge.pinch(.began, focus: focus, delta: .zero, scale: 1, deltaAngle: 0, timestamp: 0.1)
        // A touchpad reports its pinch in small steps (libinput, about every 7 ms).
        for step in 1...50 {
            inputs += bridge.pinch(
                .changed, focus: focus, delta: .zero, scale: 1 + Double(step) / 50, deltaAngle: 0,
                timestamp: 0.1 + Double(step) * 0.007)
        }
        inputs += bridge.pinch(.ended, focus: focus, delta: .zero, scale: 2, deltaAngle: 0, timestamp: 0.5)
        for input in inputs { window.controller.send(input) }
        window.controller.advanceTime(to: 2)
        #expect(window.lines.isEmpty)
        #expect(abs(window.viewport.zoom - 2) < 0.01, "\(window.viewport)")
        let held = window.viewport.drawingPoint(at: focus)
        #expect(abs(held.x - 400) < 1 && abs(held.y - 300) < 1, "held \(held), \(window.viewport)")
    }

    @Test("with fingers navigating, one finger scrolls and the pen draws")
    func fingersNavigateWhilePenDraws() {
        let window = Window()
        window.controller.navigation.fingersNavigate = true
        let c = window.controller
        c.send(TouchInput(id: 1, phase: .began, location: Point(x: 400, y: 300), timestamp: 0.1))
        for step in 1...5 {
            c.send(
                TouchInput(
                    id: 1, phase: .moved, location: Point(x: 400, y: 300 - Double(step) * 20),
                    timestamp: 0.1 + Double(step) * 0.02))
        }
        c.send(TouchInput(id: 1, phase: .ended, location: Point(x: 400, y: 200), timestamp: 0.3))
        c.advanceTime(to: 2)
        #expect(window.lines.isEmpty)
        #expect(window.viewport.offset.y > 50, "\(window.viewport)")
        window.stroke(2, from: Point(x: 10, y: 10), to: Point(x: 90, y: 10), type: .pencil)
        #expect(window.lines.count == 1)
    }

    @Test("the view in a replay's state: the zoom and the offset, only when not 100 % at the origin")
    func stateSaysTheView() {
        let window = Window()
        let plain = String(decoding: window.controller.snapshot.encoded(), as: UTF8.self)
        #expect(!plain.contains("\"view\""))
        window.wheel(Point(x: 0, y: -4), at: Point(x: 100, y: 100), control: true)
        let zoomed = String(decoding: window.controller.snapshot.encoded(), as: UTF8.self)
        #expect(zoomed.contains("\"view\": {\"zoom\": 2, \"x\": 100, \"y\": 100}"), "\(zoomed)")
    }
}
