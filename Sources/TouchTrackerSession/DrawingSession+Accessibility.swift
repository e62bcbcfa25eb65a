import Foundation
import TouchKit
import TouchTracker
import TouchTrackerAccessibility
import TouchTrackerRender
import TouchTrackerStore

/// What assistive technology is told: the accessible tree's scenes, notices, undo outcomes and where the keyboard
/// cursor rests.
extension DrawingSession {
    // MARK: Accessibility

    /// The window as assistive technology is told of it now (constant time: the shapes are shared, not copied).
    func accessibleScene() -> AccessibleScene {
        AccessibleScene(
            windowTitle: windowTitle, windowOrigin: host.screenOrigin(),
            windowSize: Size(width: Double(renderer.width), height: Double(renderer.height)), scale: scale,
            viewport: controller.viewport, shapes: controller.drawingView.shapes,
            selection: controller.drawingView.selection,
            menu: controller.menu, isActive: windowIsActive, activation: activations,
            translate: Localization.translate, keyHelp: keyHelp.text(Localization.translate))
    }

    /// Hands the accessible tree a new scene when the shapes, the selection or the window's size changed, and says
    /// a new notice to the screen reader.
    func publishAccessibleScene() {
        guard let accessibility else { return }
        publishSceneIfChanged(to: accessibility)
        tellReshapedShapesWhenStill(to: accessibility)
        if let outcome = undoOutcome {
            undoOutcome = nil
            dropCursorRest()
            accessibility.announce(outcome.localized(Localization.translate))
        }
        if let notice = noticeAnnouncer.toAnnounce(
            shows: controller.overlay.notice, standing: controller.standingNotice,
            passingShown: controller.passingNoticesShown)
        {
            accessibility.announce(notice.localized(Localization.translate))
        }
        announceKeyboardCursor(to: accessibility)
    }

    /// Hands the tree the window as it is now, when the shapes, the selection, the menu, the size or the activation
    /// changed since it was last told.
    func publishSceneIfChanged(to accessibility: AccessibilityBridge) {
        let view = controller.drawingView
        let size = Size(width: Double(renderer.width), height: Double(renderer.height))
        let menu = controller.menu
        let changed = publishedScene.map {
            $0.revision != view.shapes.revision || $0.selection != view.selection || $0.menu != menu || $0.size != size
                || $0.active != windowIsActive || $0.activation != activations || $0.viewport != controller.viewport
        }
        if changed ?? true {
            publishedScene = (
                view.shapes.revision, view.selection, menu, size, windowIsActive, activations, controller.viewport
            )
            accessibility.publish(accessibleScene())
        }
    }

    /// How the keyboard looks to a screen reader now.
    var keyboardLook: KeyboardCursorAnnouncer.Look {
        let keyboard = controller.keyboard
        return KeyboardCursorAnnouncer.Look(
            location: keyboard.location, stroke: keyboard.stroke,
            circle: keyboard.stroke == .circle ? controller.drawingView.keyboardCircleInProgress : nil,
            isShown: keyboard.isShown,
            focusElsewhere: controller.drawingView.selection != nil || controller.menu != nil,
            lineCount: controller.drawingView.shapes.lineCount, circleCount: controller.drawingView.shapes.circleCount)
    }

    /// Says the shape a Space finished at once, and where the cursor rests a moment after the arrows stop (each
    /// press would be too many words).
    func announceKeyboardCursor(to accessibility: AccessibilityBridge) {
        let shapes = controller.drawingView.shapes
        let newestShape = { (stroke: KeyboardCursor.Stroke) -> Message? in
            // Lines lie below the circles in the order, so the newest of a kind is found from the top down.
            switch shapes.order.last(where: { $0.kind == (stroke == .line ? .line : .circle) }).flatMap({ shapes[$0] })
            {
            case .line(let line)?: .lineName(from: line.begin, to: line.end)
            case .circle(let circle)?: .circleName(circle)
            case nil: nil
            }
        }
        switch cursorAnnouncer.saying(for: keyboardLook, newestShape: newestShape) {
        case .nothing:
            break
        case .now(let message):
            // Said instead of where the cursor rested, which would cut it short.
            dropCursorRest()
            accessibility.announce(message.localized(Localization.translate))
        case .whenStill:
            dropCursorRest()
            cursorRestTimer = clock.schedule(after: Self.cursorRestDelay) { [weak self] in
                guard let self else { return }
                cursorRestTimer = nil
                if let message = KeyboardCursorAnnouncer.message(for: keyboardLook) {
                    accessibility.announce(message.localized(Localization.translate))
                }
            }
        }
    }

    /// Forgets where the cursor was to be said to rest (a later look says it, or something else is said).
    func dropCursorRest() {
        if let cursorRestTimer { clock.cancel(cursorRestTimer) }
        cursorRestTimer = nil
    }

    /// How long the arrows rest before the cursor's place is said.
    static let cursorRestDelay = 0.3

    /// Tells the tree which shapes moved once they have rested a moment (`shapeRestDelay` after the last step): a
    /// held arrow or a drag moves a shape dozens of times a second, and a reader told of each would say nothing else.
    func tellReshapedShapesWhenStill(to accessibility: AccessibilityBridge) {
        let reshaped = controller.drawingView.takeReshapedShapes()
        guard !reshaped.isEmpty else { return }
        reshapedToTell.merge(reshaped)
        if let shapeRestTimer { clock.cancel(shapeRestTimer) }
        shapeRestTimer = clock.schedule(after: Self.shapeRestDelay) { [weak self] in
            guard let self else { return }
            shapeRestTimer = nil
            // The tree is told the scene as it is now first: the timer may fire before the next frame publishes it.
            // (Moves made since the last frame are not taken here: they restart the wait when the frame takes them.)
            publishSceneIfChanged(to: accessibility)
            accessibility.tellReshaped(reshapedToTell)
            reshapedToTell = ReshapedShapes()
        }
    }

    /// How long a moved shape rests before a reader is told where it is now.
    static let shapeRestDelay = 0.3

    /// Does what assistive clients asked: select, delete, deselect (as a tap and the menu would).
    func doAccessibilityRequests() {
        for request in accessibilityRequests.take() { perform(request) }
    }

    /// Does one thing an assistive client asked.
    func perform(_ request: AccessibilityRequest) {
        switch request {
        case .select(let id):
            controller.select(id)
        case .delete(let id):
            if controller.drawingView.selection != id { controller.select(id) }
            selectingNeighbourOfDeleted { controller.delete(id) }
        case .deselect:
            controller.select(nil)
        case .activateMenuItem(let item, let seen):
            // The highlight may have moved since; the opening and the items say it is the same menu.
            guard let menu = controller.menu, menu.opening == seen.opening, menu.items == seen.items,
                menu.items.contains(item)
            else { return }
            // Chosen by a screen reader: a menu it opens (the colours) gets the focus, as from the keyboard.
            controller.activate(item, highlightingNext: true)
        case .highlightMenuItem(let item, let seen):
            guard let menu = controller.menu, menu.opening == seen.opening, menu.items == seen.items else { return }
            controller.highlight(item)
        }
    }
}
