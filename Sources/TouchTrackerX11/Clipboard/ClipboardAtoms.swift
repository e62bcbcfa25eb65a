import CX11
import TouchTracker
import TouchTrackerSession

/// The atoms the clipboard speaks (ICCCM §2.6, freedesktop's clipboard-manager spec), interned once.
struct ClipboardAtoms {
    let clipboard: Atom
    let targets: Atom
    let timestamp: Atom
    let multiple: Atom
    let atomPair: Atom
    let incr: Atom
    let png: Atom
    let document: Atom
    let utf8String: Atom
    let textPlain: Atom
    let textPlainUTF8: Atom
    let string: Atom
    let clipboardManager: Atom
    let saveTargets: Atom
    /// The type of an answer that carries no data (SAVE_TARGETS converted on the owner).
    let null: Atom
    /// The property of the window a clipboard manager's answer to SAVE_TARGETS goes to.
    let transfer: Atom
    /// The properties pastes use in turn (`ClipboardPaster`).
    let transferProperties: [Atom]

    init(display: X11Display) {
        clipboard = display.atom("CLIPBOARD")
        targets = display.atom("TARGETS")
        timestamp = display.atom("TIMESTAMP")
        multiple = display.atom("MULTIPLE")
        atomPair = display.atom("ATOM_PAIR")
        incr = display.atom("INCR")
        png = display.atom("image/png")
        document = display.atom(ClipboardShapes.documentType)
        utf8String = display.atom("UTF8_STRING")
        textPlain = display.atom("text/plain")
        textPlainUTF8 = display.atom("text/plain;charset=utf-8")
        string = XA_STRING
        clipboardManager = display.atom("CLIPBOARD_MANAGER")
        saveTargets = display.atom("SAVE_TARGETS")
        null = display.atom("NULL")
        transfer = display.atom("TOUCHTRACKER_CLIPBOARD")
        transferProperties = (1...4).map { display.atom("TOUCHTRACKER_PASTE_\($0)") }
    }

    /// The text targets: the document's JSON is plain ASCII, so it is valid as each of them.
    var textTargets: [Atom] { [utf8String, textPlainUTF8, textPlain, string] }

    /// Every target the owner converts to, in the order TARGETS lists them (best first).
    var offeredTargets: [Atom] { [targets, timestamp, multiple, saveTargets, document, png] + textTargets }

    /// Which encoding a data target is served from (`ClipboardOffer`'s MIME types, and X's own text atoms); nil
    /// for a target that is not data.
    func encoding(of target: Atom) -> ClipboardOffer.Encoding? {
        if target == utf8String || target == string { return .document }
        if target == document { return .document }
        if target == png { return .png }
        if target == textPlain || target == textPlainUTF8 { return .document }
        return nil
    }
}
