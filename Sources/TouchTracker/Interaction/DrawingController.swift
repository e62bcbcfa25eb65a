import TouchKit

/// TouchTracker's interaction (DESIGN.md §2): the canvas, its gesture recognizers, the popup menu and the keyboard.
///
/// The same controller runs in the window and in replay; only the source of input and time differs.
public final class DrawingController {
    public let window: Window
    public let drawingView: DrawingView
    /// The view over the drawing: scroll and zoom (the canvas is its view for zooming).
    public let navigation: CanvasNavigation
    public internal(set) var menuView: MenuView?

    /// Tap on a line: select it and open the menu; tap elsewhere: deselect and close. Waits for the double tap to
    /// fail, so a double tap never selects first.
    public let tapRecognizer = TapGestureRecognizer()
    /// Double tap anywhere: clear.
    public let doubleTapRecognizer = TapGestureRecognizer()
    /// Press and hold on a line or circle: select it and drag it with that finger.
    public let longPressRecognizer = LongPressGestureRecognizer()
    /// Three fingers swiping up: open the colour menu. The long press (the move) requires it to fail; recognizing
    /// cancels its three touches in the canvas, which discards their lines (and circle) in progress.
    public let swipeRecognizer = SwipeGestureRecognizer()

    /// Where the long-pressing finger was at the last move, so the line follows it exactly.
    var dragAnchor: Point?
    /// Fingers taken for the palm while a stylus is near (DESIGN.md §2.21).
    public private(set) var palmRejection = PalmRejection()
    /// Where a stylus hovers within reach without touching, and which end, while it does.
    public private(set) var stylusHover: (location: Point, tool: TouchType)?
    let gestureRules = GestureRules()

    let inspectorState = GestureInspector()
    /// The keyboard's place, line and moves (drawing and selecting without a pointer).
    public internal(set) var keyboard: KeyboardCursor
    let notices: NoticeBoard
    /// How the platform shows an English text (a menu title) in the user's language (`Translate`, the same
    /// function the renderer draws with): used only to make menus wide enough, since the model keeps every text in
    /// English.
    public var translate: Translate = untranslated
    /// "Keys" in the settings menu: the platform shows every gesture and key (the session's key help). Nil: the
    /// settings menu does not offer it.
    public var onShowKeys: (() -> Void)?
    /// Ctrl+S: the platform exports the drawing (the core knows no file formats). Nil: Ctrl+S does nothing.
    public var onExport: (() -> Void)?
    /// Ctrl+N, Ctrl+O, Ctrl+Shift+S and their menu items: the platform carries out the command. Nil: neither the
    /// keys nor the menu offer them.
    public var onDocumentCommand: ((DocumentCommand) -> Void)?
    /// Ctrl+C: the platform offers these shapes on its clipboard. Nil: Ctrl+C does nothing.
    public var onCopy: ((ClipboardShapes) -> Void)?
    /// Ctrl+V: the platform fetches its clipboard's shapes and hands them to `paste(_:at:)`. Nil: Ctrl+V does
    /// nothing.
    public var onPaste: (() -> Void)?

    /// Called after every completed edit with the new document (for saving), as a constant-time snapshot.
    public var onEdit: ((DrawingSnapshot) -> Void)? {
        get { drawingView.onEdit }
        set { drawingView.onEdit = newValue }
    }

    /// How many lines and circles the drawing may hold (`DrawingView.limits`; the reader's, unless a test makes
    /// them smaller): a stroke, circle or paste that would pass them is refused with a notice, changing nothing.
    public var limits: DocumentLimits {
        get { drawingView.limits }
        set { drawingView.limits = newValue }
    }

    /// A controller on `drawing`; with `documentLoading` on an empty canvas that takes input at once while its
    /// document is read elsewhere (`DrawingView.adoptLoadedDocument`). `limits`: how many lines and circles the
    /// drawing may hold (a document's, `DocumentLimits.document`, unless a test wants a small drawing to be full).
    public init(
        size: Size, drawing: Drawing = Drawing(), clock: Clock = Clock(),
        documentLoading: Bool = false, limits: DocumentLimits = .document
    ) {
        let frame = Rect(origin: .zero, size: size)
        documentArrived = !documentLoading
        keyboard = KeyboardCursor(location: Point(x: frame.midX, y: frame.midY))
        window = Window(frame: frame, clock: clock)
        notices = NoticeBoard(clock: window.clock)
        drawingView =
            documentLoading ? DrawingView(frameWhileLoading: frame) : DrawingView(frame: frame, drawing: drawing)
        navigation = CanvasNavigation(canvas: drawingView, frame: frame)
        window.addSubview(navigation.scrollView)
        drawingView.limits = limits
        drawingView.onFull = { [weak self] kind in
            guard let self else { return }
            showNotice(.drawingFull(kind, limit: self.limits[kind]))
        }
        installRecognizers()
        InteractionMetrics.apply(to: self)
        navigation.onChange = { [unowned self] previousZoom in self.viewChanged(previousZoom: previousZoom) }
    }

    /// Puts a document read in the background under what was drawn while it loaded
    /// (`DrawingView.adoptLoadedDocument`) and, if anything was drawn meanwhile, reports the merged drawing as an
    /// edit so it is saved.
    public func adoptLoadedDocument(_ document: consuming LoadedDocument) {
        drawingView.adoptLoadedDocument(document)
        documentArrived = true
        if drawingView.undoStack.canUndo || drawingView.undoStack.canRedo { onEdit?(drawingView.snapshot) }
    }

    /// Replaces every complete shape with `loaded`'s (the document changed on disk and was read again), as one
    /// undoable edit; the selection goes, and with it its menu.
    public func replaceDrawing(with loaded: consuming LoadedDocument) {
        drawingView.replaceDrawing(with: loaded)
        closeSelectionMenuWithoutSelection()
    }

    /// Closes the selected shape's menu once nothing is selected: a menu is for the selection.
    func closeSelectionMenuWithoutSelection() {
        if menuView != nil, drawingView.selection == nil, menu?.items == MenuItem.selectionMenu { closeMenu() }
    }

    func installRecognizers() {
        gestureRules.controller = self
        doubleTapRecognizer.numberOfTapsRequired = 2
        doubleTapRecognizer.name = "double tap"
        doubleTapRecognizer.addTarget(self) { controller, recognizer in
            if recognizer.state == .ended { controller.clearAll() }
        }
        tapRecognizer.name = "tap"
        tapRecognizer.require(toFail: doubleTapRecognizer)
        tapRecognizer.addTarget(self) { controller, recognizer in
            if recognizer.state == .ended {
                controller.tap(
                    at: recognizer.location(in: controller.drawingView), menuAt: recognizer.location(in: nil))
            }
        }
        longPressRecognizer.name = "long press"
        longPressRecognizer.delegate = gestureRules
        longPressRecognizer.addTarget(self) { controller, recognizer in controller.longPressChanged(recognizer) }
        swipeRecognizer.name = "three-finger swipe"
        swipeRecognizer.direction = .up
        swipeRecognizer.numberOfTouchesRequired = 3
        // Lines complete when their fingers lift, whatever the swipe is still deciding.
        swipeRecognizer.delaysTouchesEnded = false
        swipeRecognizer.addTarget(self) { controller, recognizer in
            if recognizer.state == .ended {
                controller.drawingView.select(nil)
                controller.openColorMenu(at: recognizer.location(in: nil))
            }
        }
        longPressRecognizer.require(toFail: swipeRecognizer)
        // A finger, the mouse and a pen's tip tap, hold and swipe alike; the eraser only erases.
        for recognizer in [tapRecognizer, doubleTapRecognizer, longPressRecognizer, swipeRecognizer] {
            recognizer.allowedTouchTypes = [.direct, .indirectPointer, .pencil]
            // Every touch counts, whatever made it: a pen landing while a palm rests on a line must fail that
            // palm's long press (two touches), not leave it to pick the line up and drag it with the hand.
            recognizer.requiresExclusiveTouchType = false
        }
        drawingView.addGestureRecognizer(doubleTapRecognizer)
        drawingView.addGestureRecognizer(tapRecognizer)
        drawingView.addGestureRecognizer(longPressRecognizer)
        drawingView.addGestureRecognizer(swipeRecognizer)
        for recognizer in recognizers {
            recognizer.addTarget(self) { controller, recognizer in controller.inspectorState.note(recognizer) }
        }
    }

    /// Every recognizer the controller uses, for the inspector and invariant checks.
    public var recognizers: [GestureRecognizer] {
        [tapRecognizer, doubleTapRecognizer, longPressRecognizer, swipeRecognizer]
    }

    /// The open menu, if any.
    public var menu: PopupMenu? { menuView?.menu }

    /// Resizes the window and canvas (the platform window was resized).
    public func resize(to size: Size) {
        let frame = Rect(origin: .zero, size: size)
        window.frame = frame
        navigation.resize(to: size)
        // The drawing stays where it is under the window's top-left corner: only the window is redrawn.
        noteWindowChanged(frame)
        if let menu { reopenMenu(menu) }
    }

    /// Which part of the drawing the window shows, and at what zoom.
    public var viewport: Viewport { navigation.viewport }

    /// Notes that `rect` of the window (window units: a menu, the window itself) must be shown again.
    func noteWindowChanged(_ rect: Rect) {
        drawingView.noteChanged(viewport.drawingRect(of: rect))
    }

    /// The view scrolled or zoomed: a menu opened over the drawing closes (its shape or place moved away under
    /// it), and a new zoom is shown for a moment.
    func viewChanged(previousZoom: Double) {
        closeMenu()
        if viewport.zoom != previousZoom { showNotice(.zoom(percent: viewport.percent), for: 1) }
    }

    // MARK: Input

    public func send(_ input: TouchInput) {
        pointedLast = true
        // Only a touch that begins can be taken for a palm, and only a palm's later events are dropped: the moves of
        // every other touch (nearly every event) skip palm rejection altogether.
        if input.phase == .began || palmsDown, rejectsAsPalm(input) {
            if input.phase == .began, window.activeTouches.contains(where: { $0.platformID == input.id }) {
                // The platform reused the id of a contact the window still holds, which is gone without an end: the
                // window would have cancelled it on seeing this begin, which it never will.
                window.send(
                    TouchInput(id: input.id, phase: .cancelled, location: input.location, timestamp: input.timestamp))
            }
            // Time passes as it would have had the window seen the touch: gesture timers fire in order.
            window.clock.advance(to: input.timestamp)
            return
        }
        if input.type.isStylus, input.phase == .began { stylusHover = nil }
        // The document's switch says whether fingers navigate (it may have changed with the document).
        if navigation.fingersNavigate != drawingView.options.fingersNavigate, window.activeTouches.isEmpty {
            navigation.fingersNavigate = drawingView.options.fingersNavigate
        }
        if input.phase == .began {
            gestureHintDismissed = true
            keyboard.movingShape = nil
        }
        window.send(input)
        // The eraser may have taken the selected shape: its menu goes with it.
        closeSelectionMenuWithoutSelection()
        inspectorState.noteFailures(of: recognizers)
    }

    /// Whether fingers taken for a palm are down (`palmRejection.rejectedTouches` is not empty).
    var palmsDown = false

    /// Asks palm rejection about `input` and notes whether palms are down.
    func rejectsAsPalm(_ input: TouchInput) -> Bool {
        let rejected = palmRejection.rejects(input, enabled: drawingView.options.palmRejection)
        palmsDown = !palmRejection.rejectedTouches.isEmpty
        return rejected
    }

    /// A wheel or touchpad scroll (the view of the drawing follows it once it can move; until then it does nothing).
    public func scroll(_ input: ScrollInput) {
        pointedLast = true
        gestureHintDismissed = true
        navigation.scroll(input)
    }

    /// Lets time pass to `time` (seconds on the window clock), firing due gesture timers.
    public func advanceTime(to time: TimeInterval) {
        window.clock.advance(to: time)
    }

    /// The pointer moved with no button down: highlight the menu item under it.
    public func hover(at point: Point) {
        // Only a move counts as using the pointer: a compositor reports the pointer again where it rests when the
        // window gets it back (after Alt+Tab), which is no reason to paste there rather than at the keyboard cursor.
        if point != lastHover { pointedLast = true }
        lastHover = point
        menuView?.hover(at: point)
    }

    /// A stylus hovers within the tablet's reach at `point` without touching (`tool`: its tip or its eraser): its
    /// ring shows where it would land, and fingers that go down meanwhile are taken for the palm.
    public func stylusHovered(at point: Point, tool: TouchType) {
        guard point.isFinite else { return }
        palmRejection.stylusCameNear()
        pointedLast = true
        stylusHover = (point, tool)
        menuView?.highlight(at: point)
    }

    /// The stylus left the tablet's reach (at the window clock's `time`): its ring goes, and fingers are drawn with
    /// again `PalmRejection.grace` later.
    public func stylusLeft(at time: TimeInterval) {
        stylusHover = nil
        palmRejection.stylusLeft(at: time)
    }

    /// A right click: select the shape under the pointer and open its menu at once (no double-tap wait); on the
    /// empty canvas, deselect and open the settings menu there.
    public func contextClick(at point: Point) {
        pointedLast = true
        gestureHintDismissed = true
        // A menu is for a shape at rest: a line held and dragged is put down where it is first (one undoable
        // move), or its drag would go on moving whichever shape the click selects.
        endDrag()
        keyboard.movingShape = nil
        if let shape = drawingView.shape(at: viewport.drawingPoint(at: point)) {
            drawingView.select(shape)
            openSelectionMenu(at: point)
        } else {
            drawingView.select(nil)
            openSettingsMenu(at: point)
        }
    }

    /// Whether a touch, a pen or the pointer was used since the keyboard cursor last moved.
    var pointedLast = true
    /// Where the pointer last hovered.
    var lastHover: Point?

    // MARK: Gestures

    /// A tap at `point` of the drawing, `windowPoint` of the window (where a menu opens).
    func tap(at point: Point, menuAt windowPoint: Point) {
        if let shape = drawingView.shape(at: point) {
            drawingView.select(shape)
            openSelectionMenu(at: windowPoint)
        } else {
            drawingView.select(nil)
            closeMenu()
        }
    }

    func clearAll() {
        closeMenu()
        // The keyboard's stroke in progress goes with everything else.
        keyboard.stroke = nil
        drawingView.clearAll()
    }

    // MARK: Requests from assistive technology

    /// Selects `id` (nil: deselects) as a tap would: a drag under way ends and an open menu closes first.
    public func select(_ id: ShapeID?) {
        guard id.map({ drawingView.shapes[$0] != nil }) ?? true else { return }
        // A stroke the keyboard is drawing is finished, as Space would, so the arrows then move the selection.
        finishKeyboardStroke()
        endDrag()
        closeMenu()
        keyboard.movingShape = nil
        drawingView.select(id)
    }

    /// Deletes `id` as its menu's Delete would.
    public func delete(_ id: ShapeID) {
        guard drawingView.shapes[id] != nil else { return }
        select(id)
        deleteSelectedShape()
    }

    /// Finishes the keyboard's stroke in progress, as Space would (the app is closing, or a screen reader selects).
    public func finishKeyboardStroke() {
        guard let stroke = keyboard.stroke else { return }
        keyboard.stroke = nil
        drawingView.finishKeyboardStroke(stroke)
    }

    func deleteSelectedShape() {
        closeMenu()
        drawingView.deleteSelectedShape()
    }

    /// Ends a long-press drag now, as if its finger had been lifted where it is (the move so far becomes an edit and
    /// the line is deselected): the recognizer is cancelled, so the finger draws and drags nothing more until it
    /// lifts. An undo or redo during a drag starts with this, so it undoes the drag itself.
    func endDrag() {
        guard dragAnchor != nil else { return }
        longPressRecognizer.isEnabled = false
        longPressRecognizer.isEnabled = true
    }

    func longPressChanged(_ recognizer: LongPressGestureRecognizer) {
        let point = recognizer.location(in: drawingView)
        switch recognizer.state {
        case .began:
            closeMenu()
            // The shape pressed is the one where the finger was held; a finger that moved while the press waited
            // for the three-finger swipe to fail drags it from there at once.
            let held = recognizer.heldLocation(in: drawingView) ?? point
            drawingView.select(drawingView.shape(at: held))
            dragAnchor = held
            if point != held, point.isFinite {
                drawingView.moveSelectedShape(by: point - held)
                dragAnchor = point
            }
        case .changed:
            // The shape's travel is exactly the pressing finger's travel, whatever other fingers do.
            guard let anchor = dragAnchor, point.isFinite else { return }
            drawingView.moveSelectedShape(by: point - anchor)
            dragAnchor = point
        case .ended, .cancelled:
            if recognizer.state == .ended, let anchor = dragAnchor, point.isFinite {
                drawingView.moveSelectedShape(by: point - anchor)
            }
            dragAnchor = nil
            drawingView.finishMove()
            drawingView.select(nil)
            // A menu is only ever for the selection, which is gone.
            closeMenu()
        default:
            break
        }
    }

    /// How many menus have opened (each opening's number is its menu's `opening`).
    var menuOpenings = 0

    // MARK: Overlays

    /// Whether the gesture inspector (F1) is shown.
    public var isInspectorVisible: Bool { inspectorState.isVisible }

    /// What the gesture inspector shows now, or nil while it is hidden.
    public var inspector: InspectorSnapshot? {
        guard
            var snapshot = inspectorState.snapshot(
                of: window, recognizers: recognizers, rejected: palmRejection.rejectedTouches)
        else {
            return nil
        }
        if keyboard.isShown {
            snapshot.keyboard = InspectorSnapshot.KeyboardMark(
                location: viewport.windowPoint(of: keyboard.location), isDrawing: keyboard.isDrawing)
        }
        return snapshot
    }

    /// A short confirmation shown on screen (for example after exporting), while it lasts, in English.
    public var notice: String? { notices.passing?.description }

    /// How many passing notices have been shown so far (one shown again counts again), for a screen reader.
    public var passingNoticesShown: Int { notices.passingShown }

    /// Shows `message` on screen for `duration` seconds of the window clock.
    public func showNotice(_ message: Message, for duration: TimeInterval = 2) {
        notices.show(message, for: duration)
    }

    /// A notice that stays until it is taken away (the drawing is not saved), shown whenever no passing notice is.
    public var standingNotice: Message? {
        get { notices.standing }
        set { notices.standing = newValue }
    }

    /// Everything drawn above the canvas and the menu.
    public var overlay: Overlay {
        Overlay(
            inspector: inspector, notice: notices.shown, hint: isHintShown ? .gestureHint : nil,
            keyboardCursor: keyboard.isShown ? viewport.windowPoint(of: keyboard.location) : nil,
            stylusRings: stylusRings)
    }

    /// How wide the ring under a hovering pen's tip is, in drawing units.
    public static let penRingRadius = 6.0

    /// The rings under the stylus: where a hovering tip would land or a hovering eraser would erase, and what each
    /// pressed eraser takes.
    var stylusRings: [StylusRing] {
        let viewport = viewport
        var rings = drawingView.eraserLocations.map {
            StylusRing(center: viewport.windowPoint(of: $0), radius: drawingView.hitRadius, tool: .eraser)
        }
        if let hover = stylusHover {
            let radius = hover.tool == .eraser ? drawingView.hitRadius : Self.penRingRadius
            rings.append(StylusRing(center: hover.location, radius: radius, tool: hover.tool))
        }
        return rings
    }

    /// Whether the window shows a short hint of the gestures on an empty drawing until the first stroke (a window
    /// sets it; replay, whose pictures are compared, does not).
    public var showsGestureHint = false
    /// Set by the first touch, click or key the app acts on: the hint does not come back, even on a drawing cleared
    /// later.
    var gestureHintDismissed = false
    /// Whether the document has been read (an empty canvas while a drawing loads is not an empty drawing).
    var documentArrived: Bool

    var isHintShown: Bool {
        showsGestureHint && !gestureHintDismissed && documentArrived && drawingView.shapes.lineCount == 0
            && drawingView.shapes.circleCount == 0
    }

    // MARK: Snapshot

    public var snapshot: StateSnapshot {
        StateSnapshot(
            drawing: drawingView.drawing, selection: drawingView.document.selectionPosition, menu: menu,
            linesInProgress: drawingView.visibleLinesInProgress.count,
            circlesInProgress: drawingView.visibleCirclesInProgress.count, viewport: viewport)
    }
}
