import Foundation
import Testing

@testable import TouchTrackerStore

/// The desktop's recent files: a drawing recorded where GTK reads it, beside other programs' entries, and a file
/// GLib cannot parse never replaced.
@Suite final class RecentFilesTests {
    let folder: String
    let recent: RecentFiles

    /// An entry another program (gedit) made, as GTK writes it.
    static let otherProgramsFile = """
        <?xml version="1.0" encoding="UTF-8"?>
        <xbel version="1.0"
              xmlns:bookmark="http://www.freedesktop.org/standards/desktop-bookmarks"
              xmlns:mime="http://www.freedesktop.org/standards/shared-mime-info"
        >
          <bookmark href="file:///home/someone/notes.txt" added="2026-11-01T10:00:00.000000Z" \
        modified="2026-11-01T10:00:00.000000Z" visited="2026-11-01T10:00:00.000000Z">
            <info>
              <metadata owner="http://freedesktop.org">
                <mime:mime-type type="text/plain"/>
                <bookmark:applications>
                  <bookmark:application name="gedit" exec="&apos;gedit %u&apos;" \
        modified="2026-11-01T10:00:00.000000Z" count="1"/>
                </bookmark:applications>
              </metadata>
            </info>
          </bookmark>
        </xbel>

        """

    init() throws {
        folder = try FileProbe.makeTemporaryFolder("recent")
        recent = RecentFiles(path: folder + "/share/recently-used.xbel")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The bookmark file as GLib reads it back.
    func parsed() throws -> BookmarkFile {
        try BookmarkFile(parsing: try #require(FileProbe.contents(recent.path)), path: recent.path)
    }

    @Test("a drawing is recorded with its file URI, its type and this app, in a data folder made for it")
    func recordsADrawing() throws {
        try FileProbe.create(folder + "/sketch.touchtracker", "{}")
        try recent.record(folder + "/sketch.touchtracker")
        let bookmarks = try parsed()
        let uri = "file://" + folder + "/sketch.touchtracker"
        #expect(bookmarks.uris == [uri])
        #expect(bookmarks.mimeType(of: uri) == "application/x-touchtracker+json")
        #expect(bookmarks.applications(of: uri) == ["touchtracker"])
        #expect(FileProbe.mode(folder + "/share").map { $0 & 0o777 } == 0o700)
        #expect(FileProbe.text(recent.path)?.contains("exec=\"&apos;touchtracker %f&apos;\"") == true)
    }

    @Test("an odd name is percent-encoded byte for byte, its `..` resolved")
    func oddNames() throws {
        // A Latin-1 é (one byte, not UTF-8), a space, a percent sign and a hash.
        let name = "caf" + PathText.decode([0xE9]) + " 50% #1.touchtracker"
        try recent.record(folder + "/share/../" + name)
        #expect(try parsed().uris == ["file://" + folder + "/caf%E9%2050%25%20%231.touchtracker"])
    }

    @Test(
        "a .json drawing is application/json, every other the drawing type",
        arguments: [
            ("a.json", "application/json"), ("b.JSON", "application/json"),
            ("c.touchtracker", "application/x-touchtracker+json"), ("d", "application/x-touchtracker+json"),
        ])
    func mimeTypes(name: String, type: String) {
        #expect(RecentFiles.mimeType(of: "/x/" + name) == type)
    }

    @Test("another program's entries survive, and a drawing recorded twice is one entry")
    func keepsOtherEntries() throws {
        try FileManager.default.createDirectory(atPath: folder + "/share", withIntermediateDirectories: true)
        try FileProbe.create(recent.path, Self.otherProgramsFile)
        try recent.record(folder + "/a.json")
        try recent.record(folder + "/a.json")
        let bookmarks = try parsed()
        #expect(bookmarks.uris == ["file:///home/someone/notes.txt", "file://" + folder + "/a.json"])
        #expect(bookmarks.mimeType(of: "file:///home/someone/notes.txt") == "text/plain")
        #expect(bookmarks.applications(of: "file:///home/someone/notes.txt") == ["gedit"])
        #expect(bookmarks.mimeType(of: "file://" + folder + "/a.json") == "application/json")
    }

    @Test(
        "a file GLib cannot parse is left as it is, and the error says so in one line",
        arguments: ["<xbel version=\"1.0\"><bookmark href=", "not xml at all\u{1}", ""])
    func corruptFileIsLeftAlone(contents: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/share", withIntermediateDirectories: true)
        try FileProbe.create(recent.path, contents)
        let before = FileProbe.contents(recent.path)
        let error = #expect(throws: RecentFilesError.self) { try self.recent.record(self.folder + "/a.touchtracker") }
        #expect(FileProbe.contents(recent.path) == before)
        #expect(error?.description.contains("GLib cannot read it") == true)
        #expect(error?.description.contains("left as it is") == true)
        #expect(error?.description.contains("\n") == false)
        // Nothing but the file itself in its folder: no temporary file left behind.
        #expect(FileProbe.names(in: folder + "/share") == [Array("recently-used.xbel".utf8)])
    }

    @Test("a link to the bookmark file stays a link, its target replaced")
    func linkStaysALink() throws {
        try FileManager.default.createDirectory(atPath: folder + "/share", withIntermediateDirectories: true)
        try FileProbe.create(folder + "/real.xbel", Self.otherProgramsFile)
        try FileProbe.link(recent.path, to: folder + "/real.xbel")
        try recent.record(folder + "/a.touchtracker")
        #expect(FileProbe.kind(recent.path) == .link)
        #expect(FileProbe.text(folder + "/real.xbel")?.contains("a.touchtracker") == true)
    }

    @Test("the file is $XDG_DATA_HOME/recently-used.xbel, else under HOME's .local/share")
    func location() {
        #expect(
            RecentFiles(environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"], home: "/p").path == "/d/recently-used.xbel")
        #expect(
            RecentFiles(environment: ["XDG_DATA_HOME": "rel", "HOME": "/h"], home: "/p").path
                == "/h/.local/share/recently-used.xbel")
        #expect(RecentFiles(environment: [:], home: "/p").path == "/p/.local/share/recently-used.xbel")
    }

    @Test("sixteen drawings recorded at once (a drop's windows starting together) are all kept")
    func recordsTogether() async throws {
        try FileManager.default.createDirectory(atPath: folder + "/share", withIntermediateDirectories: true)
        let (recent, folder) = (self.recent, self.folder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for number in 1...16 {
                group.addTask { try recent.record(folder + "/\(number).touchtracker") }
            }
            try await group.waitForAll()
        }
        #expect(Set(try parsed().uris) == Set((1...16).map { "file://" + folder + "/\($0).touchtracker" }))
    }
}
