import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore

/// Paths are bytes: kept as given through a `String`, shown escaped where they are not text, split without traps,
/// and cut to fit a name's 255 bytes without two names meeting.
@Suite final class PathTextTests {
    let folder: String

    init() throws {
        folder = try FileProbe.makeTemporaryFolder("pathtext")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A small linear congruential generator, so the random byte strings are the same on every run.
    struct Generator {
        var state: UInt64

        mutating func next(below bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Random byte strings made of pieces that are hard to keep: bytes that are not text, cut and overlong UTF-8
    /// sequences, surrogates, well-formed characters, NUL, and the UTF-8 of the characters that stand for raw bytes.
    static func randomByteStrings(count: Int) -> [[UInt8]] {
        let pieces: [[UInt8]] = [
            [0x61], [0x2F], [0x00], [0x80], [0xBF], [0xC0, 0xAF], [0xC3], [0xC3, 0xA9], [0xE2, 0x82],
            [0xE2, 0x82, 0xAC],
            [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x8E, 0xA8], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBA, 0x80],
            [0xF4, 0x8F, 0xBB, 0xBF], [0xF4, 0x8F, 0xBA], [0xFF], [0xFE],
        ]
        var generator = Generator(state: 0x5EED)
        return (0..<count).map { _ in
            var bytes: [UInt8] = []
            for _ in 0..<generator.next(below: 24) {
                if generator.next(below: 3) == 0 {
                    bytes.append(UInt8(generator.next(below: 256)))
                } else {
                    bytes += pieces[generator.next(below: pieces.count)]
                }
            }
            return bytes
        }
    }

    @Test("any bytes decoded to a string give back the same bytes")
    func bytesRoundTrip() {
        let failures = Self.randomByteStrings(count: 5000).filter { PathText.bytes(PathText.decode($0)) != $0 }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test("valid UTF-8 is decoded to the same text")
    func textIsKept() {
        let name = "dessin-\u{E9}t\u{E9}-\u{65E5}\u{672C}-\u{1F3A8}.json"
        #expect(PathText.decode(Array(name.utf8)).unicodeScalars.elementsEqual(name.unicodeScalars))
    }

    @Test("valid UTF-8 is shown as it is")
    func textIsShownAsItIs() {
        let name = "dessin-\u{E9}t\u{E9}-\u{1F3A8}.json"
        #expect(PathText.shown(PathText.decode(Array(name.utf8))) == name)
    }

    @Test("Latin-1 caf\\xE9 is shown with its last byte escaped")
    func latin1IsShownEscaped() {
        #expect(PathText.shown(PathText.decode([0x63, 0x61, 0x66, 0xE9])) == "caf\\xE9")
    }

    @Test("a newline or another control character in a name is shown escaped, so a message stays one line")
    func controlCharactersAreEscaped() {
        #expect(PathText.shown("/tmp/a\nb\tc\u{7F}.json") == "/tmp/a\\x0Ab\\x09c\\x7F.json")
    }

    @Test(
        "a path suggested on a command line is quoted for a shell only where it needs to be",
        arguments: [
            (
                "/home/me/.local/state/touchtracker/drawing-1a2b-20260102-030405.json",
                "/home/me/.local/state/touchtracker/drawing-1a2b-20260102-030405.json"
            ),
            ("/home/me/My Drawings/it's.json", "'/home/me/My Drawings/it'\\''s.json'"),
            ("/tmp/café.json", "/tmp/café.json"), ("/tmp/$HOME.json", "'/tmp/$HOME.json'"),
        ])
    func shellQuoting(path: String, quoted: String) {
        #expect(PathText.shellQuoted(path) == quoted)
    }

    @Test("a file with a name that is not UTF-8 is saved and loaded by that exact name")
    func rawNameIsKept() throws {
        let nameBytes: [UInt8] = [0x63, 0x61, 0x66, 0xE9] + Array(".json".utf8)
        let path = folder + "/" + PathText.decode(nameBytes)
        let fd = PathText.withCString(path) { open($0, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }
        try #require(fd >= 0)
        close(fd)
        let drawing = Drawing(lines: [Line(begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))])
        try DocumentStore(path: path).save(drawing)
        #expect(try DocumentStore(path: path).load() == drawing && FileProbe.names(in: folder) == [nameBytes])
    }

    @Test("an error about a name that is not UTF-8 shows its bytes escaped")
    func rawNameInErrorIsEscaped() {
        let error = DocumentFileError(path: "/tmp/" + PathText.decode([0x63, 0x61, 0x66, 0xE9]), problem: "gone")
        #expect(error.description == "/tmp/caf\\xE9: gone")
    }

    /// Paths with their folder and name parts, as `dirname` and `basename` give them.
    static let splits: [(path: String, folder: String, name: String)] = [
        ("o", ".", "o"),
        ("/o", "/", "o"),
        ("a/o", "a", "o"),
        ("", ".", "."),
        ("/", "/", "/"),
        ("a//b/", "a", "b"),
        ("//o", "/", "o"),
        ("a/", ".", "a"),
    ]

    @Test("a path's folder is found without trapping, whatever its length", arguments: splits)
    func folderOfPath(split: (path: String, folder: String, name: String)) {
        #expect(PathText.folder(of: split.path) == split.folder)
    }

    @Test("a path's name is found without trapping, a one-character name like any other", arguments: splits)
    func nameOfPath(split: (path: String, folder: String, name: String)) {
        #expect(PathText.name(of: split.path) == split.name)
    }

    @Test("a short name's sibling is the name with the suffix added")
    func shortSiblingIsPlain() {
        #expect(PathText.sibling(of: "/a/drawing.json", adding: ".lock") == "/a/drawing.json.lock")
    }

    /// Names of 255 bytes: ASCII, two-byte characters, and bytes that are not text.
    static let longestNames: [String] = [
        String(repeating: "x", count: 255),
        String(repeating: "\u{E9}", count: 127) + "x",
        PathText.decode([UInt8](repeating: 0xE9, count: 255)),
    ]

    @Test("a sibling of a 255-byte name is at most 255 bytes", arguments: longestNames)
    func longSiblingFits(name: String) {
        let sibling = PathText.sibling(of: "/a/" + name, adding: ".corrupt-20260102-030405-2")
        #expect(PathText.bytes(PathText.name(of: sibling)).count <= 255)
    }

    @Test("a sibling of a long name stays in the same folder")
    func longSiblingStaysInItsFolder() {
        let sibling = PathText.sibling(of: "/a/" + String(repeating: "x", count: 255), adding: ".lock")
        #expect(PathText.folder(of: sibling) == "/a")
    }

    @Test("two long names that differ only at their end have different siblings")
    func longSiblingsDiffer() {
        let stem = String(repeating: "x", count: 250)
        let siblings = ["1", "2"].map { PathText.sibling(of: "/a/" + stem + $0, adding: ".lock") }
        #expect(siblings[0] != siblings[1])
    }
}
