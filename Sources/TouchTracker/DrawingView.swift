import TouchKit

/// A complete line or circle, as selection, hit testing and the menu see them.
public enum ShapeID: Hashable, Sendable {
    case line(LineID)
    case circle(CircleID)
}

/// The TouchTracker canvas (the seed's TouchDrawView): every finger draws its own straight line, keyed by touch;
/// two fingers that go down together can draw a circle; complete lines and circles can be selected, deleted,
/// cleared, moved, and every such edit undone.
///
/// It owns the drawing while the app runs, reports each completed edit through `onEdit` so the platform can save,
/// and records what needs redrawing in `damage`, which the renderer reads and clears.
public final class DrawingView: View {
    /// Stroke width of every line, in pixels.
    public var lineWidth = 10.0
    /// How far a finger must move before its line appears (UIKit's tap slop), so taps leave no dots.
    public var tapSlop = 10.0
    /// How close a tap must be to a line to select it.
    public var hitRadius = 20.0
    /// Two fingers going down at most this far apart in time draw a circle (when circles are on).
    public var circlePairingInterval: TimeInterval = 0.1
    /// Width by speed: width = `speedWidthFactor` / speed (px/s), clamped to the two bounds below.
    public var speedWidthFactor = 2000.0
    public var minimumSpeedWidth = 1.0
    public var maximumSpeedWidth = 20.0

    public private(set) var lines: LineCollection
    public private(set) var circles: CircleCollection
    /// The challenges' switches and the colour of new lines, saved with the document.
    public private(set) var options: DrawingOptions
    /// Lines being drawn, by `Touch.identifier` (unique per contact, never a reused platform id).
    public private(set) var linesInProgress: [UInt64: LineInProgress] = [:] {
        // Adding or removing a line may move the others: the remembered position is stale.
        didSet { lastMovedLine = nil }
    }
    /// Where the last moved finger's line is in `linesInProgress`, so a finger's stream of moves skips hashing.
    private var lastMovedLine: (id: UInt64, index: [UInt64: LineInProgress].Index)?
    /// Circles being drawn, by the pair of touches drawing them.
    public private(set) var circlesInProgress: [TouchPair: CircleInProgress] = [:]
    /// The selected line, drawn green on top of the others.
    public private(set) var selectedLineID: LineID?
    /// The selected circle, drawn green on top of the others. At most one of the two selections is set.
    public private(set) var selectedCircleID: CircleID?
    public private(set) var undoStack = UndoStack()
    /// What changed since the renderer last looked.
    public var damage = Damage()
    /// Called after every completed edit (and undo or redo, and option change) with the new document, as a snapshot
    /// taken in constant time (the receiver builds the `Drawing` from it, off the event loop if it likes).
    public var onEdit: ((DrawingSnapshot) -> Void)?

    /// The selected line's or circle's geometry when its move began, for the undoable move edit.
    private var moveOrigin: Line?
    private var circleMoveOrigin: Circle?
    /// When each live touch went down and its velocity samples (TouchKit's estimator).
    private var tracks: [UInt64: (began: TimeInterval, velocity: VelocityTracker)] = [:]
    /// Touches of a circle that has completed (its other finger lifted): they draw nothing more.
    private var spentTouches: Set<UInt64> = []

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        self.lines = LineCollection(drawing.lines)
        self.circles = CircleCollection(drawing.circles)
        self.options = drawing.options
        self.widestLoadedStroke = Self.widest(drawing)
        super.init(frame: frame)
        isMultipleTouchEnabled = true
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
    }

    /// IDs handed out while a document is still being read start here: far above the at most a million lines a
    /// document holds, so the document's own lines (IDs from 1) go beneath them when it arrives.
    public static let idsWhileLoading: UInt64 = 1 << 40

    /// An empty canvas that takes input at once while its document is read elsewhere (`adoptLoadedDocument`).
    public convenience init(frameWhileLoading frame: Rect) {
        self.init(frame: frame)
        lines = LineCollection(firstID: Self.idsWhileLoading)
        circles = CircleCollection(firstID: Self.idsWhileLoading)
    }

    /// Puts a document read in the background under what was drawn meanwhile: the document's lines and circles
    /// keep their IDs (from 1), the ones drawn while it loaded keep theirs (from `idsWhileLoading`), so the undo
    /// history, the selection and a move in progress stay valid, and the newer shapes stay on top. The document's
    /// options replace the defaults. Constant time in the document's size.
    public func adoptLoadedDocument(_ loaded: consuming LoadedDocument) {
        var document = consume loaded
        // Taken out of the document (not copied), so merging the few shapes drawn meanwhile copies nothing.
        var documentLines = LineCollection()
        swap(&documentLines, &document.lines)
        documentLines.merge(lines)
        lines = documentLines
        var documentCircles = CircleCollection()
        swap(&documentCircles, &document.circles)
        documentCircles.merge(circles)
        circles = documentCircles
        options = document.options
        widestLoadedStroke = Swift.max(widestLoadedStroke, document.widestLineWidth)
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
    }

    /// The document as it stands (linear in its size: the event loop hands `snapshot` on instead).
    public var drawing: Drawing { snapshot.drawing }

    /// The document as it stands, in constant time; it shares storage with this view until either changes.
    public var snapshot: DrawingSnapshot { DrawingSnapshot(lines: lines, circles: circles, options: options) }

    /// The selected line's index in the document, for the state snapshot.
    public var selectedLineIndex: Int? { selectedLineID.flatMap { lines.position(of: $0) } }

    /// The selected circle's index in the document's circles, for the state snapshot.
    public var selectedCircleIndex: Int? { selectedCircleID.flatMap { circles.position(of: $0) } }

    public var selectedLine: Line? { selectedLineID.flatMap { lines[$0] } }

    public var selectedCircle: Circle? { selectedCircleID.flatMap { circles[$0] } }

    /// The selected line or circle.
    public var selectedShape: ShapeID? {
        if let selectedLineID { return .line(selectedLineID) }
        return selectedCircleID.map { .circle($0) }
    }

    /// The in-progress lines that are visible, oldest touch first.
    public var visibleLinesInProgress: [Line] { identifiedLinesInProgress.map(\.line) }

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

    /// Replaces the whole document (loading a file). Not undoable; clears the history.
    public func replaceDrawing(_ newDrawing: Drawing) {
        lines = LineCollection(newDrawing.lines)
        circles = CircleCollection(newDrawing.circles)
        options = newDrawing.options
        widestLoadedStroke = Self.widest(newDrawing)
        selectedLineID = nil
        selectedCircleID = nil
        undoStack = UndoStack()
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
    }

    /// Changes the options (a settings toggle or a colour). Saved with the document, not an undoable edit; lines
    /// already drawn keep their colour and width.
    public func setOptions(_ newOptions: DrawingOptions) {
        guard newOptions != options else { return }
        options = newOptions
        onEdit?(snapshot)
    }

    // MARK: Queries

    /// The topmost line within the hit radius of `point`.
    public func lineID(at point: Point) -> LineID? {
        lines.topmostLine(near: point, radius: hitRadius)
    }

    /// The topmost circle whose outline is within the hit radius of `point`.
    public func circleID(at point: Point) -> CircleID? {
        circles.topmostCircle(near: point, radius: hitRadius)
    }

    /// The topmost shape within the hit radius of `point`. Circles are drawn above lines, so they are hit first.
    public func shape(at point: Point) -> ShapeID? {
        if let circle = circleID(at: point) { return .circle(circle) }
        return lineID(at: point).map { .line($0) }
    }

    /// The widest stroke any complete line can have, so a renderer querying the line index reaches far enough.
    public var widestStroke: Double { Swift.max(lineWidth, maximumSpeedWidth, widestLoadedStroke) }
    private var widestLoadedStroke = 0.0

    private static func widest(_ drawing: Drawing) -> Double {
        drawing.lines.reduce(0) { Swift.max($0, $1.width ?? 0) }
    }

    private func strokeBounds(_ line: Line) -> Rect { line.strokeBounds(defaultWidth: lineWidth) }

    /// Records that the line in progress of `touch` is about to change; `before` is its place now if it is shown.
    /// Only the first change since the last frame keeps its place: that is what the screen shows.
    private func noteMoved(_ touch: UInt64, before: Line?) {
        let width = before?.width ?? lineWidth
        if let index = damage.movedLinesInProgress.index(forKey: touch) {
            damage.movedLinesInProgress.values[index].width = Swift.max(
                damage.movedLinesInProgress.values[index].width, width)
        } else {
            damage.movedLinesInProgress[touch] = Damage.MovedLine(shown: before, width: width)
        }
    }

    /// The damage to draw the next frame with: `damage` with the bands of the lines in progress that moved (their
    /// place at the last frame and their place now) added to the region. The caller then clears `damage`.
    public var damageForFrame: Damage {
        var result = damage
        guard !result.movedLinesInProgress.isEmpty else { return result }
        for (touch, moved) in result.movedLinesInProgress {
            let current = linesInProgress[touch].flatMap { $0.isVisible ? $0.line : nil }
            let width = Swift.max(moved.width, current.map { $0.width ?? lineWidth } ?? 0)
            switch (moved.shown, current) {
            case (let shown?, let current?) where shown.begin == current.begin:
                // They share their start: one band covers both.
                result.add(DamageRegion.band(along: [shown, current], width: width))
            default:
                if let shown = moved.shown { result.add(DamageRegion.band(along: [shown], width: width)) }
                if let current { result.add(DamageRegion.band(along: [current], width: width)) }
            }
            if current != nil { result.redrawnLinesInProgress.insert(touch) }
        }
        result.movedLinesInProgress.removeAll()
        return result
    }

    /// The pixels a line's stroke can touch, as a band of small boxes along it (a long diagonal line does not
    /// damage its whole bounding box).
    private func strokeRegion(_ line: Line) -> DamageRegion {
        .band(along: [line], width: line.width ?? lineWidth)
    }

    private func strokeRegion(_ circle: Circle) -> DamageRegion { DamageRegion(strokeBounds(circle)) }

    private func strokeBounds(_ circle: Circle) -> Rect { circle.strokeBounds(defaultWidth: lineWidth) }

    // MARK: Selection

    /// Selects the line `id` (or nothing at all). The selection is lifted out of the cache and drawn green on top.
    public func select(_ id: LineID?) {
        selectShape(id.map { .line($0) })
    }

    /// Selects `shape` (a line or a circle), or nothing.
    public func selectShape(_ shape: ShapeID?) {
        var line: LineID?
        var circle: CircleID?
        switch shape {
        case .line(let id): line = lines[id] == nil ? nil : id
        case .circle(let id): circle = circles[id] == nil ? nil : id
        case nil: break
        }
        // The selection is lifted out of the cache and drawn on top; deselected, it goes back in.
        if line != selectedLineID {
            if let id = selectedLineID, let old = lines[id] {
                damage.insertIntoCache(.line(id), covering: strokeRegion(old))
            }
            selectedLineID = line
            if let new = selectedLine { damage.invalidateCache(strokeRegion(new)) }
        }
        if circle != selectedCircleID {
            if let id = selectedCircleID, let old = circles[id] {
                damage.insertIntoCache(.circle(id), covering: strokeRegion(old))
            }
            selectedCircleID = circle
            if let new = selectedCircle { damage.invalidateCache(strokeRegion(new)) }
        }
    }

    // MARK: Edits

    /// Removes the selected line or circle. Returns whether there was one.
    @discardableResult
    public func deleteSelectedLine() -> Bool {
        finishMove()
        if let id = selectedLineID, let line = lines[id] {
            select(nil)
            lines.remove(id)
            damage.invalidateCache(strokeRegion(line))
            commit(.delete(IdentifiedLine(id: id, line: line)))
            return true
        }
        if let id = selectedCircleID, let circle = circles[id] {
            select(nil)
            circles.remove(id)
            damage.invalidateCache(strokeRegion(circle))
            commit(.deleteCircle(IdentifiedCircle(id: id, circle: circle)))
            return true
        }
        return false
    }

    /// Removes every line and circle, complete and in progress. Undoable (the complete ones come back).
    public func clearAll() {
        finishMove()
        select(nil)
        for line in linesInProgress.values where line.isVisible { damage.add(strokeRegion(line.line)) }
        for circle in circlesInProgress.values where circle.isVisible { damage.add(strokeBounds(circle.circle)) }
        linesInProgress.removeAll()
        circlesInProgress.removeAll()
        guard !lines.isEmpty || !circles.isEmpty else { return }
        // The collections are kept whole by the edit and replaced by empty ones: constant time at any size.
        let removed = lines
        let removedCircles = circles
        lines = lines.emptied()
        circles = circles.emptied()
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
        commit(.clear(removed, circles: removedCircles))
    }

    /// Replaces every complete line and circle with `loaded`'s (the document changed on disk and was read again):
    /// one undoable edit, so undo brings back what was on screen before. Lines and circles in progress go on; the
    /// window's settings (circles, colours, widths) stay as they are.
    public func replaceDrawing(with loaded: consuming LoadedDocument) {
        finishMove()
        select(nil)
        var document = consume loaded
        var newLines = LineCollection()
        swap(&newLines, &document.lines)
        var newCircles = CircleCollection()
        swap(&newCircles, &document.circles)
        let previousLines = lines
        let previousCircles = circles
        lines = newLines.continuingIDs(of: previousLines)
        circles = newCircles.continuingIDs(of: previousCircles)
        widestLoadedStroke = Swift.max(widestLoadedStroke, document.widestLineWidth)
        damage.cacheNeedsRebuild = true
        damage.add(bounds)
        commit(.replace(previousLines, circles: previousCircles, with: lines, newCircles: circles))
    }

    /// Moves the selected line or circle by `offset` (a drag step). The move becomes one undoable edit when it ends.
    public func moveSelectedLine(by offset: Point) {
        guard offset.isFinite, offset != .zero else { return }
        if let id = selectedLineID, let line = lines[id] {
            if moveOrigin == nil { moveOrigin = line }
            let moved = line.translated(by: offset)
            guard Self.isStorable(moved.begin), Self.isStorable(moved.end) else { return }
            damage.add(strokeRegion(line))
            lines.replace(id, with: moved)
            damage.add(strokeRegion(moved))
        } else if let id = selectedCircleID, let circle = circles[id] {
            if circleMoveOrigin == nil { circleMoveOrigin = circle }
            let moved = circle.translated(by: offset)
            guard moved.frame.origin.isFinite else { return }
            damage.add(strokeBounds(circle))
            circles.replace(id, with: moved)
            damage.add(strokeBounds(moved))
        }
    }

    /// Ends a move in progress, recording it for undo and saving.
    public func finishMove() {
        if let origin = moveOrigin {
            moveOrigin = nil
            if let id = selectedLineID, let line = lines[id], line != origin {
                commit(.move(id: id, from: origin, to: line))
            }
        }
        if let origin = circleMoveOrigin {
            circleMoveOrigin = nil
            if let id = selectedCircleID, let circle = circles[id], circle != origin {
                commit(.moveCircle(id: id, from: origin, to: circle))
            }
        }
    }

    public func undo() {
        finishMove()
        guard let edit = undoStack.popUndo() else { return }
        apply(edit, reversed: true)
    }

    public func redo() {
        finishMove()
        guard let edit = undoStack.popRedo() else { return }
        apply(edit, reversed: false)
    }

    private func apply(_ edit: Edit, reversed: Bool) {
        select(nil)
        switch (edit, reversed) {
        case (.add(let added, let addedCircles), true):
            for item in added { remove(item) }
            for item in addedCircles { remove(item) }
        case (.add(let added, let addedCircles), false):
            for item in added { restore(item) }
            for item in addedCircles { restore(item) }
        case (.delete(let item), true):
            restore(item)
        case (.delete(let item), false):
            remove(item)
        case (.deleteCircle(let item), true):
            restore(item)
        case (.deleteCircle(let item), false):
            remove(item)
        case (.clear(let removed, let removedCircles), true):
            // Every later edit has been undone, so the drawing is as the clear left it (empty): what it removed
            // comes back whole. Anything drawn since would be merged in (never expected; kept for safety).
            lines = lines.isEmpty ? removed.continuingIDs(of: lines) : lines.merging(removed)
            circles = circles.isEmpty ? removedCircles.continuingIDs(of: circles) : circles.merging(removedCircles)
            damage.cacheNeedsRebuild = true
            damage.add(bounds)
        case (.clear, false):
            lines = lines.emptied()
            circles = circles.emptied()
            damage.cacheNeedsRebuild = true
            damage.add(bounds)
        case (.replace(let before, let beforeCircles, let after, let afterCircles), _):
            lines = (reversed ? before : after).continuingIDs(of: lines)
            circles = (reversed ? beforeCircles : afterCircles).continuingIDs(of: circles)
            damage.cacheNeedsRebuild = true
            damage.add(bounds)
        case (.move(let id, let from, let to), _):
            let target = reversed ? from : to
            if let current = lines[id] { damage.invalidateCache(strokeRegion(current)) }
            lines.replace(id, with: target)
            damage.insertIntoCache(.line(id), covering: strokeRegion(target))
        case (.moveCircle(let id, let from, let to), _):
            let target = reversed ? from : to
            if let current = circles[id] { damage.invalidateCache(strokeRegion(current)) }
            circles.replace(id, with: target)
            damage.insertIntoCache(.circle(id), covering: strokeRegion(target))
        }
        onEdit?(snapshot)
    }

    private func remove(_ item: IdentifiedLine) {
        lines.remove(item.id)
        damage.invalidateCache(strokeRegion(item.line))
    }

    private func restore(_ item: IdentifiedLine) {
        lines.restore(item.id, item.line)
        damage.insertIntoCache(.line(item.id), covering: strokeRegion(item.line))
    }

    private func remove(_ item: IdentifiedCircle) {
        circles.remove(item.id)
        damage.invalidateCache(strokeRegion(item.circle))
    }

    private func restore(_ item: IdentifiedCircle) {
        circles.restore(item.id, item.circle)
        damage.insertIntoCache(.circle(item.id), covering: strokeRegion(item.circle))
    }

    private func commit(_ edit: Edit) {
        undoStack.record(edit)
        onEdit?(snapshot)
    }

    // MARK: Touches

    /// A touch's location, held within the coordinates a document may store (a platform may report a finger far
    /// outside the window, and the spatial index and the file format both need bounded numbers).
    private func canvasPoint(of touch: Touch) -> Point {
        let point = touch.location(in: self)
        let limit = DocumentCodec.coordinateLimit
        return Point(x: point.x.clamped(to: -limit...limit), y: point.y.clamped(to: -limit...limit))
    }

    /// Whether a point may be stored in a document (finite and within the coordinate limit).
    static func isStorable(_ point: Point) -> Bool {
        point.isFinite && abs(point.x) <= DocumentCodec.coordinateLimit && abs(point.y) <= DocumentCodec.coordinateLimit
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            let point = canvasPoint(of: touch)
            var velocity = VelocityTracker()
            velocity.add(point, at: touch.timestamp)
            tracks[touch.identifier] = (touch.timestamp, velocity)
            spentTouches.remove(touch.identifier)
            if options.circles, let partner = pairingPartner(at: touch.timestamp),
                let partnerLine = linesInProgress.removeValue(forKey: partner)
            {
                // The first finger's line was never meant: it becomes one corner of the circle.
                if partnerLine.isVisible { damage.add(strokeRegion(partnerLine.line)) }
                let circle = CircleInProgress(
                    firstStart: partnerLine.begin, secondStart: point, first: partnerLine.end, second: point,
                    isVisible: partnerLine.isVisible)
                circlesInProgress[TouchPair(first: partner, second: touch.identifier)] = circle
                if circle.isVisible { damage.add(strokeBounds(circle.circle)) }
            } else {
                linesInProgress[touch.identifier] = LineInProgress(begin: point, end: point, isVisible: false)
            }
        }
    }

    /// The finger a new touch at `time` pairs with: the earliest one still drawing a line (not already in a circle)
    /// that went down at most `circlePairingInterval` earlier.
    private func pairingPartner(at time: TimeInterval) -> UInt64? {
        var best: (id: UInt64, began: TimeInterval)?
        for id in linesInProgress.keys {
            // A microsecond of tolerance: 1.1 − 1.0 is a hair above 0.1 in binary floating point.
            guard let began = tracks[id]?.began, time - began <= circlePairingInterval + 1e-6, time >= began else {
                continue
            }
            if best == nil || (began, id) < (best!.began, best!.id) { best = (id, began) }
        }
        return best?.id
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        for touch in touches { update(touch) }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        complete(touches)
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        // A gesture that claimed the touch owns it: its stroke was never meant as a line. A touch the system took
        // away (device unplugged, grab) keeps its work: the line completes where the finger was last seen.
        let kept = touches.filter { $0.cancellationReason == .system }
        for touch in touches.subtracting(kept) { discardLine(of: touch) }
        complete(kept, updatingLocation: false)
    }

    /// Drops the line (or circle) a touch is drawing, if any (a gesture claimed the touch). The other finger of a
    /// dropped circle draws nothing more.
    public func discardLine(of touch: Touch) {
        let id = touch.identifier
        tracks[id] = nil
        spentTouches.remove(id)
        if let line = linesInProgress.removeValue(forKey: id), line.isVisible {
            damage.add(strokeRegion(line.line))
        }
        if let pair = pair(of: id), let circle = circlesInProgress.removeValue(forKey: pair) {
            if circle.isVisible { damage.add(strokeBounds(circle.circle)) }
            spentTouches.insert(pair.partner(of: id))
        }
    }

    private func pair(of id: UInt64) -> TouchPair? {
        circlesInProgress.keys.first { $0.contains(id) }
    }

    private func update(_ touch: Touch, sampling: Bool = true) {
        let id = touch.identifier
        let point = canvasPoint(of: touch)
        guard point.isFinite else { return }
        let options = self.options
        var width: Double?
        // Speed is only needed for width by speed. The tracker is changed in place: copying it out of the dictionary
        // and back would copy its sample buffer on every move.
        if sampling, options.widthBySpeed, let index = tracks.index(forKey: id) {
            tracks.values[index].velocity.add(point, at: touch.timestamp)
            width = widthForSpeed(tracks.values[index].velocity.velocity(at: touch.timestamp).length)
        }
        // Pressure, where the device reports it, decides over speed: it is what the finger meant.
        if options.widthByPressure, let force = touch.force, let pressed = widthForPressure(force) { width = pressed }
        let styledWidth = options.widthBySpeed || (options.widthByPressure && touch.force != nil)
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
                // once per frame (damageForFrame): a move costs what the line's length costs, not its bounding
                // box's area, and a burst of moves between two frames costs one band.
                noteMoved(id, before: wasVisible ? before : nil)
            }
            linesInProgress.values[index] = line
            // After the write: changing a value keeps every position, but the setter forgets them all.
            lastMovedLine = (id, index)
        } else if let pair = pair(of: id), let index = circlesInProgress.index(forKey: pair) {
            var circle = circlesInProgress.values[index]
            if circle.isVisible { damage.add(strokeBounds(circle.circle)) }
            if id == pair.first { circle.first = point } else { circle.second = point }
            if !circle.isVisible,
                circle.first.distance(to: circle.firstStart) > tapSlop
                    || circle.second.distance(to: circle.secondStart) > tapSlop
            {
                circle.isVisible = true
            }
            if circle.isVisible { damage.add(strokeBounds(circle.circle)) }
            circlesInProgress.values[index] = circle
        }
    }

    /// Where the line of touch `id` is in `linesInProgress`, if it has one.
    private func lineIndex(of id: UInt64) -> [UInt64: LineInProgress].Index? {
        if let last = lastMovedLine, last.id == id { return last.index }
        return linesInProgress.index(forKey: id)
    }

    /// Width by pressure: the normalised force (1/3 is a normal press) times 30, so a normal press draws the
    /// default 10 px; clamped to 1–20 px and rounded to 1/100 px. Nil for a force that is not a number.
    public func widthForPressure(_ force: Double) -> Double? {
        guard force.isFinite, force >= 0 else { return nil }
        let width = Swift.min(maximumSpeedWidth, Swift.max(minimumSpeedWidth, force * 30))
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

    private func complete(_ touches: Set<Touch>, updatingLocation: Bool = true) {
        var added: [IdentifiedLine] = []
        var addedCircles: [IdentifiedCircle] = []
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            let id = touch.identifier
            // The lift's own sample says nothing about the stroke's speed: the width stays that of the last move.
            if updatingLocation { update(touch, sampling: false) }
            tracks[id] = nil
            if spentTouches.remove(id) != nil { continue }
            if let pair = pair(of: id), let circle = circlesInProgress.removeValue(forKey: pair) {
                // The circle completes when the first of its fingers lifts; the other finger draws nothing more.
                spentTouches.insert(pair.partner(of: id))
                guard circle.isVisible else { continue }
                var shape = circle.circle
                shape.color = options.color == .black ? nil : options.color
                let circleID = circles.append(shape)
                addedCircles.append(IdentifiedCircle(id: circleID, circle: shape))
                damage.add(strokeBounds(circle.circle))
                damage.insertIntoCache(.circle(circleID), covering: strokeRegion(shape))
                continue
            }
            guard let inProgress = linesInProgress.removeValue(forKey: id), inProgress.isVisible else { continue }
            damage.add(strokeRegion(inProgress.line))
            var line = inProgress.line
            if !options.colorByAngle { line.color = options.color == .black ? nil : options.color }
            if !options.widthBySpeed && !options.widthByPressure { line.width = nil }
            let lineID = lines.append(line)
            added.append(IdentifiedLine(id: lineID, line: line))
            damage.insertIntoCache(.line(lineID), covering: strokeRegion(line))
        }
        guard !added.isEmpty || !addedCircles.isEmpty else { return }
        commit(.add(added, circles: addedCircles))
    }
}
