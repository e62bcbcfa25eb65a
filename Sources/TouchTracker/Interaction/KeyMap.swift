/// What a key does in TouchTracker (DESIGN.md §2.10–11, §2.17), whatever state the app is in; the controller
/// decides whether the action applies now.
public enum KeyAction: Hashable, Sendable {
    case undo
    case redo
    case deleteSelection
    /// Ctrl+Shift+Delete: clears the drawing, as a double tap does (undoable).
    case clearDrawing
    /// Escape: closes the open menu; else cancels the keyboard's stroke in progress; else deselects.
    case escape
    /// An arrow key (`fine`: with Shift): in an open menu Up and Down choose; else it moves the stroke the keyboard
    /// draws, or the selected shape, or the keyboard cursor (`KeyboardCursor`).
    case arrow(KeyboardCursor.Direction, fine: Bool)
    case activateHighlighted
    /// Space (a line) or Shift+Space (a circle): starts the stroke at the keyboard cursor, or finishes the one it
    /// draws.
    case keyboardStroke(KeyboardCursor.Stroke)
    /// Tab: selects the next shape in drawing order (the oldest first, wrapping).
    case selectNext
    /// Shift+Tab: selects the previous shape.
    case selectPrevious
    /// The Menu key or Shift+F10: the selection's menu.
    case openSelectionMenu
    case toggle(DrawingOption)
    case openColorMenu
    case openSettingsMenu
    case export
    case toggleInspector
    /// Ctrl+C or Ctrl+Insert: the selected shape, or the whole drawing, to the clipboard.
    case copy
    /// Ctrl+V or Shift+Insert: the clipboard's shapes into the drawing, at the pointer.
    case paste
    /// Ctrl++ (or Ctrl+=) and Ctrl+-: zoom in and out about the window's centre.
    case zoomIn
    case zoomOut
    /// Ctrl+0: back to 100 %, about the window's centre.
    case actualSize
    /// Ctrl+Shift+J (GIMP's "fit image in window"): the whole drawing fills the window.
    case fitDrawing
    /// Ctrl+N, Ctrl+O, Ctrl+Shift+S: a new drawing, open drawings, save this one under a new name.
    case document(DocumentCommand)
}

/// What the app does with drawings as files: New, Open… and Save As… (DESIGN.md §3g), from the keys and the
/// settings menu; the platform carries them out (the core knows no files or dialogs).
public enum DocumentCommand: CaseIterable, Hashable, Sendable {
    /// A new, untitled drawing in a window of its own.
    case new
    /// The desktop's file dialog: each drawing chosen in a window of its own.
    case open
    /// The desktop's file dialog: the drawing saved under the name chosen, and edited there from then on.
    case saveAs
}

/// The keyboard map: which `KeyCommand` means which `KeyAction`.
public enum KeyMap {
    public static func action(for command: KeyCommand) -> KeyAction? {
        guard !command.alt else { return nil }
        return switch (command.normalizedKey, command.control, command.shift) {
        case ("z", true, false): .undo
        case ("z", true, true), ("y", true, _): .redo
        case ("Delete", false, _), ("KP_Delete", false, _): .deleteSelection
        case ("Delete", true, true), ("KP_Delete", true, true): .clearDrawing
        case ("Escape", _, _): .escape
        case ("Up", false, let shift), ("KP_Up", false, let shift): .arrow(.up, fine: shift)
        case ("Down", false, let shift), ("KP_Down", false, let shift): .arrow(.down, fine: shift)
        case ("Left", false, let shift), ("KP_Left", false, let shift): .arrow(.left, fine: shift)
        case ("Right", false, let shift), ("KP_Right", false, let shift): .arrow(.right, fine: shift)
        case ("Return", false, _), ("KP_Enter", false, _): .activateHighlighted
        case ("space", false, false): .keyboardStroke(.line)
        case ("space", false, true): .keyboardStroke(.circle)
        case ("Tab", false, false): .selectNext
        case ("Tab", false, true), ("ISO_Left_Tab", false, _): .selectPrevious
        case ("Menu", _, _), ("F10", false, true): .openSelectionMenu
        case ("o", false, _): .toggle(.circles)
        case ("a", false, _): .toggle(.colorByAngle)
        case ("w", false, _): .toggle(.widthBySpeed)
        case ("p", false, _): .toggle(.widthByPressure)
        case ("c", false, _): .openColorMenu
        case ("c", true, false), ("Insert", true, false), ("KP_Insert", true, false): .copy
        case ("v", true, false), ("Insert", false, true), ("KP_Insert", false, true): .paste
        case ("F2", false, false): .openSettingsMenu
        case ("s", true, false): .export
        case ("F1", false, false): .toggleInspector
        case ("plus", true, _), ("equal", true, _), ("KP_Add", true, _): .zoomIn
        case ("minus", true, _), ("KP_Subtract", true, _): .zoomOut
        case ("0", true, false), ("KP_0", true, false): .actualSize
        case ("j", true, true): .fitDrawing
        case ("n", true, false): .document(.new)
        case ("o", true, false): .document(.open)
        case ("s", true, true): .document(.saveAs)
        default: nil
        }
    }
}
