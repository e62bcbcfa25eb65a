import Testing

@testable import TouchKit

/// UIKit's delivery rules: what the view sees, and when, under each combination of cancelsTouchesInView,
/// delaysTouchesBegan and delaysTouchesEnded.
@Suite struct DeliveryTests {
    /// A tap with a small wobble: down, move 3 px, up.
    func wobblyTap(_ h: Harness) {
        h.down(1, 100, 100, at: 0)
        h.move(1, 103, 100, at: 0.05)
        h.up(1, 103, 100, at: 0.1)
    }

    func tapHarness(cancels: Bool, delaysBegan: Bool, delaysEnded: Bool) -> Harness {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.cancelsTouchesInView = cancels
        tap.delaysTouchesBegan = delaysBegan
        tap.delaysTouchesEnded = delaysEnded
        h.add(tap, "tap")
        return h
    }

    @Test(
        "a finger that joins a recognized pan (cancelsTouchesInView) is part of the gesture and never reaches the view")
    func fingerJoiningARecognizedPanStaysFromTheView() {
        let h = Harness()
        h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        h.move(1, 130, 100, at: 0.05)
        h.move(1, 160, 100, at: 0.1)
        #expect(h.actions.contains("pan:began"))
        let viewCallsBefore = h.viewCalls.count
        h.down(2, 300, 300, at: 0.15)
        h.move(2, 320, 300, at: 0.2)
        h.up(2, 320, 300, at: 0.25)
        #expect(h.viewCalls.count == viewCallsBefore, "\(h.viewCalls)")
    }

    @Test("UIKit's defaults: the view sees began and moved, then cancelled, then the action")
    func defaults() {
        let tap = TapGestureRecognizer()
        #expect(tap.cancelsTouchesInView && !tap.delaysTouchesBegan && tap.delaysTouchesEnded)
        let h = tapHarness(cancels: true, delaysBegan: false, delaysEnded: true)
        wobblyTap(h)
        #expect(h.log.entries == ["view.began", "view.moved", "view.cancelled(gesture)", "tap:ended"])
    }

    @Test("cancels without delaying the end: still cancelled, never ended, because recognizers see the end first")
    func cancelsNoDelayEnded() {
        let h = tapHarness(cancels: true, delaysBegan: false, delaysEnded: false)
        wobblyTap(h)
        #expect(h.log.entries == ["view.began", "view.moved", "view.cancelled(gesture)", "tap:ended"])
    }

    @Test("not cancelling: the view sees the whole touch, the action comes before the view's end")
    func noCancel() {
        let h = tapHarness(cancels: false, delaysBegan: false, delaysEnded: true)
        wobblyTap(h)
        #expect(h.log.entries == ["view.began", "view.moved", "tap:ended", "view.ended"])
    }

    @Test("not cancelling and not delaying the end: the same order")
    func noCancelNoDelay() {
        let h = tapHarness(cancels: false, delaysBegan: false, delaysEnded: false)
        wobblyTap(h)
        #expect(h.log.entries == ["view.began", "view.moved", "tap:ended", "view.ended"])
    }

    @Test("delaying began and cancelling: the view never sees a recognized touch at all")
    func delaysBeganAndCancels() {
        let h = tapHarness(cancels: true, delaysBegan: true, delaysEnded: true)
        wobblyTap(h)
        #expect(h.log.entries == ["tap:ended"])
        #expect(h.window.heldTouchCount == 0)
    }

    @Test("delaying began without cancelling: the view gets the whole touch after the action")
    func delaysBeganNoCancel() {
        let h = tapHarness(cancels: false, delaysBegan: true, delaysEnded: true)
        wobblyTap(h)
        #expect(h.log.entries == ["tap:ended", "view.began", "view.moved", "view.ended"])
    }

    @Test("delaying began: when the gesture fails the view gets began and the moves it missed")
    func delaysBeganThenFails() {
        let h = tapHarness(cancels: true, delaysBegan: true, delaysEnded: true)
        h.down(1, 100, 100, at: 0)
        h.move(1, 105, 100, at: 0.05)
        #expect(h.log.entries.isEmpty)
        h.move(1, 130, 100, at: 0.1)
        #expect(h.log.entries == ["view.began", "view.moved"])
        h.move(1, 140, 100, at: 0.15)
        h.up(1, 140, 100, at: 0.2)
        #expect(h.log.entries == ["view.began", "view.moved", "view.moved", "view.ended"])
    }

    @Test("delaying began: a touch the system cancels while withheld is never shown to the view")
    func delaysBeganSystemCancel() {
        let h = tapHarness(cancels: true, delaysBegan: true, delaysEnded: true)
        h.down(1, 100, 100, at: 0)
        h.systemCancel(1, at: 0.1)
        h.settle()
        #expect(h.log.entries.isEmpty)
    }

    @Test("delaying the end: a double tap holds the first tap's end until it fails, then delivers it")
    func delaysEndedUntilFailure() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        #expect(h.log.entries == ["view.began"])
        #expect(h.window.heldTouchCount == 1)
        h.advance(to: 0.41)
        #expect(h.log.entries == ["view.began", "view.ended"])
        #expect(h.window.heldTouchCount == 0)
    }

    @Test("delaying the end: when the double tap recognizes, both held touches are cancelled in one call")
    func delaysEndedThenRecognized() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        #expect(h.log.entries == ["view.began", "view.began", "view.cancelled(gesture)", "double:ended"])
        #expect(h.view.violations.isEmpty)
        #expect(h.view.liveTouches.isEmpty)
    }

    @Test("not delaying the end: the first tap ends at once and only the second is cancelled")
    func noDelayEndedDoubleTap() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        double.delaysTouchesEnded = false
        h.add(double, "double")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        #expect(
            h.log.entries == [
                "view.began", "view.ended", "view.began", "view.cancelled(gesture)", "double:ended",
            ])
    }

    @Test("a pan that cancels: the view's moves stop at the slop, then cancelled, then the actions")
    func panCancels() {
        let h = Harness()
        h.add(PanGestureRecognizer(), "pan")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 4)
        #expect(
            h.log.entries == [
                "view.began", "view.cancelled(gesture)", "pan:began", "pan:changed", "pan:changed", "pan:changed",
                "pan:ended",
            ])
    }

    @Test("a pan that does not cancel: each action comes before the view's move")
    func panDoesNotCancel() {
        let h = Harness()
        let pan = PanGestureRecognizer()
        pan.cancelsTouchesInView = false
        h.add(pan, "pan")
        h.drag(from: pt(100, 100), to: pt(200, 100), at: 0, steps: 3)
        #expect(
            h.log.entries == [
                "view.began", "pan:began", "view.moved", "pan:changed", "view.moved", "pan:changed", "view.moved",
                "pan:ended", "view.ended",
            ])
    }

    @Test("the view sees a cancel or an end only once per touch, never both")
    func onceOnly() {
        let h = Harness()
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer()
        single.require(toFail: double)
        h.add(double, "double")
        h.add(single, "single")
        h.add(LongPressGestureRecognizer(), "press")
        h.add(PanGestureRecognizer(), "pan")
        h.tap(100, 100, at: 0)
        h.tap(100, 100, at: 0.3)
        h.drag(from: pt(300, 300), to: pt(400, 300), at: 1)
        h.down(1, 500, 500, at: 2)
        h.advance(to: 3)
        h.up(1, 500, 500, at: 3)
        h.tap(100, 100, at: 4)
        h.settle()
        #expect(h.view.violations.isEmpty)
        #expect(h.view.liveTouches.isEmpty)
        #expect(h.view.finishedTouches.count == 5)
    }

    @Test("recognizers on the view's ancestors see its touches too")
    func ancestorsRecognize() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        h.add(TapGestureRecognizer(), "parentTap")
        h.tap(150, 150, at: 0)
        #expect(h.log.entries == ["child.began", "child.cancelled(gesture)", "parentTap:ended"])
    }

    @Test("the nearest view's recognizer wins over its ancestor's")
    func nearestWins() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        h.add(TapGestureRecognizer(), "parentTap")
        h.add(TapGestureRecognizer(), "childTap", to: child)
        h.tap(150, 150, at: 0)
        #expect(h.actions == ["childTap:ended"])
    }

    @Test("a touch outside a subview does not reach the subview's recognizers")
    func outsideSubview() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        h.add(TapGestureRecognizer(), "childTap", to: child)
        h.tap(50, 50, at: 0)
        #expect(h.log.entries == ["view.began", "view.ended"])
    }

    @Test("Touch.gestureRecognizers lists the recognizers that receive the touch, nearest first")
    func touchRecognizerList() {
        let h = Harness()
        let child = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 100), log: h.log, label: "child")
        h.view.addSubview(child)
        let parentTap = h.add(TapGestureRecognizer(), "parentTap")
        let childPan = h.add(PanGestureRecognizer(), "childPan", to: child)
        h.down(1, 150, 150, at: 0)
        let touch = h.window.activeTouches.first
        #expect(
            touch?.gestureRecognizers.map(ObjectIdentifier.init) == [childPan, parentTap].map(ObjectIdentifier.init))
        #expect(touch?.view === child)
    }

    @Test("the touch event lists all touches and the changed ones")
    func eventContents() {
        let h = Harness()
        final class Spy: View {
            var seen: [(Int, Int)] = []
            override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
                seen.append((event.allTouches.count, event.changedTouches.count))
            }
            override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
                seen.append((event.allTouches.count, event.touches(for: self).count))
            }
        }
        let spy = Spy(frame: Rect(x: 0, y: 0, width: 800, height: 600))
        spy.isMultipleTouchEnabled = true
        h.window.addSubview(spy)
        h.down(1, 10, 10, at: 0)
        h.down(2, 20, 20, at: 0.1)
        h.move(1, 15, 15, at: 0.2)
        #expect(spy.seen.map(\.0) == [1, 2, 2])
        #expect(spy.seen.map(\.1) == [1, 1, 2])
    }
}

/// Every combination of the three delivery properties, for a tap that recognizes and for one that fails.
@Suite struct DeliveryMatrixTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let cancels: Bool
        let delaysBegan: Bool
        let delaysEnded: Bool
        let recognized: [String]
        let failed: [String]
        var testDescription: String {
            "cancels \(cancels), delaysBegan \(delaysBegan), delaysEnded \(delaysEnded)"
        }
    }

    static let cases: [Case] = [
        Case(
            cancels: true, delaysBegan: false, delaysEnded: true,
            recognized: ["view.began", "view.moved", "view.cancelled(gesture)", "tap:ended"],
            failed: ["view.began", "view.moved", "view.moved", "view.ended"]),
        Case(
            cancels: true, delaysBegan: false, delaysEnded: false,
            recognized: ["view.began", "view.moved", "view.cancelled(gesture)", "tap:ended"],
            failed: ["view.began", "view.moved", "view.moved", "view.ended"]),
        Case(
            cancels: false, delaysBegan: false, delaysEnded: true,
            recognized: ["view.began", "view.moved", "tap:ended", "view.ended"],
            failed: ["view.began", "view.moved", "view.moved", "view.ended"]),
        Case(
            cancels: false, delaysBegan: false, delaysEnded: false,
            recognized: ["view.began", "view.moved", "tap:ended", "view.ended"],
            failed: ["view.began", "view.moved", "view.moved", "view.ended"]),
        Case(
            cancels: true, delaysBegan: true, delaysEnded: true,
            recognized: ["tap:ended"],
            failed: ["view.began", "view.moved", "view.ended"]),
        Case(
            cancels: true, delaysBegan: true, delaysEnded: false,
            recognized: ["tap:ended"],
            failed: ["view.began", "view.moved", "view.ended"]),
        Case(
            cancels: false, delaysBegan: true, delaysEnded: true,
            recognized: ["tap:ended", "view.began", "view.moved", "view.ended"],
            failed: ["view.began", "view.moved", "view.ended"]),
        Case(
            cancels: false, delaysBegan: true, delaysEnded: false,
            recognized: ["tap:ended", "view.began", "view.moved", "view.ended"],
            failed: ["view.began", "view.moved", "view.ended"]),
    ]

    func harness(_ c: Case) -> Harness {
        let h = Harness()
        let tap = TapGestureRecognizer()
        tap.cancelsTouchesInView = c.cancels
        tap.delaysTouchesBegan = c.delaysBegan
        tap.delaysTouchesEnded = c.delaysEnded
        h.add(tap, "tap")
        return h
    }

    @Test("a recognized tap: the view's callbacks and the action, in order", arguments: cases)
    func recognized(_ c: Case) {
        let h = harness(c)
        h.down(1, 100, 100, at: 0)
        h.move(1, 103, 100, at: 0.05)
        h.up(1, 103, 100, at: 0.1)
        #expect(h.log.entries == c.recognized)
        #expect(h.view.violations.isEmpty)
    }

    @Test("a failed tap: the view gets every touch, late only while began was delayed", arguments: cases)
    func failed(_ c: Case) {
        let h = harness(c)
        h.down(1, 100, 100, at: 0)
        h.move(1, 103, 100, at: 0.05)
        h.move(1, 150, 100, at: 0.1)
        h.up(1, 150, 100, at: 0.15)
        #expect(h.log.entries == c.failed)
        #expect(h.view.violations.isEmpty)
        #expect(h.view.liveTouches.isEmpty)
    }
}

@Suite struct RecognizerAPITests {
    @Test("location(ofTouch:in:) reports each finger in the order they went down")
    func locationOfTouch() {
        let h = Harness()
        let pan = h.add(PanGestureRecognizer(), "pan")
        h.down(1, 100, 100, at: 0)
        h.down(2, 300, 200, at: 0.01)
        #expect(pan.numberOfTouches == 2)
        #expect(pan.location(ofTouch: 0, in: nil) == pt(100, 100))
        #expect(pan.location(ofTouch: 1, in: h.view) == pt(300, 200))
        #expect(pan.location(ofTouch: 2, in: nil) == .zero)
        #expect(pan.location(ofTouch: -1, in: nil) == .zero)
        #expect(pan.location(in: nil) == pt(200, 150))
    }

    @Test("failure requirements chain: A waits for B, which waits for C")
    func chainedRequirements() {
        let h = Harness()
        let triple = TapGestureRecognizer()
        triple.numberOfTapsRequired = 3
        let double = TapGestureRecognizer()
        double.numberOfTapsRequired = 2
        let single = TapGestureRecognizer()
        double.require(toFail: triple)
        single.require(toFail: double)
        h.add(triple, "triple")
        h.add(double, "double")
        h.add(single, "single")
        h.tap(100, 100, at: 0, duration: 0.05)
        h.tap(100, 100, at: 0.2, duration: 0.05)
        h.settle()
        #expect(h.actions == ["double:ended"])
        h.tap(100, 100, at: 2, duration: 0.05)
        h.settle()
        #expect(h.actions == ["double:ended", "single:ended"])
        h.tap(100, 100, at: 4, duration: 0.05)
        h.tap(100, 100, at: 4.2, duration: 0.05)
        h.tap(100, 100, at: 4.4, duration: 0.05)
        h.settle()
        #expect(h.actions == ["double:ended", "single:ended", "triple:ended"])
    }

    @Test("require(toFail:) on itself or twice on the same recognizer is harmless")
    func requireEdgeCases() {
        let h = Harness()
        let tap = h.add(TapGestureRecognizer(), "tap")
        let other = h.add(PanGestureRecognizer(), "pan")
        tap.require(toFail: tap)
        tap.require(toFail: other)
        tap.require(toFail: other)
        h.tap(100, 100, at: 0)
        #expect(h.actions == ["tap:ended"])
    }

    @Test("a recognizer's description names its class, name and state")
    func description() {
        let tap = TapGestureRecognizer()
        tap.name = "select"
        #expect(tap.description == "TapGestureRecognizer(\"select\", possible)")
    }
}
