import Dispatch
import Foundation
import Synchronization
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore

/// A save whose look at the document hangs (a stalled network mount: the file-system call injected here, since a
/// real hung mount cannot be made in a test) holds up the writer's thread only: the event loop's calls into the
/// writer (a submit after every edit, the status before every frame) go on.
@Suite struct HungFileSystemTests {
    @Test("while a save's look at the document hangs, the loop's submits and status reads still return")
    func loopIsNotHeldByAHungLook() throws {
        let folder = NSTemporaryDirectory() + "touchtracker-hung-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let looking = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let hung = Mutex(true)
        let writer = DocumentWriter(
            store: DocumentStore(path: folder + "/drawing.json"),
            identityOf: { path in
                if hung.withLock({ $0 }) {
                    looking.signal()
                    release.wait()
                }
                return FileIdentity.of(path: path)
            })
        writer.guardOutsideChanges(current: nil)
        let line = Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 10))
        writer.submit(DrawingSnapshot(Drawing(lines: [line])))
        #expect(looking.wait(timeout: .now() + 10) == .success, "the save never looked at the document")
        // The writer's thread is stuck in its look now. The loop's own calls, on another thread, must come back.
        let loopDone = DispatchSemaphore(value: 0)
        let frames = Mutex(0)
        Thread {
            for count in 1...100 {
                writer.submit(DrawingSnapshot(Drawing(lines: Array(repeating: line, count: count))))
                _ = writer.status
                frames.withLock { $0 += 1 }
            }
            loopDone.signal()
        }.start()
        let returned = loopDone.wait(timeout: .now() + 10) == .success
        hung.withLock { $0 = false }
        release.signal()
        #expect(returned, "the loop's calls waited for the hung look (\(frames.withLock { $0 }) of 100 frames)")
        #expect(writer.flush() == nil)
        #expect(try DocumentStore(path: folder + "/drawing.json").load().lines.count == 100)
        writer.stop()
    }

    @Test("stopping the writer returns only once the save in hand has landed")
    func stopWaitsForTheSaveInHand() throws {
        let folder = NSTemporaryDirectory() + "touchtracker-stop-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let looking = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(
            store: store,
            identityOf: { path in
                looking.signal()
                release.wait()
                return FileIdentity.of(path: path)
            })
        writer.guardOutsideChanges(current: nil)
        writer.submit(DrawingSnapshot(Drawing(lines: [Line(begin: Point(x: 0, y: 0), end: Point(x: 10, y: 10))])))
        #expect(looking.wait(timeout: .now() + 10) == .success, "the save never looked at the document")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { release.signal() }
        writer.stop()
        #expect(FileManager.default.fileExists(atPath: store.path), "stop returned before the save in hand landed")
    }
}
