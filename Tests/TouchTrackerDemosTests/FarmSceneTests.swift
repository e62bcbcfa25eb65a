import Foundation
import Testing
import TouchKit
import TouchTrackerDemos

@Suite struct AnimalKindTests {
    @Test(
        "a tap cycles hen → egg → chicken → hen and leaves a fried egg and a roast as they are",
        arguments: [
            (AnimalKind.hen, AnimalKind.egg), (.egg, .chicken), (.chicken, .hen), (.friedEgg, .friedEgg),
            (.roast, .roast),
        ])
    func tap(_ kind: AnimalKind, _ after: AnimalKind) {
        #expect(kind.afterTap == after)
    }

    @Test(
        "a long press roasts a hen, fries an egg and leaves the others as they are (as the seed's processLongPress)",
        arguments: [
            (AnimalKind.hen, AnimalKind.roast), (.egg, .friedEgg), (.chicken, .chicken), (.friedEgg, .friedEgg),
            (.roast, .roast),
        ])
    func longPress(_ kind: AnimalKind, _ after: AnimalKind) {
        #expect(kind.afterLongPress == after)
    }

    @Test("every kind has its own picture size, at least 60 px a side so two fingers fit on it")
    func pictureSizes() {
        let sizes = AnimalKind.allCases.map(\.pictureSize)
        #expect(Set(sizes.map { "\($0.width)x\($0.height)" }).count == AnimalKind.allCases.count)
        #expect(sizes.allSatisfy { $0.width >= 60 && $0.height >= 60 })
    }
}

@Suite struct FarmSceneTests {
    let farm = FarmScene(size: Size(width: 800, height: 600))

    @Test("a tap on the background adds a hen view centred on the tap, its bounds the hen picture's size")
    func tapCreatesHen() throws {
        farm.tap(250, 180, at: 0)
        let hen = try #require(farm.animals.first)
        #expect(farm.animals.count == 1)
        #expect(hen.kind == .hen)
        #expect(hen.center == Point(x: 250, y: 180))
        #expect(hen.bounds.size == AnimalKind.hen.pictureSize)
        #expect(hen.superview === farm.background)
    }

    @Test("a kind change resizes the view to the new picture and keeps its centre")
    func kindChangeResizes() throws {
        let hen = farm.addHen(at: Point(x: 300, y: 300))
        farm.tap(300, 300, at: 0)
        #expect(hen.kind == .egg)
        #expect(hen.bounds.size == AnimalKind.egg.pictureSize)
        #expect(hen.center == Point(x: 300, y: 300))
    }

    @Test("a tap on an animal changes it and creates no hen (the animal's tap wins over the background's)")
    func tapOnAnimalCreatesNoHen() {
        farm.addHen(at: Point(x: 300, y: 300))
        farm.tap(330, 320, at: 0)
        #expect(farm.animals.count == 1)
        #expect(farm.animals[0].kind == .egg)
    }

    @Test("the long press flip lasts 0.5 s: the old picture turns away, then the new one turns in")
    func flip() {
        let hen = farm.addHen(at: Point(x: 300, y: 300))
        farm.touch(1, .began, 300, 300, at: 1)
        farm.clock.advance(to: 1.5)
        #expect(hen.kind == .roast)
        #expect(farm.isAnimating)
        let early = hen.appearance(at: 1.6)
        #expect(early.kind == .hen)
        // The hold is recognized a microsecond before 0.5 s (`Clock.boundaryTolerance`): the flip starts with it.
        #expect(abs(early.widthFactor - cos(0.2 * .pi)) < 1e-5)
        let late = hen.appearance(at: 1.9)
        #expect(late.kind == .roast)
        #expect(abs(late.widthFactor - abs(cos(0.8 * .pi))) < 1e-5)
        #expect(String(decoding: farm.snapshot, as: UTF8.self).contains("\"flipping\": true"))
        farm.clock.advance(to: 2.0)
        #expect(!farm.isAnimating)
        #expect(hen.flip == nil)
        #expect(hen.appearance(at: 2.0).kind == .roast)
        #expect(hen.appearance(at: 2.0).widthFactor == 1)
        farm.touch(1, .ended, 300, 300, at: 2.1)
        #expect(hen.kind == .roast)
    }

    @Test("a long press on a chicken changes nothing and starts no flip")
    func chickenDoesNotFlip() {
        let hen = farm.addHen(at: Point(x: 300, y: 300))
        farm.tap(300, 300, at: 0)
        farm.tap(300, 300, at: 0.5)
        #expect(hen.kind == .chicken)
        farm.press(300, 300, at: 1, for: 0.7)
        #expect(hen.kind == .chicken)
        #expect(hen.flip == nil)
        #expect(!farm.isAnimating)
    }

    @Test("the left-edge pan takes the animals away at once and fades them out over 0.5 s")
    func dissolve() {
        farm.addHen(at: Point(x: 200, y: 200))
        farm.addHen(at: Point(x: 500, y: 300))
        farm.touch(1, .began, 4, 400, at: 1)
        farm.touch(1, .moved, 30, 400, at: 1.02)
        #expect(farm.animals.isEmpty)
        #expect(farm.leaving.count == 2)
        #expect(farm.isAnimating)
        farm.clock.advance(to: 1.27)
        #expect(abs(FarmScene.dissolveOpacity(start: farm.leaving[0].start, at: farm.clock.now) - 0.5) < 1e-9)
        let fading = String(decoding: farm.snapshot, as: UTF8.self)
        #expect(fading.contains("\"opacity\": 0.5"))
        #expect(fading.contains("\"leaving\": true"))
        // The fading hens take no touches: a tap where one was creates a new hen.
        farm.touch(1, .ended, 30, 400, at: 1.3)
        farm.tap(200, 200, at: 1.35, id: 2)
        #expect(farm.animals.count == 1)
        farm.clock.advance(to: 1.53)
        #expect(farm.leaving.isEmpty)
        #expect(!farm.isAnimating)
        #expect(farm.animals.count == 1)
    }

    @Test("an animal's transform is its scale and then its rotation about its centre, so hit testing follows it")
    func transformFollowsGestures() throws {
        let hen = farm.addHen(at: Point(x: 400, y: 300))
        // Pinch 100 px → 200 px and turn 90° clockwise with two fingers.
        farm.touch(2, .began, 350, 300, at: 1)
        farm.touch(3, .began, 450, 300, at: 1)
        for step in 1...10 {
            let angle = Double(step) / 10 * .pi / 2
            let half = 50 + 5 * Double(step)
            let time = 1 + 0.03 * Double(step)
            farm.touch(2, .moved, 400 - half * cos(angle), 300 - half * sin(angle), at: time)
            farm.touch(3, .moved, 400 + half * cos(angle), 300 + half * sin(angle), at: time)
        }
        farm.touch(2, .ended, 400, 200, at: 1.4)
        farm.touch(3, .ended, 400, 400, at: 1.4)
        #expect(abs(hen.scale - 2) < 1e-6)
        #expect(abs(hen.rotation - .pi / 2) < 1e-6)
        // The hen's right edge (60 px from its centre) now points down, 120 px away.
        let edge = hen.convert(Point(x: hen.bounds.maxX, y: hen.bounds.midY), to: nil)
        #expect(abs(edge.x - 400) < 1e-6 && abs(edge.y - 420) < 1e-6)
        // A tap 100 px below the centre is outside the unscaled hen but on the transformed one.
        farm.tap(400, 400, at: 2, id: 4)
        #expect(hen.kind == .egg)
        #expect(farm.animals.count == 1)
    }

    @Test("changes mark the scene for redrawing; the host clears the flag")
    func needsDisplay() {
        #expect(farm.needsDisplay)
        farm.needsDisplay = false
        farm.tap(100, 100, at: 0)
        #expect(farm.needsDisplay)
        farm.needsDisplay = false
        farm.touch(1, .began, 100, 100, at: 1)
        farm.touch(1, .moved, 130, 100, at: 1.05)
        #expect(farm.needsDisplay)
    }

    @Test("resizing moves the left edge's reach and the background with the window")
    func resize() {
        farm.resize(to: Size(width: 1000, height: 700))
        #expect(farm.window.bounds.size == Size(width: 1000, height: 700))
        #expect(farm.background.frame == Rect(x: 0, y: 0, width: 1000, height: 700))
        farm.tap(950, 650, at: 0)
        #expect(farm.animals.count == 1)
    }
}
