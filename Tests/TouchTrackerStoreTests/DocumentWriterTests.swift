import Foundation
import Synchronization
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore

/// The background writer: the event loop hands it snapshots and never waits; the newest always wins; a failed save
/// is kept and retried until it reaches the disk.
@Suite final class DocumentWriterTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "touchtracker-writer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    static func lines(_ count: Int, offset: Double = 0) -> [Line] {
        (0..<count).map { i in
            Line(begin: Point(x: Double(i % 1000), y: offset), end: Point(x: Double(i % 1000) + 50, y: offset + 20))
        }
    }

    @Test("snapshots handed over while a large save runs are coalesced: the file ends with the newest, in fewer saves")
    func newestWinsAndSavesCoalesce() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        // A real 100,000-line drawing takes tens of milliseconds to save: the later submits arrive meanwhile. The
        // snapshots are made first, so the submits follow each other within microseconds, however slow the
        // machine (in a debug build under load, making one takes longer than the writer takes to save one).
        let base = Self.lines(100_000)
        let snapshots = (0...20).map { extra in DrawingSnapshot(Drawing(lines: base + Self.lines(extra, offset: 500))) }
        for snapshot in snapshots { writer.submit(snapshot) }
        #expect(writer.flush() == nil)
        #expect(try store.load().lines.count == 100_020)
        #expect(writer.status.savesCompleted < 21)
        #expect(!writer.status.hasUnsavedChanges)
    }

    @Test("flush returns once the newest snapshot is on disk, with the file's mode 0600")
    func flushWaitsForTheDisk() throws {
        let store = DocumentStore(path: folder + "/sub/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        writer.submit(DrawingSnapshot(Drawing(lines: Self.lines(3))))
        #expect(writer.flush() == nil)
        #expect(try store.load().lines == Self.lines(3))
        let mode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("a save that fails keeps the drawing and saves it by itself once the cause is gone, without a new edit")
    func failedSaveIsRetried() async throws {
        // The document's folder is a file: no save can succeed until it is removed.
        let blocker = folder + "/blocked"
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("not a folder".utf8)))
        let store = DocumentStore(path: blocker + "/drawing.json")
        let messages = Messages()
        let writer = DocumentWriter(store: store, log: { messages.append($0) })
        defer { writer.stop() }
        writer.submit(DrawingSnapshot(Drawing(lines: Self.lines(5))))
        let failure = writer.flush()
        #expect(failure != nil)
        #expect(writer.status.failure != nil && writer.status.hasUnsavedChanges)
        try FileManager.default.removeItem(atPath: blocker)
        let deadline = ContinuousClock.now + .seconds(10)
        while writer.status.hasUnsavedChanges, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try store.load().lines == Self.lines(5))
        #expect(writer.status.failure == nil)
        let logged = messages.lines
        #expect(logged.filter { $0.hasPrefix("cannot save the drawing") }.count == 1, "\(logged)")
        #expect(logged.contains { $0.hasPrefix("saved \(store.path) after") }, "\(logged)")
    }
}

/// Lines logged from the writer's thread.
final class Messages: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var lines: [String] { storage.withLock { $0 } }
}

/// The writer never replaces a version of the document another program put there before the app has seen it.
@Suite final class OutsideChangeTests {
    let folder = NSTemporaryDirectory() + "touchtracker-outside-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    let mine = Drawing(lines: [Line(begin: Point(x: 1, y: 2), end: Point(x: 30, y: 40))])
    let theirs = Drawing(lines: [Line(begin: Point(x: 5, y: 5), end: Point(x: 9, y: 9))] * 2)

    @Test("the writer knows its own saves from a version another program wrote, even with the same bytes")
    func ownSavesAreKnown() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        writer.submit(DrawingSnapshot(mine))
        #expect(writer.flush() == nil)
        #expect(writer.wroteVersion(try #require(FileIdentity.of(path: store.path))))
        try AtomicFile.write(DocumentCodec.encode(mine), to: store.path)
        #expect(!writer.wroteVersion(try #require(FileIdentity.of(path: store.path))))
    }

    @Test("a save does not replace another program's version until it is acknowledged, then does")
    func outsideVersionIsKeptUntilSeen() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        writer.guardOutsideChanges(current: nil)
        writer.submit(DrawingSnapshot(mine))
        #expect(writer.flush() == nil)
        try AtomicFile.write(DocumentCodec.encode(theirs), to: store.path)
        writer.submit(DrawingSnapshot(mine))
        #expect(writer.flush() != nil)
        #expect(try store.load() == theirs)
        #expect(writer.status.failureReason == DocumentWriter.changedOnDiskProblem)
        writer.acknowledge(try #require(FileIdentity.of(path: store.path)))
        #expect(writer.flush() == nil)
        #expect(try store.load() == mine)
    }

    @Test("a save held back from another program's version says the reason it was given")
    func heldBackVersionSaysWhy() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        writer.guardOutsideChanges(current: nil)
        try AtomicFile.write(Array("not a drawing".utf8), to: store.path)
        let unreadable = try #require(FileIdentity.of(path: store.path))
        #expect(writer.holdBack(unreadable, because: "it is kept until copied"))
        #expect(!writer.holdBack(unreadable, because: "it is kept until copied"), "held back already")
        writer.submit(DrawingSnapshot(mine))
        #expect(writer.flush() != nil)
        #expect(writer.status.failureReason == "it is kept until copied")
    }

    @Test("once guarding stops, a save replaces another program's version")
    func stoppedGuardSaves() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        writer.guardOutsideChanges(current: nil)
        try AtomicFile.write(DocumentCodec.encode(theirs), to: store.path)
        writer.submit(DrawingSnapshot(mine))
        #expect(writer.flush() != nil)
        writer.stopGuardingOutsideChanges()
        #expect(writer.flush() == nil)
        #expect(try store.load() == mine)
    }

    @Test("a document deleted from under the app is written again at the next save")
    func deletedDocumentIsWrittenAgain() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let writer = DocumentWriter(store: store)
        defer { writer.stop() }
        writer.guardOutsideChanges(current: nil)
        writer.submit(DrawingSnapshot(theirs))
        #expect(writer.flush() == nil)
        try FileManager.default.removeItem(atPath: store.path)
        writer.submit(DrawingSnapshot(mine))
        #expect(writer.flush() == nil)
        #expect(try store.load() == mine)
    }
}

extension Array {
    fileprivate static func * (lhs: Array, rhs: Int) -> Array { (0..<rhs).flatMap { _ in lhs } }
}
