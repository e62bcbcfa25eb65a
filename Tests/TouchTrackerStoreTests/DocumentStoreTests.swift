import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore

/// Each test gets its own folder (a new instance per test), removed when the test ends.
@Suite final class DocumentStoreTests {
    let folder = NSTemporaryDirectory() + "touchtracker-store-\(UUID().uuidString)"

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    var drawing: Drawing { Drawing(lines: [Line(begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))]) }

    @Test("a missing document loads as an empty drawing")
    func missingIsEmpty() throws {
        #expect(try DocumentStore(path: folder + "/none.json").load() == Drawing())
    }

    @Test("a saved drawing loads back the same")
    func saveThenLoad() throws {
        let store = DocumentStore(path: folder + "/a/b/drawing.json")
        try store.save(drawing)
        #expect(try store.load() == drawing)
    }

    @Test("a document opened for editing says which version of the file it read, and none when there was none")
    func openedDocumentKnowsItsVersion() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        #expect(store.openForEditing(stamp: "20260102-030405").version == nil)
        try store.save(drawing)
        let opened = store.openForEditing(stamp: "20260102-030405")
        #expect(opened.drawing == drawing)
        #expect(opened.version != nil && opened.version == FileIdentity.of(path: store.path))
        // Another version (a new file renamed over it) is not the one read.
        try store.save(drawing)
        #expect(opened.version != FileIdentity.of(path: store.path))
    }

    @Test("a large drawing, its text encoded side by side, is saved as exactly the text of the drawing")
    func largeSaveIsTheDrawingsText() throws {
        let lines = (0..<10_000).map { index in
            Line(begin: Point(x: Double(index) / 7, y: 3), end: Point(x: 5, y: Double(index) / 3))
        }
        let large = Drawing(lines: lines)
        let store = DocumentStore(path: folder + "/large.json")
        let encoding = ParallelEncoding()
        defer { encoding.stop() }
        try store.save(large, encoding: encoding)
        let written = try Data(contentsOf: URL(fileURLWithPath: folder + "/large.json"))
        #expect(Array(written) == DocumentCodec.encode(large))
        #expect(try store.load() == large)
    }

    @Test("a save's encoding jobs run side by side come back in their order, slow ones included")
    func parallelEncodingKeepsOrder() {
        let jobs: [@Sendable () -> [UInt8]] = (0..<9).map { index in
            {
                // Every third job takes a while, so the helpers and the saving thread finish out of order.
                if index % 3 == 1 { usleep(20_000) }
                return [UInt8(index)]
            }
        }
        let encoding = ParallelEncoding()
        defer { encoding.stop() }
        #expect(encoding.run(jobs) == (0..<9).map { [UInt8($0)] })
    }

    @Test("saving creates a private folder and a private file")
    func permissions() throws {
        let store = DocumentStore(path: folder + "/private/drawing.json")
        try store.save(drawing)
        let folderMode =
            try FileManager.default.attributesOfItem(atPath: folder + "/private")[.posixPermissions] as? Int
        let fileMode = try FileManager.default.attributesOfItem(atPath: store.path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test("saving leaves no temporary file behind")
    func noTemporaryLeft() throws {
        let store = DocumentStore(path: folder + "/clean/drawing.json")
        try store.save(drawing)
        try store.save(Drawing())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/clean") == ["drawing.json"])
    }

    @Test("a streamed write that fails halfway leaves the old file as it was and no temporary file")
    func failedStreamedWriteKeepsTheOldFile() throws {
        let store = DocumentStore(path: folder + "/streamed/drawing.json")
        try store.save(drawing)
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(throws: DocumentFileError.self) {
            try AtomicFile.write(to: store.path) { (file: borrowing AtomicFile.Output) throws(DocumentFileError) in
                try file.write(Array(repeating: UInt8(ascii: "x"), count: 1 << 20))
                throw DocumentFileError(path: store.path, problem: "the producer gave up")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/streamed") == ["drawing.json"])
    }

    @Test("a large drawing saved in chunks reads back the same")
    func chunkedSaveOfALargeDrawing() throws {
        let lines = (0..<20_000).map { i in
            Line(begin: Point(x: Double(i) / 7, y: Double(i % 300) * 1.25), end: Point(x: -Double(i), y: 0.1))
        }
        let large = Drawing(lines: lines, circles: [], options: DrawingOptions(colorByAngle: true))
        let store = DocumentStore(path: folder + "/large/drawing.json")
        try store.save(large)
        #expect(try store.load() == large)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == Data(DocumentCodec.encode(large)))
    }

    @Test("a corrupt document is an error naming the file, and the file is left as it was")
    func corruptLeftAlone() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/bad.json"
        try Data("{\"version\": 1, \"lines\": [".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try DocumentStore(path: path).load()
        } throws: { error in
            (error as? DocumentFileError)?.description.hasPrefix(path) == true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("{\"version\": 1, \"lines\": [".utf8))
    }

    @Test("a corrupt document is copied aside with a time stamp, byte for byte")
    func copyAside() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/bad.json"
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: path))
        let copy = try DocumentStore(path: path).copyAside(stamp: "20261121-120000")
        #expect(copy == path + ".corrupt-20261121-120000")
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data("garbage".utf8))
    }

    @Test("a directory in the document's place is an error, not a crash")
    func directoryInPlace() throws {
        try FileManager.default.createDirectory(atPath: folder + "/dir.json", withIntermediateDirectories: true)
        #expect(throws: DocumentFileError.self) { try DocumentStore(path: folder + "/dir.json").load() }
    }
}
