import BackgroundWork
import Foundation
import Synchronization
import TouchTracker
import TouchTrackerRender

/// What the window offers on the clipboard after a Ctrl+C: the copied shapes, and their two encodings — the
/// document's JSON (also served as text) and the PNG — each made on a thread of its own the first time someone
/// asks for it, then kept. The PNG strokes every shape (seconds at 100,000 lines) and the JSON takes ~80 ms
/// there: neither may run on the event loop, which is woken when one is ready.
public final class ClipboardOffer: Sendable {
    public enum Encoding: Sendable {
        /// `application/x-touchtracker+json`, and the text types.
        case document
        /// `image/png`.
        case png

        /// The encoding that serves `mimeType`, or nil for a type that is not offered.
        public init?(mimeType: String) {
            if mimeType == ClipboardShapes.documentType || ClipboardOffer.textTypes.contains(mimeType) {
                self = .document
            } else if mimeType == "image/png" {
                self = .png
            } else {
                return nil
            }
        }
    }

    /// The MIME types a copy is offered as, best first: the document's own type, the picture, then the
    /// document's text as plain text (it is plain ASCII JSON, so valid as either). A platform adds its own names
    /// for text (X11's `UTF8_STRING`, `STRING`) served as `.document`.
    public static let mimeTypes = [ClipboardShapes.documentType, "image/png"] + textTypes
    /// The plain-text MIME types.
    public static let textTypes = ["text/plain;charset=utf-8", "text/plain"]

    public enum Bytes: Sendable {
        case ready([UInt8])
        /// The encoding failed (Cairo could not make the image): requests for it are refused.
        case failed(String)
    }

    public let shapes: ClipboardShapes
    private let lineWidth: Double
    private let wakeUp: @Sendable () -> Void
    private let state = Mutex<[Encoding: Bytes?]>([:])

    public init(_ shapes: ClipboardShapes, lineWidth: Double, wakeUp: @escaping @Sendable () -> Void) {
        self.shapes = shapes
        self.lineWidth = lineWidth
        self.wakeUp = wakeUp
    }

    /// The encoding's bytes if made; else starts making them (once) and returns nil — the loop is woken when they
    /// are ready.
    public func bytes(_ encoding: Encoding) -> Bytes? {
        let (bytes, start) = state.withLock { state -> (Bytes?, Bool) in
            if let entry = state[encoding] { return (entry, false) }
            state[encoding] = .some(nil)
            return (nil, true)
        }
        if start { encode(encoding) }
        return bytes
    }

    /// Whether some encoding has been asked for and is still being made.
    public var isEncoding: Bool {
        state.withLock { state in state.values.contains { $0 == nil } }
    }

    private func encode(_ encoding: Encoding) {
        let shapes = shapes
        let lineWidth = lineWidth
        Worker.run("clipboard \(encoding)", wakeUp: wakeUp) { [self] in
            let bytes: Bytes
            switch encoding {
            case .document:
                bytes = .ready(shapes.documentBytes())
            case .png:
                do {
                    bytes = .ready(try ClipboardImage.png(of: shapes.snapshot.drawing, lineWidth: lineWidth))
                } catch {
                    bytes = .failed("\(error)")
                }
            }
            state.withLock { $0[encoding] = .some(bytes) }
        }
    }
}
