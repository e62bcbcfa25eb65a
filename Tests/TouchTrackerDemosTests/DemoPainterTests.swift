import Testing
import TouchKit
import TouchTrackerDemoPainter
import TouchTrackerDemos
import TouchTrackerRender

@Suite struct DemoPainterTests {
    typealias RGB = (red: UInt8, green: UInt8, blue: UInt8)

    func pixel(_ surface: CairoSurface, _ x: Int, _ y: Int) throws -> RGB {
        try #require(surface.pixel(x: x, y: y))
    }

    func close(_ a: RGB, _ b: RGB, within tolerance: Int = 6) -> Bool {
        abs(Int(a.red) - Int(b.red)) <= tolerance && abs(Int(a.green) - Int(b.green)) <= tolerance
            && abs(Int(a.blue) - Int(b.blue)) <= tolerance
    }

    /// The pixels of the box `size` centred on `center`, as one array (to compare pictures).
    func box(_ surface: CairoSurface, around center: Point, size: Size) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for y in stride(from: Int(center.y - size.height / 2), to: Int(center.y + size.height / 2), by: 2) {
            for x in stride(from: Int(center.x - size.width / 2), to: Int(center.x + size.width / 2), by: 2) {
                let p = try pixel(surface, x, y)
                bytes += [p.red, p.green, p.blue]
            }
        }
        return bytes
    }

    @Test("the circle is a red disc of its radius around its centre, on white")
    func circle() throws {
        let scene = CircleScene(size: Size(width: 400, height: 300))
        scene.center = Point(x: 150, y: 160)
        scene.radius = 50
        let surface = try DemoPainter.render(scene, width: 400, height: 300)
        #expect(close(try pixel(surface, 150, 160), (255, 0, 0)))
        #expect(close(try pixel(surface, 150 + 47, 160), (255, 0, 0)))
        #expect(close(try pixel(surface, 150 + 53, 160), (255, 255, 255)))
        #expect(close(try pixel(surface, 150, 160 - 53), (255, 255, 255)))
    }

    @Test("the title bar is dark across the top; the farm is grass-green below it")
    func titleBarAndGrass() throws {
        let farm = FarmScene(size: Size(width: 400, height: 300))
        let surface = try DemoPainter.render(farm, width: 400, height: 300)
        let bar = try pixel(surface, 200, 3)
        #expect(bar.red < 60 && bar.green < 60 && bar.blue < 60)
        #expect(close(try pixel(surface, 200, 150), (204, 232, 168), within: 3))
    }

    @Test("a hen is drawn brown at its centre, and each of the five kinds looks different")
    func fivePictures() throws {
        var pictures: [[UInt8]] = []
        let empty = try box(
            DemoPainter.render(FarmScene(size: Size(width: 300, height: 300)), width: 300, height: 300),
            around: Point(x: 150, y: 150), size: Size(width: 140, height: 110))
        for kind in AnimalKind.allCases {
            let farm = FarmScene(size: Size(width: 300, height: 300))
            farm.addHen(at: Point(x: 150, y: 150))
            // Reach the kind with the app's own gestures, then let any flip finish.
            switch kind {
            case .hen: break
            case .egg: farm.tap(150, 150, at: 0)
            case .chicken:
                farm.tap(150, 150, at: 0)
                farm.tap(150, 150, at: 0.5)
            case .friedEgg:
                farm.tap(150, 150, at: 0)
                farm.press(150, 150, at: 0.5, for: 0.6)
            case .roast: farm.press(150, 150, at: 0, for: 0.6)
            }
            farm.clock.runUntilIdle()
            #expect(farm.animals.first?.kind == kind)
            let surface = try DemoPainter.render(farm, width: 300, height: 300)
            if kind == .hen {
                // Inside the body, outside the wing: the hen's brown.
                #expect(close(try pixel(surface, 150 + 24, 150 + 30), (199, 115, 51)))
            }
            let picture = try box(surface, around: Point(x: 150, y: 150), size: Size(width: 140, height: 110))
            #expect(picture != empty, "\(kind) draws nothing")
            pictures.append(picture)
        }
        #expect(Set(pictures).count == AnimalKind.allCases.count)
    }

    @Test("halfway through the clearing dissolve a hen is drawn half blended into the grass")
    func dissolveBlends() throws {
        let farm = FarmScene(size: Size(width: 300, height: 300))
        farm.addHen(at: Point(x: 150, y: 150))
        let point = (x: 150 + 24, y: 150 + 30)
        farm.touch(1, .began, 4, 250, at: 1)
        farm.touch(1, .moved, 40, 250, at: 1)
        farm.clock.advance(to: 1.25)
        let half = try pixel(try DemoPainter.render(farm, width: 300, height: 300), point.x, point.y)
        // Half the hen's brown (199, 115, 51) over half the grass (204, 232, 168).
        let blend: RGB = (201, 173, 109)
        #expect(close(half, blend, within: 4))
        farm.clock.advance(to: 2)
        let after = try pixel(try DemoPainter.render(farm, width: 300, height: 300), point.x, point.y)
        #expect(close(after, (204, 232, 168), within: 3))
    }

    @Test("a scaled and turned hen is drawn scaled and turned: its brown reaches where the unscaled one's did not")
    func transformedHen() throws {
        let farm = FarmScene(size: Size(width: 400, height: 400))
        let hen = farm.addHen(at: Point(x: 200, y: 200))
        farm.touch(1, .began, 150, 200, at: 0)
        farm.touch(2, .began, 250, 200, at: 0)
        for step in 1...5 {
            let half = 50 + 10 * Double(step)
            farm.touch(1, .moved, 200 - half, 200, at: 0.02 * Double(step))
            farm.touch(2, .moved, 200 + half, 200, at: 0.02 * Double(step))
        }
        #expect(abs(hen.scale - 2) < 1e-9)
        let surface = try DemoPainter.render(farm, width: 400, height: 400)
        // The body point (+24, +30) of a hen at scale 2 lies at (+48, +60).
        #expect(close(try pixel(surface, 200 + 48, 200 + 60), (199, 115, 51)))
    }

    @Test("the swipe scene shades its two halves differently")
    func swipeHalves() throws {
        let scene = SwipeScene(size: Size(width: 400, height: 300))
        let surface = try DemoPainter.render(scene, width: 400, height: 300)
        let left = try pixel(surface, 10, 280)
        let right = try pixel(surface, 390, 280)
        #expect(!close(left, right, within: 2))
        #expect(close(left, (235, 242, 255), within: 2))
        #expect(close(right, (255, 245, 227), within: 2))
    }
}
