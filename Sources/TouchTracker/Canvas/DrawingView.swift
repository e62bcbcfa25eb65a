import TouchKit

/// The TouchTracker canvas (the UIKit course's TouchDrawView) as a TouchKit view: it hands fingers to the `StrokeTracker`,
/// finished strokes and every edit to the `DrawingDocument`, and notes what they change in the drawing's look
/// (`DrawingChanges`), which the renderer takes each frame (`takeChanges`). It reports each completed edit through
/// `onEdit` so the platform can save.
public final class DrawingView: View {
    public private(set) var document: DrawingDocument
    /// Fingers to shapes; its settings (tap slop, circle pairing, width by speed and pressure) may be changed.
    public var tracker = StrokeTracker()
    /// How close a tap must be to a shape to select it, in window units: the same on screen at every zoom.
    public var hitRadius = 20.0

    /// `hitRadius` in drawing units at the zoom the canvas is shown at (its transform's scale).
    public var hitRadiusInDrawing: Double {
        let zoom = transform.isIdentity ? 1 : abs(transform.a)
        return zoom > 0 && zoom.isFinite ? hitRadius / zoom : hitRadius
    }

    /// Where the window shows the canvas and how large (`CanvasNavigation` zooms and scrolls it): read by the
    /// renderer each frame.
    public var viewport: Viewport {
        let origin = convert(.zero, to: nil)
        let zoom = transform.isIdentity ? 1 : abs(transform.a)
        return Viewport(zoom: zoom, offset: Point(x: -origin.x, y: -origin.y))
    }

    /// The drawing has no edge: a touch anywhere the canvas is shown is on it.
    public override func point(inside point: Point) -> Bool { point.isFinite }
    /// What changed in the drawing's look since the renderer last took it. Only the model notes changes here; the
    /// renderer takes them (`takeChanges`) and keeps its own bookkeeping.
    public internal(set) var changes = DrawingChanges()
    /// The shapes changed in place since the last `takeReshapedShapes`.
    private var reshaped = ReshapedShapes()
    /// Called after every completed edit (and undo or redo, and option change) with the new document, as a snapshot
    /// taken in constant time (the receiver builds the `Drawing` from it, off the event loop if it likes).
    public var onEdit: ((DrawingSnapshot) -> Void)?
    /// How many lines and circles the drawing may hold (the reader's: `DocumentLimits.document`). Nothing this view
    /// does passes them: a stroke finished beyond them is dropped (`onFull` says so) and an addition or paste that
    /// would pass them is refused, changing nothing. Undo and redo need no check: they only go back and forth
    /// between states that were within them (an edit past them is never recorded).
    public var limits = DocumentLimits.document
    /// Called when a finished stroke was dropped because the drawing holds as many shapes of its kind as `limits`
    /// allow.
    public var onFull: ((Shape.Kind) -> Void)?

    public init(frame: Rect, drawing: Drawing = Drawing()) {
        document = DrawingDocument(drawing)
        super.init(frame: frame)
        isMultipleTouchEnabled = true
        changes.noteEverythingChanged()
        changes.add(bounds)
    }

    /// Shapes drawn while a document is still being read are numbered from here: far above the at most a million
    /// shapes of each kind a document holds, so the document's own shapes (from 1) go beneath them when it arrives.
    public static let numbersWhileLoading: UInt64 = 1 << 40

    /// An empty canvas that takes input at once while its document is read elsewhere (`adoptLoadedDocument`).
    public convenience init(frameWhileLoading frame: Rect) {
        self.init(frame: frame)
        document = DrawingDocument(numberingFrom: Self.numbersWhileLoading)
    }

    // MARK: Settings

    /// Stroke width of every shape without a width of its own, in pixels.
    public var lineWidth: Double {
        get { tracker.lineWidth }
        set { tracker.lineWidth = newValue }
    }

    /// The widest stroke any complete shape can have, so a renderer querying the spatial index reaches far enough.
    public var widestStroke: Double { Swift.max(tracker.widestStroke, document.widestStoredWidth) }

    // MARK: The document

    public var shapes: ShapeCollection { document.shapes }
    public var options: DrawingOptions { document.options }
    public var selection: ShapeID? { document.selection }
    public var selectedShape: Shape? { document.selectedShape }
    public var undoStack: UndoStack { document.undoStack }

    /// The document as it stands (linear in its size: the event loop hands `snapshot` on instead).
    public var drawing: Drawing { document.drawing }

    /// The document as it stands, in constant time; it shares storage with this view until either changes.
    public var snapshot: DrawingSnapshot { document.snapshot }

    /// The topmost shape within the hit radius of `point` (circles are above lines, so they are hit first).
    public func shape(at point: Point) -> ShapeID? {
        document.shapes.topmostShape(near: point, radius: hitRadiusInDrawing)
    }

    /// The visible in-progress lines, oldest touch first.
    public var visibleLinesInProgress: [Line] { tracker.identifiedLinesInProgress.map(\.line) }
    /// The circle the keyboard draws now (Shift+Space), shown or not yet.
    public var keyboardCircleInProgress: Circle? { tracker.circlesInProgress[KeyboardCursor.circleCorners]?.circle }

    /// The in-progress circles that are visible, oldest pair first.
    public var visibleCirclesInProgress: [Circle] { tracker.visibleCirclesInProgress }

    /// Selects `id` (or nothing). The selection is lifted out of the cache and drawn green on top.
    public func select(_ id: ShapeID?) {
        apply(document.select(id))
    }

    /// Removes the selected shape. Returns whether there was one.
    @discardableResult
    public func deleteSelectedShape() -> Bool {
        let hadSelection = document.selectedShape != nil
        apply(document.deleteSelection())
        return hadSelection
    }

    /// The kind (lines first) of which the drawing would hold more than `limits` allow with `lines` more lines and
    /// `circles` more circles; nil when they fit.
    public func kindOverLimit(addingLines lines: Int, circles: Int) -> Shape.Kind? {
        limits.exceeded(lines: shapes.lineCount + lines, circles: shapes.circleCount + circles)
    }

    /// The kind of which the drawing would hold more than `limits` allow with `newShapes` added; nil when they fit.
    public func kindOverLimit(adding newShapes: [Shape]) -> Shape.Kind? {
        let newLines = newShapes.count(where: { $0.kind == .line })
        return kindOverLimit(addingLines: newLines, circles: newShapes.count - newLines)
    }

    /// The kind of which the drawing would hold more than `limits` allow with `prepared`'s shapes added (to the
    /// drawing as it is now, whatever it was prepared on); nil when they fit. Constant time.
    public func kindOverLimit(adding prepared: PreparedPaste) -> Shape.Kind? {
        kindOverLimit(addingLines: prepared.lineCount, circles: prepared.circleCount)
    }

    /// Adds complete shapes on top (a paste): one undoable edit. False, changing nothing, when the drawing would
    /// then pass `limits`.
    @discardableResult
    public func add(_ shapes: [Shape]) -> Bool {
        guard kindOverLimit(adding: shapes) == nil else { return false }
        apply(document.add(shapes).0)
        return true
    }

    /// Puts a paste prepared on another thread on top: one undoable edit. False, changing nothing, when the
    /// drawing changed since it was prepared, or would then pass `limits` (`DrawingController.paste(_:)` checks
    /// that first, so it can refuse the paste for good).
    public func paste(_ prepared: PreparedPaste) -> Bool {
        guard kindOverLimit(adding: prepared) == nil, let update = document.paste(prepared) else { return false }
        apply(update)
        return true
    }

    /// Removes every shape, complete and in progress. Undoable (the complete ones come back).
    public func clearAll() {
        tracker.discardAll(damage: &changes)
        apply(document.clear())
    }

    /// Moves the selected shape by `offset` (a drag step). The move becomes one undoable edit when it ends.
    public func moveSelectedShape(by offset: Point) {
        apply(document.moveSelection(by: offset))
    }

    /// Moves the selected shape by `offset` as one saved edit (an arrow key); `joiningLastMove` keeps a run of them
    /// one undo step (`DrawingDocument.nudgeSelection`).
    public func nudgeSelectedShape(by offset: Point, joiningLastMove: Bool) {
        apply(document.nudgeSelection(by: offset, joiningLastMove: joiningLastMove))
    }

    /// Ends a move in progress, recording it for undo and saving.
    public func finishMove() {
        apply(document.finishMove())
    }

    public func undo() {
        apply(document.undo())
    }

    public func redo() {
        apply(document.redo())
    }

    /// Changes the options (a settings toggle or a colour). Saved with the document, not an undoable edit.
    public func setOptions(_ newOptions: DrawingOptions) {
        apply(document.setOptions(newOptions))
    }

    /// Replaces every complete shape with `loaded`'s (the document changed on disk and was read again): one
    /// undoable edit. Strokes in progress go on; the window's settings stay as they are.
    public func replaceDrawing(with loaded: consuming LoadedDocument) {
        apply(document.replace(with: loaded))
    }

    /// Puts a document read in the background under what was drawn meanwhile (`DrawingDocument.adopt`).
    ///
    /// When the document read leaves no room under `limits` for what was drawn while it loaded, the document is
    /// kept whole and those early shapes (and their undo history) are dropped, with `onFull`: whatever the app saves
    /// it must be able to open again.
    public func adoptLoadedDocument(_ loaded: consuming LoadedDocument) {
        let over = limits.exceeded(
            lines: loaded.shapes.lineCount + shapes.lineCount, circles: loaded.shapes.circleCount + shapes.circleCount)
        if let kind = over {
            // The settings switched meanwhile stay (`DrawingDocument.adopt` keeps them).
            let options = document.options
            document = DrawingDocument(numberingFrom: Self.numbersWhileLoading)
            _ = document.setOptions(options)
            onFull?(kind)
        }
        apply(document.adopt(loaded))
    }

    /// Notes what the document changed in the drawing's look, and reports an edit.
    private func apply(_ update: DrawingDocument.Update) {
        for change in update.changes {
            switch change {
            case .leftRest(let shape):
                changes.noteCompleteShapesChanged(in: strokeRegion(shape))
            case .cameToRest(let id, let shape):
                changes.noteShapeCompleted(id, covering: strokeRegion(shape))
            case .selectionMoved(let from, let to):
                changes.add(strokeRegion(from))
                changes.add(strokeRegion(to))
            case .everything:
                reshaped.noteEverything()
                // Not the window's region: how and when the window shows the complete shapes anew is the
                // renderer's choice (it may keep showing what it has until it has caught up, rather than spend a
                // whole-window frame that a finger drawing meanwhile would wait for).
                changes.noteEverythingChanged()
            }
        }
        reshaped.note(update.reshaped)
        if update.edited { onEdit?(document.snapshot) }
    }

    /// The shapes changed in place since the last take, handed over and forgotten.
    public func takeReshapedShapes() -> ReshapedShapes {
        defer { reshaped = ReshapedShapes() }
        return reshaped
    }

    private func strokeRegion(_ shape: Shape) -> DamageRegion { .stroke(of: shape, defaultWidth: lineWidth) }

    /// The changes to draw the next frame with, handed over and forgotten: `changes` with the bands of the lines in
    /// progress that moved (their place at the last frame and their place now) added to the region.
    public func takeChanges() -> DrawingChanges {
        var result = changes
        tracker.addMovedLines(to: &result)
        changes = DrawingChanges()
        return result
    }

    /// Notes that `rect` of the window must be shown again (a menu opened or closed over the drawing).
    public func noteChanged(_ rect: Rect) {
        changes.add(rect)
    }

    // MARK: Touches

    /// A touch's location, held within the coordinates a document may store (a platform may report a finger far
    /// outside the window, and the spatial index and the file format both need bounded numbers).
    private func canvasPoint(of touch: Touch) -> Point {
        let point = touch.location(in: self)
        let limit = DocumentCodec.coordinateLimit
        return Point(x: point.x.clamped(to: -limit...limit), y: point.y.clamped(to: -limit...limit))
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
        let options = document.options
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            if touch.type == .eraser {
                erase(with: touch, from: canvasPoint(of: touch))
                continue
            }
            tracker.began(
                touch.identifier, at: canvasPoint(of: touch), time: touch.timestamp, options: options, damage: &changes)
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
        let options = document.options
        for touch in touches {
            if touch.type == .eraser {
                erase(with: touch, from: eraserPlaces[touch.identifier] ?? canvasPoint(of: touch))
                continue
            }
            tracker.moved(
                touch.identifier, to: canvasPoint(of: touch), time: touch.timestamp, force: touch.force,
                options: options, damage: &changes)
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
        finishStrokes(of: touches)
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
        // A gesture that claimed the touch owns it, the app's or the window system's (a compositor's swipe): its
        // stroke was never meant as a shape. A touch the system took away (device unplugged, grab) keeps its work:
        // the stroke finishes where the finger was last seen.
        let kept = touches.filter { $0.cancellationReason == .system }
        for touch in touches.subtracting(kept) where touch.type == .eraser {
            eraserPlaces[touch.identifier] = nil
            apply(document.abandonErasing(stroke: touch.identifier))
        }
        for touch in touches.subtracting(kept) { discardStroke(of: touch) }
        finishStrokes(of: kept, updatingLocation: false)
    }

    /// Drops the stroke a touch is drawing, if any (a gesture claimed the touch).
    public func discardStroke(of touch: Touch) {
        tracker.discardStroke(of: touch.identifier, damage: &changes)
    }

    // MARK: The eraser

    /// Where each eraser touching the canvas was at its last sample, by touch.
    private var eraserPlaces: [UInt64: Point] = [:]

    /// The places of the erasers touching the canvas now, for the ring that shows what they take.
    public var eraserLocations: [Point] { eraserPlaces.sorted { $0.key < $1.key }.map(\.value) }

    /// The eraser `touch` went from `start` to where it is now: every shape its path came within the hit radius
    /// of goes at once, and the stroke becomes one undoable edit when the eraser lifts.
    private func erase(with touch: Touch, from start: Point) {
        let end = canvasPoint(of: touch)
        eraserPlaces[touch.identifier] = end
        let crossed = document.shapes.shapes(alongSegmentFrom: start, to: end, radius: hitRadiusInDrawing)
        if !crossed.isEmpty { apply(document.erase(crossed, stroke: touch.identifier)) }
    }

    // MARK: The keyboard's stroke

    /// Starts the stroke the keyboard draws at `point`: a line (through the stroke tracker, as a finger's, never
    /// paired into a circle) or a circle with one corner at `point` (drawn whatever the circles option says: it
    /// was asked for).
    public func beginKeyboardStroke(_ stroke: KeyboardCursor.Stroke, at point: Point, time: TimeInterval) {
        switch stroke {
        case .line:
            var options = document.options
            options.circles = false
            tracker.began(KeyboardCursor.lineTouch, at: point, time: time, options: options, damage: &changes)
        case .circle:
            tracker.beganCircle(KeyboardCursor.circleCorners, at: point, time: time)
        }
    }

    /// Moves the keyboard stroke's moving end (a line's end, a circle's second corner) to `point`.
    public func moveKeyboardStroke(_ stroke: KeyboardCursor.Stroke, to point: Point, time: TimeInterval) {
        tracker.moved(
            stroke.movingTouch, to: point, time: time, force: nil, options: document.options, damage: &changes)
    }

    /// Finishes the keyboard's stroke: one edit, as a finger's lift makes (nothing when it is smaller than a tap).
    public func finishKeyboardStroke(_ stroke: KeyboardCursor.Stroke) {
        // A circle finishes as the first of its fingers lifts; the other corner then lifts too, drawing nothing.
        let finished = tracker.ended(stroke.movingTouch, options: document.options, damage: &changes)
        for touch in stroke.touches where touch != stroke.movingTouch {
            _ = tracker.ended(touch, options: document.options, damage: &changes)
        }
        if let finished { addFinished([finished]) }
    }

    /// Drops the keyboard's stroke in progress.
    public func cancelKeyboardStroke(_ stroke: KeyboardCursor.Stroke) {
        for touch in stroke.touches { tracker.discardStroke(of: touch, damage: &changes) }
    }

    /// Finishes the strokes of lifted fingers, one finger at a time in touch order (each at its last place), and
    /// adds the shapes they make to the document as one edit.
    private func finishStrokes(of touches: Set<Touch>, updatingLocation: Bool = true) {
        let options = document.options
        var finished: [Shape] = []
        for touch in touches.sorted(by: { $0.identifier < $1.identifier }) {
            if touch.type == .eraser {
                if updatingLocation, let last = eraserPlaces[touch.identifier] { erase(with: touch, from: last) }
                eraserPlaces[touch.identifier] = nil
                apply(document.finishErasing(stroke: touch.identifier))
                continue
            }
            // The lift's own sample says nothing about the stroke's speed: the width stays that of the last move.
            if updatingLocation {
                tracker.moved(
                    touch.identifier, to: canvasPoint(of: touch), time: touch.timestamp, force: touch.force,
                    options: options, sampling: false, damage: &changes)
            }
            if let shape = tracker.ended(touch.identifier, options: options, damage: &changes) {
                finished.append(shape)
            }
        }
        addFinished(finished)
    }

    /// Adds finished strokes' shapes to the document as one edit, however many fingers lifted together. A shape the
    /// drawing has no room for under `limits` is dropped (its stroke is gone from the screen all the same) and
    /// `onFull` is told.
    private func addFinished(_ shapes: [Shape]) {
        var finished = shapes
        guard !finished.isEmpty else { return }
        var room = (lines: limits.lines - self.shapes.lineCount, circles: limits.circles - self.shapes.circleCount)
        var full: [Shape.Kind] = []
        finished.removeAll { shape in
            let fits: Bool
            switch shape.kind {
            case .line:
                fits = room.lines > 0
                room.lines -= 1
            case .circle:
                fits = room.circles > 0
                room.circles -= 1
            }
            if !fits, !full.contains(shape.kind) { full.append(shape.kind) }
            return !fits
        }
        // One edit, however many fingers lifted together.
        if !finished.isEmpty { apply(document.add(finished).0) }
        for kind in full { onFull?(kind) }
    }
}
