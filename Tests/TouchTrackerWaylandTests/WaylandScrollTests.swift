import Testing
import TouchKit
import TouchTracker
import TouchTrackerSession

@testable import TouchTrackerWayland

/// `wl_pointer`'s axis events, as compositors send them between frames, turned into the session's scrolls.
@Suite("Wayland scrolling")
struct WaylandScrollTests {
    /// A translator whose pointer is at surface point (120.5, 80.25).
    private func translator() -> WaylandInputTranslator {
        var translator = WaylandInputTranslator()
        _ = translator.translate(.pointerEnter(x: 120.5, y: 80.25), now: 1)
        return translator
    }

    /// The scrolls `events` make, each translated in turn.
    private func scrolls(_ events: [SeatEvent], translator: inout WaylandInputTranslator) -> [ScrollInput] {
        events.flatMap { translator.translate($0, now: 1) }.compactMap { event in
            if case .scroll(let input) = event { return input }
            return nil
        }
    }

    private func scrolls(_ events: [SeatEvent]) -> [ScrollInput] {
        var translator = translator()
        return scrolls(events, translator: &translator)
    }

    private let pointer = Point(x: 120.5, y: 80.25)

    @Test("a wheel click down at seat version 8 (value120 120) is one notch down where the pointer is, at its frame")
    func wheelClickValue120() {
        var translator = translator()
        let frame: [SeatEvent] = [
            .axisSource(.wheel), .axisValue120(.vertical, value120: 120), .axis(time: 5, .vertical, value: 10),
        ]
        #expect(scrolls(frame, translator: &translator).isEmpty, "nothing before the frame ends")
        #expect(
            scrolls([.pointerFrame], translator: &translator) == [
                ScrollInput(location: pointer, notches: Point(x: 0, y: 1))
            ])
    }

    @Test("a high-resolution wheel's half click (value120 60) is half a notch; a click left is -1 sideways")
    func hiResHalfClick() {
        #expect(
            scrolls([
                .axisSource(.wheel), .axisValue120(.vertical, value120: 60), .axis(time: 5, .vertical, value: 5),
                .pointerFrame,
            ])
            .map(\.notches) == [Point(x: 0, y: 0.5)])
        #expect(
            scrolls([
                .axisSource(.wheel), .axis(time: 5, .horizontal, value: -15),
                .axisValue120(.horizontal, value120: -120),
                .pointerFrame,
            ]).map(\.notches) == [Point(x: -1, y: 0)])
    }

    @Test("at seat versions 5 to 7 a wheel's discrete steps are its notches, whatever the compositor's axis value")
    func discreteSteps() {
        #expect(
            scrolls([
                .axisSource(.wheel), .axisDiscrete(.vertical, steps: -2), .axis(time: 5, .vertical, value: -30),
                .pointerFrame,
            ])
            .map(\.notches) == [Point(x: 0, y: -2)])
    }

    @Test("a wheel's travel without clicks (between a hi-res wheel's clicks, before value120) scrolls nothing")
    func wheelTravelWithoutClicks() {
        #expect(scrolls([.axisSource(.wheel), .axis(time: 5, .vertical, value: 3.5), .pointerFrame]).isEmpty)
    }

    @Test(
        "a touchpad's fingers and button scrolling are distance in surface units (window units), both axes at once",
        arguments: [ScrollFrame.Source.finger, .continuous])
    func touchpadIsDistance(source: ScrollFrame.Source) {
        #expect(
            scrolls([
                .axisSource(source), .axis(time: 5, .vertical, value: 12.5), .axis(time: 5, .horizontal, value: -3),
                .pointerFrame,
            ]) == [ScrollInput(location: pointer, distance: Point(x: -3, y: 12.5))])
    }

    @Test("the fingers lifting (axis_stop) moves nothing: a frame holding only a stop is no scroll")
    func axisStopAlone() {
        #expect(scrolls([.axisSource(.finger), .axisStop(time: 9, .vertical), .pointerFrame]).isEmpty)
    }

    @Test("Ctrl and Shift the keyboard holds are carried, and let go they are not")
    func modifiersAreCarried() {
        var translator = translator()
        let click: [SeatEvent] = [.axisSource(.wheel), .axisValue120(.vertical, value120: 120), .pointerFrame]
        let held = scrolls([.modifiers(control: true, shift: true)] + click, translator: &translator)
        #expect(held.map(\.control) == [true] && held.map(\.shift) == [true])
        let shifted = scrolls([.modifiers(control: false, shift: true)] + click, translator: &translator)
        #expect(shifted.map(\.control) == [false] && shifted.map(\.shift) == [true])
        let released = scrolls([.modifiers(control: false, shift: false)] + click, translator: &translator)
        #expect(released.map(\.control) == [false] && released.map(\.shift) == [false])
    }

    @Test("each frame is its own scroll: two clicks in two frames are two scrolls of one notch")
    func framesAreSeparate() {
        let click: [SeatEvent] = [.axisSource(.wheel), .axisValue120(.vertical, value120: 120), .pointerFrame]
        #expect(scrolls(click + click).map(\.notches) == [Point(x: 0, y: 1), Point(x: 0, y: 1)])
    }

    @Test("the scroll is where the pointer last moved")
    func followsThePointer() {
        var translator = translator()
        _ = translator.translate(.pointerMotion(time: 3, x: 10, y: 20), now: 1)
        let scroll = scrolls(
            [.axisSource(.wheel), .axisValue120(.vertical, value120: 120), .pointerFrame], translator: &translator)
        #expect(scroll.map(\.location) == [Point(x: 10, y: 20)])
    }
}
