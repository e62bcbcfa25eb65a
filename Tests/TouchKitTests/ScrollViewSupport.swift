import Testing

@testable import TouchKit

/// A scroll view delegate that logs what it is told (scrolls and zooms counted, not logged) and answers with the
/// view to zoom and, when set, a new resting point for a flick.
final class ScrollRecorder: ScrollViewDelegate {
    var log: [String] = []
    var scrolls = 0
    var zooms = 0
    var zoomView: View?
    var retarget: ((Point) -> Point)?
    var endVelocity: Point?

    func scrollViewDidScroll(_ scrollView: ScrollView) { scrolls += 1 }
    func scrollViewDidZoom(_ scrollView: ScrollView) { zooms += 1 }
    func viewForZooming(in scrollView: ScrollView) -> View? { zoomView }
    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { log.append("willBeginDragging") }
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: inout Point
    ) {
        endVelocity = velocity
        if let retarget { targetContentOffset = retarget(targetContentOffset) }
    }
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        log.append("didEndDragging(\(decelerate))")
    }
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) { log.append("willBeginDecelerating") }
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { log.append("didEndDecelerating") }
    func scrollViewWillBeginZooming(_ scrollView: ScrollView, with view: View?) { log.append("willBeginZooming") }
    func scrollViewDidEndZooming(_ scrollView: ScrollView, with view: View?, atScale scale: Double) {
        log.append("didEndZooming(\(scale))")
    }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { log.append("didEndScrollingAnimation") }
}

/// A scroll view whose content questions are closures, and which records what it was asked.
final class ConfigurableScrollView: ScrollView {
    var shouldBegin: (View) -> Bool = { _ in true }
    var shouldCancel: (View) -> Bool = { _ in true }
    var askedToBegin: [ObjectIdentifier] = []
    var askedToCancel: [ObjectIdentifier] = []

    override func touchesShouldBegin(_ touches: Set<Touch>, with event: TouchEvent?, in view: View) -> Bool {
        askedToBegin.append(ObjectIdentifier(view))
        return shouldBegin(view)
    }

    override func touchesShouldCancel(in view: View) -> Bool {
        askedToCancel.append(ObjectIdentifier(view))
        return shouldCancel(view)
    }
}

/// The usual `Harness` (an 800×600 window on a virtual clock, with a recording view), with a scroll view filling the
/// recording view and a recording content view of 2000×1500 inside it, the delegate's view to zoom.
final class ScrollHarness {
    let harness: Harness
    let scrollView: ConfigurableScrollView
    let content: RecordingView
    let recorder = ScrollRecorder()

    init(contentSize: Size = Size(width: 2000, height: 1500), frame: Rect = Rect(x: 0, y: 0, width: 800, height: 600)) {
        harness = Harness()
        scrollView = ConfigurableScrollView(frame: frame)
        content = RecordingView(
            frame: Rect(origin: .zero, size: contentSize), log: harness.log, label: "content")
        scrollView.addSubview(content)
        scrollView.contentSize = contentSize
        scrollView.delegate = recorder
        recorder.zoomView = content
        harness.view.addSubview(scrollView)
    }

    var clock: Clock { harness.clock }
    /// What the content view was told, in order.
    var contentCalls: [String] { harness.viewCalls.filter { $0.hasPrefix("content.") } }

    func down(_ id: UInt64 = 1, _ x: Double, _ y: Double, at t: TimeInterval, type: TouchType = .direct) {
        harness.down(id, x, y, at: t, type: type)
    }
    func move(_ id: UInt64 = 1, _ x: Double, _ y: Double, at t: TimeInterval) { harness.move(id, x, y, at: t) }
    func up(_ id: UInt64 = 1, _ x: Double, _ y: Double, at t: TimeInterval) { harness.up(id, x, y, at: t) }

    /// A straight drag by one finger in `steps` moves over `duration`, lifted at the end unless `lift` is false.
    func drag(
        _ id: UInt64 = 1, from a: Point, to b: Point, at t: TimeInterval, duration: TimeInterval = 0.1,
        steps: Int = 10, lift: Bool = true
    ) {
        harness.drag(id, from: a, to: b, at: t, duration: duration, steps: steps, lift: lift)
    }

    /// Two fingers going down at `a` and `b`, then moving in `steps` to `a2` and `b2` over `duration`.
    func pinch(
        from a: Point, _ b: Point, to a2: Point, _ b2: Point, at t: TimeInterval, duration: TimeInterval = 0.2,
        steps: Int = 10, lift: Bool = true
    ) {
        harness.down(1, a.x, a.y, at: t)
        harness.down(2, b.x, b.y, at: t)
        for step in 1...steps {
            let f = Double(step) / Double(steps)
            let p = a + (a2 - a) * f
            let q = b + (b2 - b) * f
            harness.move(1, p.x, p.y, at: t + duration * f)
            harness.move(2, q.x, q.y, at: t + duration * f)
        }
        if lift {
            harness.up(1, a2.x, a2.y, at: t + duration)
            harness.up(2, b2.x, b2.y, at: t + duration)
        }
    }

    /// The content point under window point `p`.
    func contentPoint(under p: Point) -> Point { content.convert(p, from: nil) }
}
