import TouchTracker

/// What a Ctrl+V found on the clipboard, whatever the platform that fetched it.
public enum PasteOutcome: Sendable {
    /// Shapes read from another program's (or window's) copy.
    case shapes([Shape])
    /// The window's own copy, taken directly (no encoding and decoding on the way).
    case ownCopy(DrawingSnapshot)
    /// No TouchTracker shapes on offer.
    case nothing
    /// A TouchTracker drawing that cannot be read, and why.
    case unreadable(String)

    /// The shapes in `bytes`, offered as `mimeType`: the document's own type that cannot be read is an error; text
    /// that is not a drawing is simply nothing to paste. Linear in the bytes (~50 ms at 100,000 lines): a platform
    /// calls it off the event loop.
    public static func decode(_ bytes: [UInt8], mimeType: String) -> PasteOutcome {
        do {
            return .shapes(try ClipboardShapes.shapes(fromDocument: bytes))
        } catch {
            return mimeType == ClipboardShapes.documentType ? .unreadable("\(error)") : .nothing
        }
    }
}
