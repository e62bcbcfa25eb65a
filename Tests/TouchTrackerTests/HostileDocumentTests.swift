import Foundation
import SeededRandom
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore

/// A document file that is not a drawing, as a user's disk may hold one: the table of issue 5.
enum HostileDocument: String, CaseIterable, Sendable, CustomStringConvertible {
    case emptyFile = "an empty file"
    case whitespaceOnly = "only whitespace"
    case truncatedJSON = "truncated JSON"
    case notJSON = "plain text"
    case binaryGarbage = "binary garbage"
    case invalidUTF8 = "a string that is not UTF-8"
    case jsonArray = "a JSON array"
    case jsonString = "a JSON string"
    case versionZero = "version 0"
    case futureVersion = "a future version"
    case versionAsString = "the version as a string"
    case fractionalVersion = "a fractional version"
    case missingVersion = "no version"
    case missingLines = "no lines"
    case linesNotArray = "lines as an object"
    case lineNotObject = "a line that is a number"
    case missingEnd = "a line without an end"
    case missingY = "a point without y"
    case nanCoordinate = "a NaN coordinate"
    case infinityCoordinate = "an Infinity coordinate"
    case overflowingCoordinate = "a coordinate of 1e999"
    case hugeCoordinate = "a coordinate of 1e300"
    case stringCoordinate = "a coordinate as a string"
    case nullCoordinate = "a null coordinate"
    case deepNesting = "nesting 100,000 levels deep"
    case tooManyLines = "1,000,001 lines"
    case tooLarge = "a file larger than maximumFileSize"
    case directory = "a directory in its place"
    case symlinkLoop = "a symlink loop"
    case fifo = "a named pipe in its place"

    var description: String { rawValue }

    /// Bytes of the file for the cases that are files with content.
    var bytes: [UInt8]? {
        func line(_ begin: String, _ end: String = #"{"x": 3, "y": 4}"#) -> [UInt8] {
            Array(#"{"version": 1, "lines": [{"begin": \#(begin), "end": \#(end)}]}"#.utf8)
        }
        switch self {
        case .emptyFile: return []
        case .whitespaceOnly: return Array(" \n\t\r\n".utf8)
        case .truncatedJSON: return Array(#"{"version": 1, "lines": [{"begin": {"x": 1, "y""#.utf8)
        case .notJSON: return Array("TouchTracker drawing\nline 1 2 3 4\n".utf8)
        case .binaryGarbage: return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0xFF, 0xFE, 0x7B]
        case .invalidUTF8:
            return Array(#"{"version": 1, "name": ""#.utf8) + [0xC3, 0x28] + Array(#"", "lines": []}"#.utf8)
        case .jsonArray: return Array(#"[{"version": 1, "lines": []}]"#.utf8)
        case .jsonString: return Array(#""drawing""#.utf8)
        case .versionZero: return Array(#"{"version": 0, "lines": []}"#.utf8)
        case .futureVersion: return Array(#"{"version": 2, "lines": [], "layers": []}"#.utf8)
        case .versionAsString: return Array(#"{"version": "1", "lines": []}"#.utf8)
        case .fractionalVersion: return Array(#"{"version": 1.5, "lines": []}"#.utf8)
        case .missingVersion: return Array(#"{"lines": []}"#.utf8)
        case .missingLines: return Array(#"{"version": 1}"#.utf8)
        case .linesNotArray: return Array(#"{"version": 1, "lines": {"0": {}}}"#.utf8)
        case .lineNotObject: return Array(#"{"version": 1, "lines": [42]}"#.utf8)
        case .missingEnd: return Array(#"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}}]}"#.utf8)
        case .missingY: return line(#"{"x": 1}"#)
        case .nanCoordinate: return line(#"{"x": NaN, "y": 2}"#)
        case .infinityCoordinate: return line(#"{"x": Infinity, "y": 2}"#)
        case .overflowingCoordinate: return line(#"{"x": 1e999, "y": 2}"#)
        case .hugeCoordinate: return line(#"{"x": 1, "y": 1e300}"#)
        case .stringCoordinate: return line(#"{"x": "1", "y": 2}"#)
        case .nullCoordinate: return line(#"{"x": null, "y": 2}"#)
        case .deepNesting:
            return Array(#"{"version": 1, "lines": "#.utf8) + Array(repeating: UInt8(ascii: "["), count: 100_000)
        case .tooManyLines:
            // The line count is checked before any line is looked at, so the cheapest lines do.
            var bytes = Array(#"{"version": 1, "lines": ["#.utf8)
            bytes.reserveCapacity(2_000_100)
            for index in 0..<1_000_001 { bytes.append(contentsOf: index == 0 ? [0x30] : [0x2C, 0x30]) }
            bytes.append(contentsOf: "]}".utf8)
            return bytes
        case .tooLarge, .directory, .symlinkLoop, .fifo: return nil
        }
    }

    /// Words the one-line error must contain.
    var expectedProblem: String {
        switch self {
        case .emptyFile, .whitespaceOnly: "empty"
        case .truncatedJSON, .notJSON, .binaryGarbage, .invalidUTF8, .nanCoordinate, .infinityCoordinate:
            "not valid JSON"
        case .deepNesting: "nesting deeper"
        case .jsonArray, .jsonString: "not a JSON object"
        case .versionZero: "version 0 is not a TouchTracker version"
        case .futureVersion: "version 2 is not supported"
        case .versionAsString, .fractionalVersion: "\"version\" should be an integer"
        case .missingVersion: "missing field \"version\""
        case .missingLines: "missing field \"lines\""
        case .linesNotArray: "\"lines\" should be an array"
        case .lineNotObject: "\"lines[0]\" should be an object"
        case .missingEnd: "missing field \"lines[0].end\""
        case .missingY: "missing field \"lines[0].begin.y\""
        case .overflowingCoordinate: "\"lines[0].begin.x\" is not a finite number"
        case .hugeCoordinate: "\"lines[0].begin.y\" is not a finite number"
        case .stringCoordinate, .nullCoordinate: "\"lines[0].begin.x\" should be a number"
        case .tooManyLines: "1000001 lines is more than the 1000000"
        case .tooLarge: "more than the \(DocumentCodec.maximumFileSize) allowed"
        case .directory: "is a directory"
        case .symlinkLoop: "symlink loop"
        case .fifo: "is not a regular file"
        }
    }

    /// Whether the original can be copied aside (a regular file); otherwise it is left alone and edits go to a
    /// recovery file next to it.
    var isRegularFile: Bool {
        switch self {
        case .directory, .symlinkLoop, .fifo: false
        default: true
        }
    }

    /// Creates the case at `path` (its folder exists).
    func create(at path: String) throws {
        switch self {
        case .tooLarge:
            // Sparse: maximumFileSize + 1 byte of zeros after a valid start, without using the disk.
            let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            guard fd >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
            defer { close(fd) }
            let start = Array(#"{"version": 1, "lines": []}"#.utf8)
            _ = start.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard ftruncate(fd, off_t(DocumentCodec.maximumFileSize + 1)) == 0 else {
                throw POSIXError(.init(rawValue: errno)!)
            }
        case .directory:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            try Data("a drawing someone keeps here".utf8).write(to: URL(fileURLWithPath: path + "/notes.txt"))
        case .symlinkLoop:
            let other = path + ".other"
            guard symlink(other, path) == 0, symlink(path, other) == 0 else {
                throw POSIXError(.init(rawValue: errno)!)
            }
        case .fifo:
            guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        default:
            try Data(bytes!).write(to: URL(fileURLWithPath: path))
        }
    }

    /// What is at `path`, to show it was left untouched: the file's bytes (or a digest of a large one), a folder's
    /// listing, a link's target.
    static func fingerprint(of path: String) -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "missing" }
        switch info.st_mode & S_IFMT {
        case S_IFLNK:
            return "link to " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
        case S_IFDIR:
            return "folder "
                + ((try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []).joined(
                    separator: ",")
        case S_IFIFO:
            return "fifo"
        default:
            return "file \(contents(of: path)), mode \(String(info.st_mode & 0o7777, radix: 8))"
        }
    }
}

extension HostileDocument {
    /// Size and a digest of the bytes (holes of zeros are skipped quickly, their positions still count).
    static func contents(of path: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "unreadable" }
        defer { try? handle.close() }
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var hasher = 0xcbf2_9ce4_8422_2325 as UInt64
        var size = 0
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            defer { size += chunk.count }
            let isZero = chunk.withUnsafeBytes { memcmp($0.baseAddress!, zeros, chunk.count) == 0 }
            if isZero { continue }
            for (offset, byte) in chunk.enumerated() {
                hasher = (hasher ^ UInt64(byte) ^ UInt64(size + offset) << 8) &* 0x100_0000_01b3
            }
        }
        return "\(size) bytes, digest \(hasher)"
    }
}

@Suite("Hostile documents")
final class HostileDocumentTests {
    let folder = NSTemporaryDirectory() + "touchtracker-hostile-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test(
        "each hostile document is refused with a one-line error naming the file and the problem, and left as it was",
        arguments: HostileDocument.allCases)
    func loadRefuses(document: HostileDocument) throws {
        let path = folder + "/drawing.json"
        try document.create(at: path)
        let before = HostileDocument.fingerprint(of: path)
        do {
            let drawing = try DocumentStore(path: path).load()
            Issue.record("\(document) loaded as \(drawing.lines.count) line(s)")
        } catch {
            #expect(error.description.hasPrefix(path + ": "), "\(error)")
            #expect(error.description.contains(document.expectedProblem), "\(error)")
            #expect(!error.description.contains("\n"), "\(error)")
            #expect(error.description.count < 300, "\(error)")
        }
        #expect(HostileDocument.fingerprint(of: path) == before)
    }

    @Test(
        "opening a hostile document for editing starts empty, keeps the original and a copy, and never saves over it",
        arguments: HostileDocument.allCases)
    func openForEditingKeepsEverything(document: HostileDocument) throws {
        let path = folder + "/drawing.json"
        try document.create(at: path)
        let before = HostileDocument.fingerprint(of: path)

        let opened = DocumentStore(path: path).openForEditing(stamp: "20260102-030405")
        #expect(opened.drawing == Drawing())
        let problem = try #require(opened.problem)
        #expect(problem.contains(path + ": "), "\(problem)")
        #expect(problem.contains(document.expectedProblem), "\(problem)")
        #expect(!problem.contains("\n"), "\(problem)")
        #expect(HostileDocument.fingerprint(of: path) == before, "opening changed the original")

        let copy = path + ".corrupt-20260102-030405"
        if document.isRegularFile {
            #expect(opened.store.path == path)
            #expect(problem.contains("kept it as \(copy)"), "\(problem)")
            // The copy holds the same bytes, and is private.
            #expect(HostileDocument.contents(of: copy) == HostileDocument.contents(of: path))
            #expect(HostileDocument.fingerprint(of: copy).hasSuffix("mode 600"))
        } else {
            #expect(!FileManager.default.fileExists(atPath: copy))
            #expect(opened.store.path == path + ".recovered-20260102-030405")
            #expect(problem.contains("left it untouched"), "\(problem)")
            #expect(problem.contains(opened.store.path), "\(problem)")
        }

        // The first autosave must not lose anything.
        let line = Line(begin: Point(x: 1, y: 2), end: Point(x: 30, y: 40))
        try opened.store.save(Drawing(lines: [line]))
        #expect(try opened.store.load().lines == [line])
        if document.isRegularFile {
            #expect(before.contains(HostileDocument.contents(of: copy)), "the copy changed")
        } else {
            #expect(HostileDocument.fingerprint(of: path) == before, "the autosave wrote over the original")
        }
    }

    @Test("a second bad open in the same second copies aside under a new name, never over the first copy")
    func copiesNeverCollide() throws {
        let path = folder + "/drawing.json"
        try Data("first".utf8).write(to: URL(fileURLWithPath: path))
        let first = DocumentStore(path: path).openForEditing(stamp: "20260102-030405")
        try Data("second".utf8).write(to: URL(fileURLWithPath: path))
        let second = DocumentStore(path: path).openForEditing(stamp: "20260102-030405")
        #expect(first.problem?.contains("drawing.json.corrupt-20260102-030405 and") == true, "\(first.problem ?? "")")
        #expect(
            second.problem?.contains("drawing.json.corrupt-20260102-030405-2 and") == true, "\(second.problem ?? "")")
        #expect(try String(contentsOfFile: path + ".corrupt-20260102-030405", encoding: .utf8) == "first")
        #expect(try String(contentsOfFile: path + ".corrupt-20260102-030405-2", encoding: .utf8) == "second")
    }

    @Test("a readable document opens for editing with no problem and saves to its own path")
    func goodDocumentOpens() throws {
        let store = DocumentStore(path: folder + "/drawing.json")
        let drawing = Drawing(lines: [Line(begin: Point(x: 1, y: 2), end: Point(x: 3, y: 4))])
        try store.save(drawing)
        let opened = store.openForEditing(stamp: "20260102-030405")
        #expect(opened.problem == nil)
        #expect(opened.drawing == drawing)
        #expect(opened.store.path == store.path)
    }

    @Test("20,000 random mutations of a valid document never crash the reader and never load a non-finite point")
    func mutatedDocumentsNeverCrash() {
        var random = SplitMix64(seed: 5)
        let valid = DocumentCodec.encode(
            Drawing(lines: (0..<8).map { Line(begin: Point(x: Double($0), y: 2.5), end: Point(x: -3e5, y: 1e-3)) }))
        let alphabet = Array(#"{}[]",:.-+eE0123456789 naNItrufl\"#.utf8) + [0, 0xFF, 0xC3]
        var refused = 0
        for _ in 0..<20_000 {
            var bytes = valid
            random.mutate(&bytes, edits: Int(random.next() % 4) + 1, alphabet: alphabet)
            do {
                let drawing = try DocumentCodec.decode(bytes)
                for line in drawing.lines {
                    #expect(line.begin.isFinite && line.end.isFinite)
                    #expect(max(abs(line.begin.x), abs(line.begin.y), abs(line.end.x), abs(line.end.y)) <= 1e6)
                }
            } catch {
                refused += 1
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(refused > 1000, "the mutations should mostly break the document")
    }
}

extension SplitMix64 {
    /// Makes `edits` random one-byte edits to `bytes`: replaces, deletes or inserts (a byte from `alphabet`).
    mutating func mutate(_ bytes: inout [UInt8], edits: Int, alphabet: [UInt8]) {
        for _ in 0..<edits where !bytes.isEmpty {
            let position = Int(next() % UInt64(bytes.count))
            switch next() % 3 {
            case 0: bytes[position] = alphabet[Int(next() % UInt64(alphabet.count))]
            case 1: bytes.remove(at: position)
            default: bytes.insert(alphabet[Int(next() % UInt64(alphabet.count))], at: position)
            }
        }
    }
}
