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

    public init(
        drawing: Drawing, selection: (kind: Shape.Kind, index: Int)?, menu: PopupMenu?, linesInProgress: Int,
        circlesInProgress: Int = 0
    ) {
        self.drawing = drawing
        selectedLine = selection?.kind == .line ? selection?.index : nil
        selectedCircle = selection?.kind == .circle ? selection?.index : nil
        self.menu = menu
        self.linesInProgress = linesInProgress
        self.circlesInProgress = circlesInProgress
    }

    /// UTF-8 JSON, one line per document line so diffs read well.
    public func encoded() -> [UInt8] {
        var document = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
        // Reuse the document's text and add the transient fields before its closing brace.
        // Exactly the final "}\n": the optional "options" object also ends in a brace.
        while document.last == "\n" { document.removeLast() }
        if document.last == "}" { document.removeLast() }
        var text = document
        text += ",\n \"selectedLine\": " + (selectedLine.map(String.init) ?? "null")
        if let selectedCircle { text += ",\n \"selectedCircle\": \(selectedCircle)" }
        if let menu {
            let items = menu.items.map { "\"" + escape($0.title) + "\"" }.joined(separator: ", ")
            var checked = ""
            if !menu.checkedItems.isEmpty {
                checked =
                    ", \"checked\": ["
                    + menu.checkedItems.map { "\"" + escape($0.title) + "\"" }.joined(separator: ", ")
                    + "]"
            }
            text +=
                ",\n \"menu\": {\"x\": \(number(menu.anchor.x)), \"y\": \(number(menu.anchor.y)), \"items\": [\(items)]"
                + checked + "}"
        } else {
            text += ",\n \"menu\": null"
        }
        text += ",\n \"linesInProgress\": \(linesInProgress)"
        if circlesInProgress > 0 { text += ",\n \"circlesInProgress\": \(circlesInProgress)" }
        text += "}\n"
        return Array(text.utf8)
    }

    /// Numbers exactly as the document writes them.
    private func number(_ value: Double) -> String {
        var bytes: [UInt8] = []
        DocumentCodec.appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default:
                if scalar.value < 0x20 {
                    result +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }
}
