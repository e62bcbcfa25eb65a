import Foundation
import Synchronization
import Testing
import TouchTracker

@testable import TouchTrackerStore

/// Changes to the document by anyone are reported, in bursts, and nothing else is.
@Suite final class DocumentWatcherTests {
    let folder = NSTemporaryDirectory() + "touchtracker-watch-\(UUID().uuidString)"
    var document: String { folder + "/drawing.json" }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/drawing.json"))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Reports counted from the watcher's thread.
    final class Counter: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        func withLock<T>(_ body: (inout Int) -> T) -> T { value.withLock { body(&$0) } }
    }

    /// A watcher on the document and the number of reports it made so far.
    private func watch(reportAtStart: Bool = false) throws -> (DocumentWatcher, Counter) {
        let count = Counter()
        let watcher = try DocumentWatcher(documentPath: document, reportAtStart: reportAtStart) {
            count.add()
            return .done
        }
        return (watcher, count)
    }

    /// Waits up to 5 s for at least one report.
    private func reported(_ count: Counter) async throws -> Bool {
        for _ in 0..<100 {
            if count.withLock({ $0 }) > 0 { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("a watcher asked for a first look reports once as it starts, with nothing changed, and then not again")
    func firstLookIsReportedOnce() async throws {
        let (watcher, count) = try watch(reportAtStart: true)
        defer { watcher.stop() }
        #expect(try await reported(count))
        try await Task.sleep(for: .milliseconds(400))
        #expect(count.withLock { $0 } == 1)
    }

    @Test("a watcher not asked for a first look reports nothing while nothing changes")
    func noFirstLookReportsNothing() async throws {
        let (watcher, count) = try watch()
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(400))
        #expect(count.withLock { $0 } == 0)
    }

    @Test("a document replaced atomically (a temporary file renamed over it) is reported")
    func atomicReplaceIsReported() async throws {
        let (watcher, count) = try watch()
        defer { watcher.stop() }
        try AtomicFile.write(Array("{\"version\": 1}".utf8), to: document)
        #expect(try await reported(count))
    }

    @Test("a document rewritten in place is reported")
    func rewriteIsReported() async throws {
        let (watcher, count) = try watch()
        defer { watcher.stop() }
        let handle = try #require(FileHandle(forWritingAtPath: document))
        handle.write(Data("{ }".utf8))
        try handle.close()
        #expect(try await reported(count))
    }

    @Test("a deleted document is reported")
    func deleteIsReported() async throws {
        let (watcher, count) = try watch()
        defer { watcher.stop() }
        try FileManager.default.removeItem(atPath: document)
        #expect(try await reported(count))
    }

    @Test("a burst of 50 rewrites is reported once or a few times, not 50")
    func burstIsReportedOnce() async throws {
        let (watcher, count) = try watch()
        defer { watcher.stop() }
        for index in 0..<50 { try AtomicFile.write(Array("{\"n\": \(index)}".utf8), to: document) }
        #expect(try await reported(count))
        try await Task.sleep(for: .milliseconds(300))
        #expect(count.withLock { $0 } <= 5)
    }

    @Test("a change to another file in the folder is not reported")
    func otherFilesAreIgnored() async throws {
        let (watcher, count) = try watch()
        defer { watcher.stop() }
        try AtomicFile.write(Array("x".utf8), to: folder + "/drawing.window.json")
        try Data("y".utf8).write(to: URL(fileURLWithPath: folder + "/drawing.json.lock"))
        try await Task.sleep(for: .milliseconds(500))
        #expect(count.withLock { $0 } == 0)
    }

    @Test("a report that asks to look again is followed by another after that time, with nothing changed")
    func lookAgainReportsAgain() async throws {
        let count = Counter()
        let watcher = try DocumentWatcher(documentPath: document, reportAtStart: true) {
            count.add()
            return count.withLock { $0 } < 3 ? .again(after: 0.1) : .done
        }
        defer { watcher.stop() }
        try await Task.sleep(for: .milliseconds(1_000))
        #expect(count.withLock { $0 } == 3)
    }

    @Test("inotify's limits are named as the system's, not as a full disk", arguments: [ENOSPC, EMFILE])
    func watchLimitsAreNamed(code: Int32) {
        let problem = DocumentWatcher.describeWatchFailure(errno: code)
        #expect(problem.contains("fs.inotify.max_user_") && !problem.contains("disk"))
    }

    @Test("after stop no report comes")
    func stopEndsReports() async throws {
        let (watcher, count) = try watch()
        watcher.stop()
        try AtomicFile.write(Array("{}".utf8), to: document)
        try await Task.sleep(for: .milliseconds(400))
        #expect(count.withLock { $0 } == 0)
    }
}
