import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

/// A drawing at the most a document may hold, in the real window: what the app can draw it can open again.
@Suite("Full drawing")
struct FullDrawingTests {
    @Test(
        """
        a line drawn on a drawing that holds 1,000,000 lines is refused with a notice, and the document saved at \
        exit still holds 1,000,000 lines and opens
        """)
    func lineOnFullDrawingIsRefused() async throws {
        let folder = try makeTemporaryFolder("touchtracker-full")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Short lines in the window's top rows, so the notice's place stays white.
        let limit = DocumentCodec.maximumLineCount
        let drawing = Drawing(
            lines: (0..<limit).map { index in
                let x = Double(index % 600) + 20
                let y = Double(index / 600 % 150) + 20
                return Line(begin: Point(x: x, y: y), end: Point(x: x + 3, y: y + 2))
            })
        let session = try await AppSession.launch(readyTimeout: .seconds(60), drawing: drawing, folder: folder)
        defer { session.stop() }
        try await session.app.waitForStderrLine(containing: "document read: \(limit) lines", timeout: .seconds(120))
        let touch = try session.server.touch
        try touch.touchBegin(id: 1, x: session.root(100, 300).x, y: session.root(100, 300).y)
        try touch.touchUpdate(id: 1, x: session.root(300, 300).x, y: session.root(300, 300).y)
        try touch.touchEnd(id: 1, x: session.root(500, 300).x, y: session.root(500, 300).y)
        try touch.sync()
        // The notice shows for two seconds; the log says when it was shown, however busy the machine is.
        try await session.app.waitForStderrLine(
            containing: "notice shown: The drawing is full: at most 1,000,000 lines", timeout: .seconds(60))
        #expect(try await session.app.terminate(timeout: .seconds(60)) == 0)
        let saved = try DocumentStore(path: session.document.path).load()
        #expect(saved.lines.count == limit)
    }
}
