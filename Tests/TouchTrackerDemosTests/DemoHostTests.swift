import JSON
import Testing
import TouchKit

@testable import TouchTrackerDemos

@Suite struct DemoHostTests {
    let host = DemoHost(kind: .farm, size: Size(width: 640, height: 480))

    @Test("Tab goes Farm → Circle → Swipe → Farm; Shift+Tab (or ISO_Left_Tab) goes back")
    func tabCycles() {
        var seen: [DemoSceneKind] = [host.kind]
        for _ in 0..<3 {
            #expect(host.handleKey(name: "Tab"))
            seen.append(host.kind)
        }
        #expect(seen == [.farm, .circle, .swipe, .farm])
        #expect(host.handleKey(name: "Tab", shift: true))
        #expect(host.kind == .swipe)
        #expect(host.handleKey(name: "ISO_Left_Tab", shift: true))
        #expect(host.kind == .circle)
    }

    @Test("F1, F2 and F3 pick the Farm, the Circle and the Swipe; other keys are left to the scene")
    func functionKeys() {
        #expect(host.handleKey(name: "F3"))
        #expect(host.kind == .swipe)
        #expect(host.handleKey(name: "F2"))
        #expect(host.kind == .circle)
        #expect(host.handleKey(name: "F1"))
        #expect(host.kind == .farm)
        #expect(!host.handleKey(name: "a"))
        #expect(!host.handleKey(name: "Tab", control: true))
    }

    @Test("a switch starts a fresh scene of the same size on the same clock, and asks for a redraw")
    func freshScene() {
        host.send(TouchInput(id: 1, phase: .began, location: Point(x: 100, y: 100), timestamp: 0))
        host.send(TouchInput(id: 1, phase: .ended, location: Point(x: 100, y: 100), timestamp: 0.05))
        #expect((host.scene as? FarmScene)?.animals.count == 1)
        host.needsDisplay = false
        host.handleKey(name: "Tab")
        host.handleKey(name: "F1")
        #expect(host.needsDisplay)
        #expect((host.scene as? FarmScene)?.animals.count == 0)
        #expect(host.scene.size == Size(width: 640, height: 480))
        #expect(host.scene.clock === host.clock)
        host.needsDisplay = false
        #expect(!host.needsDisplay)
    }

    @Test("a finger down during a switch is dropped: its moves and lift do nothing in the new scene")
    func fingerAcrossSwitch() {
        host.handleKey(name: "F2")
        host.send(TouchInput(id: 1, phase: .began, location: Point(x: 100, y: 100), timestamp: 0))
        host.handleKey(name: "F2")
        host.send(TouchInput(id: 1, phase: .moved, location: Point(x: 200, y: 200), timestamp: 0.1))
        host.send(TouchInput(id: 1, phase: .ended, location: Point(x: 200, y: 200), timestamp: 0.2))
        let circle = host.scene as? CircleScene
        #expect(circle?.center == Point(x: 320, y: 240))
    }

    @Test("running a replay lets the clock run until every timer and animation is over")
    func replayFinishesAnimations() {
        DemoReplay.run(
            [
                (0, .touch(id: 1, phase: .began, location: Point(x: 200, y: 200), force: nil)),
                (0.05, .touch(id: 1, phase: .ended, location: Point(x: 200, y: 200), force: nil)),
                (0.5, .touch(id: 2, phase: .began, location: Point(x: 200, y: 200), force: nil)),
            ], on: host)
        let hen = (host.scene as? FarmScene)?.animals.first
        #expect(hen?.kind == .roast)
        #expect(!host.isAnimating)
        // The hold began at 1.0 (a microsecond early, `Clock.boundaryTolerance`) and its flip lasts 0.5 s.
        #expect(abs(host.clock.now - 1.5) < 1e-5)
    }
}

@Suite struct SceneSnapshotTests {
    @Test(
        "numbers are rounded to 4 decimals, whole ones written without a fraction",
        arguments: [
            (1.49999999, "1.5"), (0.785398163, "0.7854"), (-0.00001, "0"), (400, "400"), (-12.5, "-12.5"),
            (Double.nan, "null"),
        ])
    func numbers(_ value: Double, _ text: String) {
        #expect(JSONValue.number(value).sceneSnapshotBytes == Array((text + "\n").utf8))
    }

    @Test("strings are escaped and objects keep their key order, one top-level member per line")
    func layout() {
        let json = JSONValue.object([
            ("b", .string("say \"hi\"\n")), ("a", .array([.bool(true), .null])),
            ("list", .array([.object([("x", .number(1))])])),
        ])
        #expect(
            String(decoding: json.sceneSnapshotBytes, as: UTF8.self)
                == "{\"b\": \"say \\\"hi\\\"\\n\",\n \"a\": [true, null],\n \"list\": [\n  {\"x\": 1}]}\n")
    }
}
