import Foundation
import Testing
import TouchKit
import TouchTracker

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
