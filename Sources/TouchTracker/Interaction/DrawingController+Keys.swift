import TouchKit

/// The keyboard (DESIGN.md §2.10–11, §2.17): what each key does, and drawing and selecting without a pointer.
extension DrawingController {
    /// Handles a key press (`KeyMap` says what it means). Returns whether the key did something.
    @discardableResult
    public func handleKey(_ command: KeyCommand) -> Bool {
        guard let action = KeyMap.action(for: command) else { return false }
        gestureHintDismissed = true
        if case .arrow = action {} else { keyboard.movingShape = nil }
        switch action {
        case .undo:
            endDrag()
            closeMenu()
            drawingView.undo()
        case .redo:
            endDrag()
            closeMenu()
            drawingView.redo()
        case .deleteSelection:
            guard drawingView.selectedShape != nil else { return false }
            deleteSelectedShape()
        case .clearDrawing:
            // As a double tap: the complete shapes and the strokes in progress.
            guard
                !drawingView.shapes.isEmpty || !drawingView.visibleLinesInProgress.isEmpty
                    || !drawingView.visibleCirclesInProgress.isEmpty || keyboard.isDrawing
            else { return false }
            // A line held and dragged is put down first, as a menu's click does, so its move ends undoably.
            endDrag()
            clearAll()
        case .escape:
            if menuView != nil {
                closeMenu()
            } else if let stroke = keyboard.stroke {
                keyboard.stroke = nil
                drawingView.cancelKeyboardStroke(stroke)
            } else if drawingView.selection != nil {
                endDrag()
                drawingView.select(nil)
            } else {
                return false
            }
        case .arrow(let direction, let fine):
            return arrow(direction, fine: fine)
        case .keyboardStroke(let stroke):
            // In an open menu Space chooses the highlighted item, as Return does (and as GTK's menus do).
            if let menu {
                guard let index = menu.highlightedIndex else { return false }
                activate(menu.items[index])
            } else {
                keyboardStroke(stroke)
            }
        case .selectNext:
            return selectAlong(by: 1)
        case .selectPrevious:
            return selectAlong(by: -1)
        case .activateHighlighted:
            guard let menu, let index = menu.highlightedIndex else { return false }
            activate(menu.items[index])
        case .openSelectionMenu:
            // The Delete menu is for a shape at rest: not while a finger drags it.
            guard dragAnchor == nil, let shape = drawingView.selectedShape else { return false }
            openSelectionMenu(at: viewport.windowPoint(of: shape.menuAnchor), highlightingFirst: true)
        case .toggle(let option):
            toggle(option)
        case .openColorMenu:
            openColorMenu(at: keyboardMenuAnchor, highlightingFirst: true)
        case .openSettingsMenu:
            openSettingsMenu(at: keyboardMenuAnchor, highlightingFirst: true)
        case .export:
            guard let onExport else { return false }
            onExport()
        case .toggleInspector:
            inspectorState.toggle()
        case .copy:
            guard let onCopy else { return false }
            guard let content = clipboardShapes() else {
                showNotice(.nothingToCopy)
                return true
            }
            onCopy(content)
            showNotice(content.isSelection ? .copiedSelection : .copiedDrawing)
        case .paste:
            guard let onPaste else { return false }
            onPaste()
        case .zoomIn:
            navigation.zoom(by: CanvasNavigation.keyZoomStep, around: keyboardMenuAnchor)
        case .zoomOut:
            navigation.zoom(by: 1 / CanvasNavigation.keyZoomStep, around: keyboardMenuAnchor)
        case .actualSize:
            navigation.zoom(to: 1, around: keyboardMenuAnchor)
        case .fitDrawing:
            navigation.fit(drawingView.shapes.approximateBounds)
        case .document(let command):
            guard let onDocumentCommand else { return false }
            onDocumentCommand(command)
        }
        return true
    }

    // MARK: The keyboard

    /// An arrow key: chooses in an open menu (Up and Down); else moves the keyboard's line, or the selected shape
    /// (a run of presses on one shape is one undo step), or the cursor, by one step, inside the window.
    func arrow(_ direction: KeyboardCursor.Direction, fine: Bool) -> Bool {
        if let menuView {
            switch direction {
            case .up: menuView.moveHighlight(by: -1)
            case .down: menuView.moveHighlight(by: 1)
            case .left, .right: return false
            }
            return true
        }
        let offset = direction.offset(fine ? KeyboardCursor.fineStep : KeyboardCursor.step)
        let before = keyboard.location
        keyboard.isShown = true
        if let stroke = keyboard.stroke {
            keyboard.move(by: offset, within: KeyboardCursor.reach)
            drawingView.moveKeyboardStroke(stroke, to: keyboard.location, time: window.clock.now)
        } else if let selection = drawingView.selection, dragAnchor == nil {
            let box = drawingView.shapes[selection]?.strokeBounds(defaultWidth: drawingView.lineWidth) ?? .null
            let step = KeyboardCursor.shapeStep(offset, moving: box, within: KeyboardCursor.reach)
            drawingView.nudgeSelectedShape(by: step, joiningLastMove: keyboard.movingShape == selection)
            keyboard.movingShape = drawingView.selection
            keyboard.move(by: step, within: KeyboardCursor.reach)
            navigation.keepVisible(Rect(origin: box.origin + step, size: box.size))
        } else {
            keyboard.move(by: offset, within: KeyboardCursor.reach)
        }
        noteKeyboardCursorMoved(from: before)
        return true
    }

    /// Space (a line) or Shift+Space (a circle): starts the stroke at the keyboard cursor (closing a menu and the
    /// selection first), or finishes the one it draws, whichever it is, as an edit like any finger's.
    func keyboardStroke(_ stroke: KeyboardCursor.Stroke) {
        let before = keyboard.location
        keyboard.isShown = true
        if let drawn = keyboard.stroke {
            keyboard.stroke = nil
            drawingView.finishKeyboardStroke(drawn)
        } else {
            closeMenu()
            endDrag()
            drawingView.select(nil)
            keyboard.stroke = stroke
            drawingView.beginKeyboardStroke(stroke, at: keyboard.location, time: window.clock.now)
        }
        noteKeyboardCursorMoved(from: before)
    }

    /// Tab (`step` 1) and Shift+Tab (-1): selects the next or previous shape in drawing order (the oldest first,
    /// wrapping around) and puts the cursor on its middle. Not while the keyboard draws a line.
    func selectAlong(by step: Int) -> Bool {
        let order = drawingView.shapes.order
        guard !keyboard.isDrawing, !order.isEmpty else { return false }
        closeMenu()
        endDrag()
        let next: Int
        if let selection = drawingView.selection, let position = drawingView.shapes.orderPosition(of: selection) {
            next = (position + step + order.count) % order.count
        } else {
            next = step > 0 ? 0 : order.count - 1
        }
        drawingView.select(order[next])
        let before = keyboard.location
        keyboard.isShown = true
        if let shape = drawingView.selectedShape {
            keyboard.location = shape.menuAnchor
            keyboard.move(by: .zero, within: KeyboardCursor.reach)
            navigation.keepVisible(shape.strokeBounds(defaultWidth: drawingView.lineWidth))
        }
        noteKeyboardCursorMoved(from: before)
        return true
    }

    /// The crosshair's old and new place must be shown again.
    /// The view follows the cursor (it stays in view).
    func noteKeyboardCursorMoved(from before: Point) {
        pointedLast = false
        navigation.keepVisible(Rect(origin: keyboard.location, size: .zero))
        noteWindowChanged(KeyboardCursor.crosshairFrame(at: viewport.windowPoint(of: before)))
        noteWindowChanged(KeyboardCursor.crosshairFrame(at: viewport.windowPoint(of: keyboard.location)))
    }

    /// Where a paste lands for someone using the keyboard: the keyboard cursor, when it moved (arrows, Space, Tab)
    /// since the pointer or a finger was last used; nil otherwise (the pointer decides).
    public var keyboardPastePoint: Point? { pointedLast || !keyboard.isShown ? nil : keyboard.location }
}
