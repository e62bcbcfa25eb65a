import TouchKit

/// Ctrl+C and Ctrl+V: what is copied, and where and how a paste lands.
extension DrawingController {
    // MARK: Clipboard

    /// What Ctrl+C copies: the selected shape, or the whole drawing when nothing is selected (nil when empty).
    /// Constant time: the whole drawing is a snapshot sharing the live storage.
    public func clipboardShapes() -> ClipboardShapes? {
        if let shape = drawingView.selectedShape {
            let drawing: Drawing
            switch shape {
            case .line(let line): drawing = Drawing(lines: [line], options: drawingView.options)
            case .circle(let circle): drawing = Drawing(circles: [circle], options: drawingView.options)
            }
            return ClipboardShapes(snapshot: DrawingSnapshot(drawing), isSelection: true)
        }
        guard !drawingView.shapes.isEmpty else { return nil }
        return ClipboardShapes(snapshot: drawingView.snapshot, isSelection: false)
    }

    /// Ctrl+V's shapes arrived: they go into the drawing as one undoable edit, centred on `point` (the pointer),
    /// on top of everything, and the notice says how many. An empty paste says there was nothing to paste; a paste
    /// that would make the drawing hold more lines or circles than `limits` allow is refused whole, before anything
    /// changes, and the notice says so. Linear in the shapes: a platform prepares a paste of more than `largePaste`
    /// shapes on another thread (`placedForPaste`, `PreparedPaste`, `paste(_:)`).
    public func paste(_ shapes: [Shape], at point: Point) {
        guard !shapes.isEmpty else {
            showNotice(.nothingToPaste)
            return
        }
        if let kind = drawingView.kindOverLimit(adding: shapes) {
            showNotice(.pasteTooLarge(kind, limit: limits[kind]))
            return
        }
        endDrag()
        closeMenu()
        drawingView.add(placedForPaste(shapes, at: point))
        showNotice(.pasted(count: shapes.count))
    }

    /// More shapes than this are pasted through a `PreparedPaste` made off the event loop (about 1 ms of work).
    public static let largePaste = 1024

    /// `shapes` moved so they are centred on `point`, as a paste puts them.
    public func placedForPaste(_ shapes: [Shape], at point: Point) -> [Shape] {
        ClipboardShapes.placed(shapes, centredOn: point, defaultWidth: drawingView.lineWidth)
    }

    /// Puts a paste prepared off the event loop on top of the drawing (one undoable edit, constant time) and says
    /// so. True when the paste is done with: pasted, or refused whole because the drawing as it is now would then
    /// hold more lines or circles than `limits` allow (the notice says so and nothing changes), so a caller that
    /// prepares the paste again on false never retries one that cannot fit. False, changing nothing, when the
    /// drawing changed (or a drag is under way) since it was prepared: prepare it again on the drawing as it is now.
    public func paste(_ prepared: PreparedPaste) -> Bool {
        if let kind = drawingView.kindOverLimit(adding: prepared) {
            showNotice(.pasteTooLarge(kind, limit: limits[kind]))
            return true
        }
        guard drawingView.paste(prepared) else { return false }
        closeMenu()
        showNotice(.pasted(count: prepared.shapes.count))
        return true
    }
}
