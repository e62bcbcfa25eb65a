import Foundation
import Testing
import TouchTrackerStore

/// The watch follows the document: to its target's folder through a link, and back to its folder's place once a
/// folder that was deleted or renamed away is there again.
@Suite final class WatchedFolderTests {
    /// Holds the document's folder (and where it is moved to), so removing it cleans up everything.
    let base: String
    var folder: String { base + "/docs" }
    var document: String { folder + "/drawing.json" }

    init() throws {
        base = try FileProbe.makeTemporaryFolder("watchfolder")
        try FileManager.default.createDirectory(atPath: base + "/docs", withIntermediateDirectories: true)
        try FileProbe.create(base + "/docs/drawing.json", "{}")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: base)
    }

    /// A watcher on `path` that counts its reports, and its rewatches with the number of reports made by then.
    struct Watch {
        let watcher: DocumentWatcher
        let changes: SharedCount
        let rewatches: SharedCount
        let changesAtRewatch: SharedCount
    }

    func watch(_ path: String) throws -> Watch {
        let changes = SharedCount()
        let rewatches = SharedCount()
        let changesAtRewatch = SharedCount()
        let watcher = try DocumentWatcher(
            documentPath: path,
            onRewatch: {
                changesAtRewatch.set(changes.current)
                rewatches.add()
            },
            onChange: {
                changes.add()
                return .done
            })
        return Watch(
            watcher: watcher, changes: changes, rewatches: rewatches, changesAtRewatch: changesAtRewatch)
    }

    /// Waits for the watcher to see the folder back at its place and to make the report that comes with that, so a
    /// report after this is one of a later change.
    func watchedAgain(_ watch: Watch) async throws -> Bool {
        try await FileProbe.eventually {
            watch.rewatches.current >= 1 && watch.changes.current > watch.changesAtRewatch.current
        }
    }

    /// Takes the document's folder away (`takeAway`: deleted or renamed), waits until that is reported, makes a new
    /// folder at its place and waits until the watcher watches it (`watchedAgain`).
    func replaceFolder(
        _ watch: Watch, takenAway what: Comment, by takeAway: () throws -> Void
    ) async throws {
        try takeAway()
        try #require(try await FileProbe.eventually { watch.changes.current >= 1 }, what)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try #require(try await watchedAgain(watch), "the new folder is watched")
    }

    @Test("a document written in its folder made again after the folder was deleted is reported")
    func deletedFolderIsWatchedAgain() async throws {
        let watch = try watch(document)
        defer { watch.watcher.stop() }
        try await replaceFolder(watch, takenAway: "the folder's removal is reported") {
            try FileManager.default.removeItem(atPath: folder)
        }
        let before = watch.changes.current
        try AtomicFile.write(Array("{}".utf8), to: document)
        #expect(try await FileProbe.eventually { watch.changes.current > before })
    }

    @Test("a document written in a new folder at the place of one renamed away is reported")
    func renamedFolderIsWatchedAgainAtItsPlace() async throws {
        let watch = try watch(document)
        defer { watch.watcher.stop() }
        try await replaceFolder(watch, takenAway: "the folder's move is reported") {
            try #require(rename(folder, base + "/moved") == 0)
        }
        let before = watch.changes.current
        try AtomicFile.write(Array("{}".utf8), to: document)
        #expect(try await FileProbe.eventually { watch.changes.current > before })
    }

    @Test("a change to the folder renamed away is no longer reported once a new folder is at its place")
    func renamedFolderIsLeft() async throws {
        let watch = try watch(document)
        defer { watch.watcher.stop() }
        try await replaceFolder(watch, takenAway: "the folder's move is reported") {
            try #require(rename(folder, base + "/moved") == 0)
        }
        let before = watch.changes.current
        try AtomicFile.write(Array("{}".utf8), to: base + "/moved/drawing.json")
        try await Task.sleep(for: .milliseconds(400))
        #expect(watch.changes.current == before)
    }

    @Test("a folder further up renamed is reported, and the document's place is watched again once a folder is there")
    func renamedAncestorIsNoticed() async throws {
        let deep = base + "/x/a/b"
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        try FileProbe.create(deep + "/drawing.json", "{}")
        let watch = try watch(deep + "/drawing.json")
        defer { watch.watcher.stop() }
        // No event reaches the watches: neither the folder nor its parent moved within its own folder.
        try #require(rename(base + "/x", base + "/y") == 0)
        #expect(try await FileProbe.eventually { watch.changes.current >= 1 })
        try FileManager.default.createDirectory(atPath: deep, withIntermediateDirectories: true)
        #expect(try await watchedAgain(watch))
        let before = watch.changes.current
        try AtomicFile.write(Array("{}".utf8), to: deep + "/drawing.json")
        #expect(try await FileProbe.eventually { watch.changes.current > before })
    }

    @Test("a document that is a link pointed at another file is reported, and that file is watched from then on")
    func repointedLinkIsFollowed() async throws {
        try FileProbe.create(folder + "/other.json", "{}")
        let link = base + "/drawing-link.json"
        try FileProbe.link(link, to: "docs/drawing.json")
        let watch = try watch(link)
        defer { watch.watcher.stop() }
        try #require(unlink(link) == 0)
        try FileProbe.link(link, to: "docs/other.json")
        #expect(try await watchedAgain(watch))
        let before = watch.changes.current
        try AtomicFile.write(Array("{\"version\": 1}".utf8), to: folder + "/other.json")
        #expect(try await FileProbe.eventually { watch.changes.current > before })
    }

    @Test("a document reached through a symlink is watched in its target's folder")
    func linkedDocumentIsWatchedAtItsTarget() async throws {
        try FileManager.default.createDirectory(atPath: base + "/links", withIntermediateDirectories: false)
        try FileProbe.link(base + "/links/drawing.json", to: "../docs/drawing.json")
        let watch = try watch(base + "/links/drawing.json")
        defer { watch.watcher.stop() }
        try AtomicFile.write(Array("{\"version\": 1}".utf8), to: document)
        #expect(try await FileProbe.eventually { watch.changes.current >= 1 })
    }
}
