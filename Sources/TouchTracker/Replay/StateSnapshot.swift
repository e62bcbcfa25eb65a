import JSON
import TouchKit

/// The state `replay --state` writes: the document plus transient state (DESIGN.md §3).
public struct StateSnapshot: Hashable, Sendable {
    public var drawing: Drawing
    public var selectedLine: Int?
    public var menu: PopupMenu?
    public var linesInProgress: Int
    /// The selected circle's index in `drawing.circles`; written only when a circle is selected.
    public var selectedCircle: Int?
    /// Visible two-finger circles being drawn; written only when there are some.
    public var circlesInProgress: Int
    /// The view over the drawing; written only when it is not 100 % at the origin.
    public var viewport: Viewport

    public init(
        drawing: Drawing, selection: (kind: Shape.Kind, index: Int)?, menu: PopupMenu?, linesInProgress: Int,
        circlesInProgress: Int = 0, viewport: Viewport = .actualSize
    ) {
        self.viewport = viewport
        self.drawing = drawing
        selectedLine = selection?.kind == .line ? selection?.index : nil
        selectedCircle = selection?.kind == .circle ? selection?.index : nil
        self.menu = menu
        self.linesInProgress = linesInProgress
        self.circlesInProgress = circlesInProgress
    }

    /// UTF-8 JSON: the document's text (one line per shape, so diffs read well) with the transient state added
    /// as members of the same object, one per line. Menu items by their English titles, whatever the locale.
    public func encoded() -> [UInt8] {
        DocumentCodec.encode(drawing) { out in
            out.raw(",\n \"selectedLine\": ")
            if let selectedLine { out.integer(selectedLine) } else { out.raw("null") }
            if let selectedCircle {
                out.raw(",\n \"selectedCircle\": ")
                out.integer(selectedCircle)
            }
            out.raw(",\n \"menu\": ")
            if let menu {
                out.raw("{\"x\": ")
                DocumentCodec.appendNumber(menu.anchor.x, to: &out)
                out.raw(", \"y\": ")
                DocumentCodec.appendNumber(menu.anchor.y, to: &out)
                out.raw(", \"items\": ")
                out.value(.array(menu.items.map { .string($0.title) }))
                if !menu.checkedItems.isEmpty {
                    out.raw(", \"checked\": ")
                    out.value(.array(menu.checkedItems.map { .string($0.title) }))
                }
                out.raw("}")
            } else {
                out.raw("null")
            }
            out.raw(",\n \"linesInProgress\": ")
            out.integer(linesInProgress)
            if circlesInProgress > 0 {
                out.raw(",\n \"circlesInProgress\": ")
                out.integer(circlesInProgress)
            }
            if viewport != .actualSize {
                out.raw(",\n \"view\": {\"zoom\": ")
                DocumentCodec.appendNumber(viewport.zoom, to: &out)
                out.raw(", \"x\": ")
                DocumentCodec.appendNumber(viewport.offset.x, to: &out)
                out.raw(", \"y\": ")
                DocumentCodec.appendNumber(viewport.offset.y, to: &out)
                out.raw("}")
            }
        }
    }
}
