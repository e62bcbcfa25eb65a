import TouchTracker

/// The key help: every gesture and key, one key away (H) as a panel the window shows and a screen reader
/// reads (it takes the focus, named "Keys"), never spoken unasked. H shows and hides it; Escape hides it; any other
/// key hides it and does what it does.
struct KeyHelpPanel {
    private(set) var isShown = false

    /// Takes `command` when it is the panel's (true: the app does nothing else with it); hides the panel before any
    /// other key.
    mutating func handle(_ command: KeyCommand, action: KeyAction?) -> Bool {
        if command.key.lowercased() == "h", !command.control, !command.alt, !command.shift {
            isShown.toggle()
            return true
        }
        guard isShown else { return false }
        isShown = false
        return action == .escape
    }

    /// Shows the panel ("Keys" in the settings menu).
    mutating func show() {
        isShown = true
    }

    /// The panel's text in the user's language while shown.
    func text(_ translate: Translate) -> String? {
        isShown ? Message.drawingDescription.localized(translate) : nil
    }

    /// `overlay` with the panel shown in the hint's place: the help in the user's language, a clause a line (its
    /// semicolons, the Japanese and Arabic ones too, and its sentence ends become line breaks).
    func overlay(_ overlay: Overlay, translate: Translate) -> Overlay {
        guard let text = text(translate) else { return overlay }
        var overlay = overlay
        // Already translated: "{1}" itself has no translation, and the text goes in as it is.
        overlay.hint = Message("{1}", .literal(Self.lines(of: text).joined(separator: "\n")))
        overlay.hintOnPanel = true
        return overlay
    }

    /// `text` a clause a line: cut after its semicolons (the Japanese and Arabic ones too) and sentence ends, and a
    /// long clause after its commas too.
    static func lines(of text: String) -> [String] {
        func cut(_ text: Substring, after marks: String) -> [Substring] {
            var pieces: [Substring] = []
            var rest = text
            while let end = rest.firstIndex(where: { marks.contains($0) }) {
                pieces.append(rest[...end])
                rest = rest[rest.index(after: end)...].drop { $0 == " " }
            }
            return rest.isEmpty ? pieces : pieces + [rest]
        }
        return cut(Substring(text), after: ";；؛.。").flatMap { clause in
            clause.count > 60 ? cut(clause, after: ",、،") : [clause]
        }.map(String.init)
    }
}
