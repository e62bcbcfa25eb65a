import TouchKit

/// Turns fingers into shapes (DESIGN.md §2.1–2, §2.12–15): each finger draws a straight line from where it went
/// down, shown once it leaves the tap slop; two fingers that go down together draw a circle when circles are on;
/// a line's colour may follow its angle and its width the finger's speed or pressure. A finished stroke is handed
/// back as a `Shape` for the document to add.
///
/// It knows fingers by `Touch.identifier` (unique per contact) and records what it changed on screen in the
/// `DrawingChanges` it is given.
public struct StrokeTracker: Sendable {
    /// Stroke width of every line without a width of its own, in pixels.
    public var lineWidth = 10.0
    /// How far a finger must move before its line appears (UIKit's tap slop), so taps leave no dots.
    public var tapSlop = 10.0
    /// Two fingers going down at most this far apart in time draw a circle (when circles are on).
    public var circlePairingInterval: TimeInterval = 0.1
    /// Width by speed: width = `speedWidthFactor` / speed (px/s), clamped to the two bounds below.
    public var speedWidthFactor = 2000.0
    public var minimumSpeedWidth = 1.0
    public var maximumSpeedWidth = 20.0
    /// Width by pressure: width = normalised force × `pressureWidthFactor`, clamped to the two bounds below.
    public var pressureWidthFactor = 30.0
    public var minimumPressureWidth = 1.0
    public var maximumPressureWidth = 20.0

    /// Lines being drawn, by touch.
    public private(set) var linesInProgress: [UInt64: LineInProgress] = [:] {
        // Adding or removing a line may move the others: the remembered position is stale.
        didSet { lastMovedLine = nil }
    }
    /// Where the last moved finger's line is in `linesInProgress`, so a finger's stream of moves skips hashing.
    private var lastMovedLine: (id: UInt64, index: [UInt64: LineInProgress].Index)?
    /// Circles being drawn, by the pair of touches drawing them.
    public private(set) var circlesInProgress: [TouchPair: CircleInProgress] = [:]
    /// When each live touch went down and its velocity samples (TouchKit's estimator).
    private var tracks: [UInt64: (began: TimeInterval, velocity: VelocityTracker)] = [:]
    /// Touches of a circle that has completed (its other finger lifted): they draw nothing more.
    private var spentTouches: Set<UInt64> = []

    public init() {}

    /// The widest stroke a line drawn now can have.
    public var widestStroke: Double { Swift.max(lineWidth, maximumSpeedWidth, maximumPressureWidth) }

    /// The visible in-progress lines with the touch drawing each, oldest touch first.
    public var identifiedLinesInProgress: [(touch: UInt64, line: Line)] {
        linesInProgress.sorted { $0.key < $1.key }.compactMap { $0.value.isVisible ? ($0.key, $0.value.line) : nil }
    }

    /// The in-progress circles that are visible, oldest pair first.
    public var visibleCirclesInProgress: [Circle] {
        circlesInProgress.sorted { ($0.key.first, $0.key.second) < ($1.key.first, $1.key.second) }.compactMap {
            $0.value.isVisible ? $0.value.circle : nil
        }
    }

    /// The pixels a line in progress can touch.
    private func region(_ line: Line) -> DamageRegion { .stroke(of: .line(line), defaultWidth: lineWidth) }

    /// The pixels a circle in progress can touch (a rectangle: no region to build on every move).
    private func bounds(_ circle: Circle) -> Rect { circle.strokeBounds(defaultWidth: lineWidth) }

    // MARK: Fingers

    /// A finger went down at `point`: it starts a line, or, paired with a finger that went down just before, a
    /// circle (when `options.circles` is on).
    public mutating func began(
        _ id: UInt64, at point: Point, time: TimeInterval, options: DrawingOptions, damage: inout DrawingChanges
    ) {
        var velocity = VelocityTracker()
        velocity.add(point, at: time)
        tracks[id] = (time, velocity)
        spentTouches.remove(id)
        if options.circles, let partner = pairingPartner(at: time),
            let partnerLine = linesInProgress.removeValue(forKey: partner)
        {
            // The first finger's line was never meant: it becomes one corner of the circle.
            if partnerLine.isVisible { damage.add(region(partnerLine.line)) }
            let circle = CircleInProgress(
                firstStart: partnerLine.begin, secondStart: point, first: partnerLine.end, second: point,
                isVisible: partnerLine.isVisible)
            circlesInProgress[TouchPair(first: partner, second: id)] = circle
            if circle.isVisible { damage.add(bounds(circle.circle)) }
        } else {
            linesInProgress[id] = LineInProgress(begin: point, end: point, isVisible: false)
        }
    }

    /// Starts a circle drawn by `pair` (the keyboard's two corners), both corners at `point`, whatever the
    /// circles option says and whichever fingers are down: it is asked for, never paired by timing.
    public mutating func beganCircle(_ pair: TouchPair, at point: Point, time: TimeInterval) {
        for id in [pair.first, pair.second] {
            var velocity = VelocityTracker()
            velocity.add(point, at: time)
            tracks[id] = (time, velocity)
            spentTouches.remove(id)
        }
        circlesInProgress[pair] = CircleInProgress(
            firstStart: point, secondStart: point, first: point, second: point, isVisible: false)
    }

    /// The finger a new touch at `time` pairs with: the earliest one still drawing a line (not already in a circle)
    /// that went down at most `circlePairingInterval` earlier.
    private func pairingPartner(at time: TimeInterval) -> UInt64? {
        var best: (id: UInt64, began: TimeInterval)?
        // The keyboard's line is never paired into a circle.
        for id in linesInProgress.keys where id != KeyboardCursor.lineTouch {
            // Within the interval as the clock judges limits: 1.1 − 1.0 is a hair above 0.1 in binary floating point.
            guard let began = tracks[id]?.began, Clock.isWithin(circlePairingInterval, after: began, at: time),
                time >= began
            else {
                continue
            }
            if best == nil || (began, id) < (best!.began, best!.id) { best = (id, began) }
        }
        return best?.id
    }

    /// A finger moved to `point` (`force`: its normalised pressure, when the device reports one). `sampling`:
    /// whether the sample counts for the finger's speed (a lift's does not).
    public mutating func moved(
        _ id: UInt64, to point: Point, time: TimeInterval, force: Double?, options: DrawingOptions,
        sampling: Bool = true, damage: inout DrawingChanges
    ) {
        guard point.isFinite else { return }
        var width: Double?
        // Speed is only needed for width by speed. The tracker is changed in place: copying it out of the dictionary
        // and back would copy its sample buffer on every move.
        if sampling, options.widthBySpeed, let index = tracks.index(forKey: id) {
            tracks.values[index].velocity.add(point, at: time)
            width = widthForSpeed(tracks.values[index].velocity.velocity(at: time).length)
        }
        // Pressure, where the device reports it, decides over speed: it is what the finger meant.
        if options.widthByPressure, let force, let pressed = widthForPressure(force) { width = pressed }
        let styledWidth = options.widthBySpeed || (options.widthByPressure && force != nil)
        // The line is found once (by hashing only when another finger moved last) and changed where it is.
        if let index = lineIndex(of: id) {
            var line = linesInProgress.values[index]
            let wasVisible = line.isVisible
            let before = line.line
            line.end = point
            if !line.isVisible, line.begin.distance(to: point) > tapSlop { line.isVisible = true }
            line.color = options.colorByAngle ? LineColor.hue(line.line.angle) : nil
            if !styledWidth {
                line.width = nil
            } else if let width {
                line.width = width
            } else if line.width == nil {
                line.width = maximumSpeedWidth
            }
            if line.isVisible || wasVisible {
                // Where it was shown and how wide it has been; the band along the old and the new place is made
                // once per frame (`addMovedLines`): a move costs what the line's length costs, not its bounding
                // box's area, and a burst of moves between two frames costs one band.
                noteMoved(id, before: wasVisible ? before : nil, damage: &damage)
            }
            linesInProgress.values[index] = line
            // After the write: changing a value keeps every position, but the setter forgets them all.
            lastMovedLine = (id, index)
        } else if let pair = pair(of: id), let index = circlesInProgress.index(forKey: pair) {
            var circle = circlesInProgress.values[index]
            if circle.isVisible { damage.add(bounds(circle.circle)) }
            if id == pair.first { circle.first = point } else { circle.second = point }
            if !circle.isVisible,
                circle.first.distance(to: circle.firstStart) > tapSlop
                    || circle.second.distance(to: circle.secondStart) > tapSlop
            {
                circle.isVisible = true
            }
            if circle.isVisible { damage.add(bounds(circle.circle)) }
            circlesInProgress.values[index] = circle
        }
    }

    /// Where the line of touch `id` is in `linesInProgress`, if it has one.
    private func lineIndex(of id: UInt64) -> [UInt64: LineInProgress].Index? {
        if let last = lastMovedLine, last.id == id { return last.index }
        return linesInProgress.index(forKey: id)
    }

    private func pair(of id: UInt64) -> TouchPair? {
        circlesInProgress.keys.first { $0.contains(id) }
    }

    /// A finger lifted (or was taken away by the system, its work kept): its stroke finishes. Returns the shape
    /// finished, styled for the document (the chosen colour, widths only when a width option is on), if it drew a
    /// visible one; a circle finishes when the first of its fingers lifts.
    public mutating func ended(_ id: UInt64, options: DrawingOptions, damage: inout DrawingChanges) -> Shape? {
        let chosenColor = options.color == .black ? nil : options.color
        tracks[id] = nil
        if spentTouches.remove(id) != nil { return nil }
        if let pair = pair(of: id), let circle = circlesInProgress.removeValue(forKey: pair) {
            // The other finger draws nothing more.
            spentTouches.insert(pair.partner(of: id))
            guard circle.isVisible else { return nil }
            damage.add(bounds(circle.circle))
            var shape = circle.circle
            shape.color = chosenColor
            return .circle(shape)
        }
        guard let inProgress = linesInProgress.removeValue(forKey: id), inProgress.isVisible else { return nil }
        damage.add(region(inProgress.line))
        var line = inProgress.line
        if !options.colorByAngle { line.color = chosenColor }
        if !options.widthBySpeed && !options.widthByPressure { line.width = nil }
        return .line(line)
    }

    /// Drops the line (or circle) a finger is drawing, if any (a gesture claimed the touch). The other finger of a
    /// dropped circle draws nothing more.
    public mutating func discardStroke(of id: UInt64, damage: inout DrawingChanges) {
        tracks[id] = nil
        spentTouches.remove(id)
        if let line = linesInProgress.removeValue(forKey: id), line.isVisible {
            damage.add(region(line.line))
        }
        if let pair = pair(of: id), let circle = circlesInProgress.removeValue(forKey: pair) {
            if circle.isVisible { damage.add(bounds(circle.circle)) }
            spentTouches.insert(pair.partner(of: id))
        }
    }

    /// Drops every stroke in progress (a clear). The fingers stay down and draw nothing more until they lift.
    public mutating func discardAll(damage: inout DrawingChanges) {
        for line in linesInProgress.values where line.isVisible { damage.add(region(line.line)) }
        for circle in circlesInProgress.values where circle.isVisible { damage.add(bounds(circle.circle)) }
        linesInProgress.removeAll()
        circlesInProgress.removeAll()
    }

    // MARK: Changes

    /// Records that the line in progress of `touch` is about to change; `before` is its place now if it is shown.
    /// Only the first change since the last frame keeps its place: that is what the screen shows.
    private func noteMoved(_ touch: UInt64, before: Line?, damage: inout DrawingChanges) {
        let width = before?.width ?? lineWidth
        if let index = damage.movedLinesInProgress.index(forKey: touch) {
            damage.movedLinesInProgress.values[index].width = Swift.max(
                damage.movedLinesInProgress.values[index].width, width)
        } else {
            damage.movedLinesInProgress[touch] = DrawingChanges.MovedLine(shown: before, width: width)
        }
    }

    /// Adds to `damage`'s region the bands of the lines in progress that moved since the last frame (their place
    /// at the last frame and their place now), and forgets the moves.
    public func addMovedLines(to damage: inout DrawingChanges) {
        guard !damage.movedLinesInProgress.isEmpty else { return }
        for (touch, moved) in damage.movedLinesInProgress {
            let current = linesInProgress[touch].flatMap { $0.isVisible ? $0.line : nil }
            let width = Swift.max(moved.width, current.map { $0.width ?? lineWidth } ?? 0)
            switch (moved.shown, current) {
            case (let shown?, let current?) where shown.begin == current.begin:
                // They share their start: one band covers both.
                damage.add(DamageRegion.band(along: [shown, current], width: width))
            default:
                if let shown = moved.shown { damage.add(DamageRegion.band(along: [shown], width: width)) }
                if let current { damage.add(DamageRegion.band(along: [current], width: width)) }
            }
            if current != nil { damage.redrawnLinesInProgress.insert(touch) }
        }
        damage.movedLinesInProgress.removeAll()
    }

    // MARK: Widths

    /// Width by pressure: the normalised force (1/3 is a normal press) times `pressureWidthFactor`, so a normal
    /// press draws the default 10 px; clamped to the pressure bounds and rounded to 1/100 px. Nil for a force that
    /// is not a number.
    public func widthForPressure(_ force: Double) -> Double? {
        guard force.isFinite, force >= 0 else { return nil }
        let width = Swift.min(maximumPressureWidth, Swift.max(minimumPressureWidth, force * pressureWidthFactor))
        return (width * 100).rounded() / 100
    }

    /// Width by speed: `speedWidthFactor / speed`, clamped, rounded to 1/100 px. A finger at rest (or the first
    /// sample, where there is no speed yet) gets the widest stroke, never a division by zero.
    public func widthForSpeed(_ speed: Double) -> Double {
        if speed == .infinity { return minimumSpeedWidth }
        guard speed.isFinite, speed > 0 else { return maximumSpeedWidth }
        let raw = speedWidthFactor / speed
        let width = raw.isFinite ? Swift.min(maximumSpeedWidth, Swift.max(minimumSpeedWidth, raw)) : maximumSpeedWidth
        return (width * 100).rounded() / 100
    }
}
