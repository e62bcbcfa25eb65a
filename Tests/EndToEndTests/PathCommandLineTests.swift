import Foundation
import Synchronization
import Testing
import TouchKit
import TouchTracker
import TouchTrackerStore
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Every path a person gives the commands that need no display (`export`, `replay`, `demo --replay`): links,
/// named pipes, a descriptor's name, one-character and non-UTF-8 names, and the words for what cannot be done.
@Suite("Command line paths")
struct PathCommandLineTests {
    /// Runs the built `touchtracker` with `arguments` (or their bytes) in `folder`; returns status and output.
    private func touchtracker(
        _ arguments: [String], bytes: [[UInt8]]? = nil, in folder: URL? = nil
    ) async throws -> (status: Int32, stdout: String, stderr: String) {
        let app = try AppProcess(
            arguments: arguments, argumentBytes: bytes, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil],
            workingDirectory: folder?.path)
        let status = try await app.waitForExit(timeout: .seconds(30))
        return (status, app.stdout, app.stderr)
    }

    private static let document =
        #"{"version": 1, "lines": [{"begin": {"x": 100, "y": 50}, "end": {"x": 700, "y": 50}}]}"#

    /// A three-event replay script drawing one line.
    private static let script = """
        {"t": 0.00, "id": 1, "phase": "began", "x": 100, "y": 100}
        {"t": 0.05, "id": 1, "phase": "moved", "x": 200, "y": 150}
        {"t": 0.10, "id": 1, "phase": "ended", "x": 300, "y": 200}

        """

    private func isLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// A folder with `doc.json` and `s.jsonl` (the script) in it.
    private func folderWithDocumentAndScript(_ prefix: String) throws -> URL {
        let folder = try makeTemporaryFolder(prefix)
        try Data(Self.document.utf8).write(to: folder.appendingPathComponent("doc.json"))
        try Data(Self.script.utf8).write(to: folder.appendingPathComponent("s.jsonl"))
        return folder
    }

    /// Reads a named pipe to its end on a thread of its own (opening it blocks until a writer comes).
    private final class PipeReader: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let received = Mutex<[UInt8]>([])

        init(_ path: String) {
            let thread = Thread { [self] in
                let fd = open(path, O_RDONLY)
                var buffer = [UInt8](repeating: 0, count: 65536)
                while fd >= 0 {
                    let count = read(fd, &buffer, buffer.count)
                    if count <= 0 { break }
                    received.withLock { $0 += buffer.prefix(count) }
                }
                if fd >= 0 { close(fd) }
                done.signal()
            }
            thread.start()
        }

        /// What was read, once the writer closed the pipe (nil after `timeout` seconds).
        func text(timeout: Double = 10) -> String? {
            guard done.wait(timeout: .now() + timeout) == .success else { return nil }
            return String(decoding: received.withLock { $0 }, as: UTF8.self)
        }
    }

    @Test("export to a symlink writes the picture into the link's target; the link stays")
    func exportThroughLink() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-export-link")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("pictures"), withIntermediateDirectories: true)
        let link = folder.appendingPathComponent("out.png")
        #expect(symlink("pictures/real.png", link.path) == 0)
        let result = try await touchtracker(["export", "doc.json", "--png", "out.png"], in: folder)
        #expect(result.status == 0, "\(result)")
        #expect(isLink(link.path))
        let png = try Data(contentsOf: folder.appendingPathComponent("pictures/real.png"))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("replay --state into a named pipe feeds its reader, and the pipe stays a pipe")
    func replayStateIntoNamedPipe() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-replay-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("state.pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let reader = PipeReader(pipe.path)
        let result = try await touchtracker(["replay", "s.jsonl", "--state", pipe.path], in: folder)
        #expect(result.status == 0, "\(result)")
        let text = try #require(reader.text(), "the pipe's reader got nothing")
        #expect(text.contains(#""linesInProgress": 0"#), "\(text)")
        var info = stat()
        #expect(lstat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test("demo --replay --state into a named pipe feeds its reader, and the pipe stays a pipe")
    func demoStateIntoNamedPipe() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-demo-fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("scene.pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        let reader = PipeReader(pipe.path)
        let result = try await touchtracker(
            ["demo", "circle", "--replay", "s.jsonl", "--state", pipe.path], in: folder)
        #expect(result.status == 0, "\(result)")
        let text = try #require(reader.text(), "the pipe's reader got nothing")
        #expect(text.contains("circle"), "\(text)")
        var info = stat()
        #expect(lstat(pipe.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO)
    }

    @Test(
        """
        --state naming the app's own standard output (/proc/self/fd/1, and a symlink to it as /dev/stdout is) \
        writes there and replaces nothing
        """)
    func stateToStandardOutputName() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-stdout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let direct = try await touchtracker(["replay", "s.jsonl", "--state", "/proc/self/fd/1"], in: folder)
        #expect(direct.status == 0, "\(direct)")
        #expect(direct.stdout.contains(#""linesInProgress": 0"#), "\(direct)")
        // Stands for /dev/stdout, which is this same link; the machine's own is never touched by a test.
        let link = folder.appendingPathComponent("stdout")
        #expect(symlink("/proc/self/fd/1", link.path) == 0)
        let linked = try await touchtracker(["replay", "s.jsonl", "--state", link.path], in: folder)
        #expect(linked.status == 0, "\(linked)")
        #expect(linked.stdout.contains(#""linesInProgress": 0"#), "\(linked)")
        #expect(isLink(link.path))
    }

    @Test("one-character relative names are ordinary names for export, replay and demo")
    func oneCharacterNames() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-one-char")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.script.utf8).write(to: folder.appendingPathComponent("S"))
        for arguments in [
            ["export", "doc.json", "--png", "o"], ["replay", "S", "--state", "s"], ["replay", "S", "--document", "s"],
            ["demo", "circle", "--replay", "S", "--state", "c"],
        ] {
            let result = try await touchtracker(arguments, in: folder)
            #expect(result.status == 0, "\(arguments): \(result)")
        }
        for name in ["o", "s", "c"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)")
        }
    }

    @Test("export of a document named in Latin-1 reads that file and writes a picture named in Latin-1")
    func latin1NamesAreKeptAsBytes() async throws {
        let folder = try makeTemporaryFolder("touchtracker-latin1-export")
        defer { try? FileManager.default.removeItem(at: folder) }
        let documentName = Array("caf".utf8) + [0xE9] + Array(".json".utf8)
        let pictureName = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        try DocumentStore(path: PathText.join(folder.path, PathText.decode(documentName))).save(
            Drawing(lines: [Line(begin: Point(x: 10, y: 10), end: Point(x: 200, y: 10))]))
        let result = try await touchtracker(
            ["export", "café.json", "--png", "café.png"],
            bytes: [Array("export".utf8), documentName, Array("--png".utf8), pictureName], in: folder)
        #expect(result.status == 0, "\(result)")
        let names = FolderNames.bytes(in: folder.path)
        #expect(names.contains(pictureName), "\(names)")
        // No name was repaired into UTF-8's replacement character (EF BF BD).
        #expect(
            !names.contains { name in (0..<max(0, name.count - 2)).contains { name[$0..<$0 + 3] == [0xEF, 0xBF, 0xBD] }
            })
    }

    @Test("a document that does not exist, named in Latin-1, is reported with its name escaped, not repaired")
    func latin1MissingNameIsShownEscaped() async throws {
        let folder = try makeTemporaryFolder("touchtracker-latin1-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(
            ["export", "nope.json", "--png", "x.png"],
            bytes: [
                Array("export".utf8), Array("n".utf8) + [0xF6] + Array("pe.json".utf8), Array("--png".utf8),
                Array("x.png".utf8),
            ], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"n\xF6pe.json: no such file or folder"#), "\(result)")
    }

    @Test("--geometry larger than a window can be is refused before anything opens: too large, at most 16384")
    func geometryTooLarge() async throws {
        let result = try await touchtracker(["--geometry", "40000x600"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("too large: at most 16384 pixels a side"), "\(result)")
    }

    @Test("a replay coordinate of 2,000,000 is out of range, and the script's line says so")
    func replayCoordinateOutOfRange() async throws {
        let folder = try makeTemporaryFolder("touchtracker-replay-range")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"t": 0, "id": 1, "phase": "began", "x": 2000000, "y": 10}"#.utf8).write(
            to: folder.appendingPathComponent("far.jsonl"))
        let result = try await touchtracker(["replay", "far.jsonl"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains(#"far.jsonl: line 1: "x" is out of range: at most ±1000000"#), "\(result)")
    }

    @Test("export into a folder that does not exist names that folder and writes nothing")
    func exportIntoMissingFolder() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-export-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(["export", "doc.json", "--png", "nowhere/out.png"], in: folder)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("nowhere/out.png: the folder nowhere does not exist; create it first"), "\(result)")
        #expect(!result.stderr.contains(".tmp"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere").path))
    }

    @Test("a window's document in a folder that does not exist is refused, naming the folder, which is not made")
    func windowDocumentInMissingFolder() async throws {
        let folder = try makeTemporaryFolder("touchtracker-open-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(["--document", "nowhere/d.json"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--document nowhere/d.json: the folder /"), "\(result)")
        #expect(result.stderr.contains("/nowhere does not exist; create it first (mkdir -p /"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere").path))
    }

    @Test(
        "an empty path is refused before anything is read or written, naming the option",
        arguments: [
            ["--document", ""], ["export", "doc.json", "--png", ""], ["replay", "s.jsonl", "--state", ""],
            ["demo", "farm", "--replay", ""],
        ])
    func emptyPathIsRefused(arguments: [String]) async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-empty-path")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(arguments, in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("is empty; give a file's name"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["doc.json", "s.jsonl"])
    }

    @Test(
        "a path ending in / or starting with a ~ the shell left is refused in words, and nothing is written",
        arguments: [
            (["export", "doc.json", "--png", "new.png/"], "--png new.png/ ends in /, which names a folder"),
            (["replay", "s.jsonl", "--state=~/state.json"], "--state ~/state.json: the shell did not expand ~ here"),
            (["--document=~/d.json"], "--document ~/d.json: the shell did not expand ~ here"),
            (["--document", "."], "--document . names a folder; give a file's name"),
            (["export", "doc.json", "--png", "../.."], "--png ../.. names a folder; give a file's name"),
        ])
    func folderNameOrUnexpandedTildeIsRefused(arguments: [String], problem: String) async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-path-words")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains(problem), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["doc.json", "s.jsonl"])
    }

    @Test(
        """
        an empty --option=, a lone - as a file, and a word with one dash are each refused in words naming them, and \
        nothing is written
        """,
        arguments: [
            (["--document="], "--document is empty; give a file's name"),
            (["export", "doc.json", "--png="], "--png is empty; give a file's name"),
            (["export", "doc.json", "--png", "-"], "--png -: - is not standard input or output here; give /dev/stdin"),
            (["replay", "s.jsonl", "--state", "-"], "--state -: - is not standard input or output here"),
            (["export", "doc.json", "-png", "x.png"], "-png is no option; did you mean --png?"),
            (["replay", "-s.jsonl"], "-s.jsonl is read as an option, not a file's name; write ./-s.jsonl"),
            (["replay", "s.jsonl", "-q"], "-q is no option; options start with --"),
            (
                ["export", "--", "doc.json", "--png", "x.png"],
                "--png after -- is read as a name, not an option; put the options before --"
            ),
        ])
    func oddWordsAreNamed(arguments: [String], problem: String) async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-odd-words")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(arguments, in: folder)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.hasPrefix("touchtracker: " + problem), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["doc.json", "s.jsonl"])
    }

    @Test("a window's document that is a folder is refused, naming a file in it, and nothing is written")
    func windowDocumentThatIsAFolderIsRefused() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-document-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Drawings"), withIntermediateDirectories: false)
        let result = try await touchtracker(["--document", "Drawings"], in: folder)
        #expect(result.status == 64)
        #expect(
            result.stderr.contains(
                "--document Drawings is a folder; give a file's name (such as Drawings/drawing.json)"), "\(result)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "Drawings", "doc.json", "s.jsonl",
            ])
    }

    @Test("export onto the document it reads, by a link to it, is refused and the document is left as it was")
    func exportOverItsDocumentIsRefused() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-export-self")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(symlink("doc.json", folder.appendingPathComponent("same.png").path) == 0)
        let result = try await touchtracker(["export", "doc.json", "--png", "same.png"], in: folder)
        #expect(result.status != 0)
        #expect(result.stderr.contains("same.png is the document itself; give another file's name"), "\(result)")
        #expect(try String(contentsOf: folder.appendingPathComponent("doc.json"), encoding: .utf8) == Self.document)
    }

    @Test(
        "a replay's output onto its own script, by its name or a link, is refused and the script is left as it was",
        arguments: [
            ["replay", "s.jsonl", "--state", "s.jsonl"], ["replay", "s.jsonl", "--png", "link.jsonl"],
            ["demo", "farm", "--replay", "s.jsonl", "--state", "./link.jsonl"],
        ])
    func replayOverItsScriptIsRefused(arguments: [String]) async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-replay-self")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("s.jsonl")
        let before = try Data(contentsOf: script)
        #expect(symlink("s.jsonl", folder.appendingPathComponent("link.jsonl").path) == 0)
        let result = try await touchtracker(arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains("is the script itself; give another file's name"), "\(result)")
        #expect(try Data(contentsOf: script) == before)
    }

    @Test("a replay's --state and --png may both be /dev/null: a device is written in place, nothing is replaced")
    func replayOutputsToOneDeviceAreAllowed() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-replay-dev-null")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(
            ["replay", "s.jsonl", "--state", "/dev/null", "--png", "/dev/null"], in: folder)
        #expect(result.status == 0, "\(result)")
    }

    @Test("a replay's --state and --png naming one file are refused: the picture would replace the state")
    func replayOutputsOnOneFileAreRefused() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-replay-one-output")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(["replay", "s.jsonl", "--state", "out", "--png", "./out"], in: folder)
        #expect(result.status == 64)
        #expect(result.stderr.contains("--png ./out is the file --state writes; give each its own name"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["doc.json", "s.jsonl"])
    }

    @Test("replay from a document that does not exist says so and writes nothing, as export does")
    func replayFromMissingDocument() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-replay-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(
            ["replay", "s.jsonl", "--document", "nope.json", "--state", "out.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot read document nope.json: no such file or folder"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out.json").path))
    }

    @Test("a file in the middle of an output path is named as such")
    func fileInTheMiddleOfAPath() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-export-file-in-path")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await touchtracker(["replay", "s.jsonl", "--state", "doc.json/state.json"], in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("a part of the path is a file, not a folder"), "\(result)")
        #expect(try String(contentsOf: folder.appendingPathComponent("doc.json"), encoding: .utf8) == Self.document)
    }

    @Test("XDG_DATA_HOME named in Latin-1 is the folder the window keeps its drawing in, not a repaired name")
    func latin1DataHomeIsKeptAsBytes() async throws {
        let base = try makeTemporaryFolder("touchtracker-latin1-data-home")
        defer { try? FileManager.default.removeItem(at: base) }
        let dataHome = Array(base.path.utf8) + Array("/caf".utf8) + [0xE9]
        let server = try await XorgServer.start()
        defer { server.stop() }
        // Through env(1): a child's environment here is Swift strings, which cannot hold the byte.
        let app = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: [],
            argumentBytes: [
                Array("XDG_DATA_HOME=".utf8) + dataHome, Array("XDG_STATE_HOME=\(base.path)/state".utf8),
                Array(try AppProcess.locateExecutable().path.utf8), Array("--verbose".utf8),
            ],
            environment: ["DISPLAY": server.display, "HOME": base.path])
        defer { _ = app.stop() }
        let lock = PathText.decode(dataHome + Array("/touchtracker/drawing.json.lock".utf8))
        try await waitUntil("the window to lock its drawing", timeout: .seconds(10)) {
            PathText.withCString(lock) { access($0, F_OK) } == 0
        }
        let names = FolderNames.bytes(in: base.path)
        #expect(names.contains(Array("caf".utf8) + [0xE9]), "\(names)")
        #expect(!names.contains(Array("caf".utf8) + [0xEF, 0xBF, 0xBD]), "\(names)")
    }

    @Test("a folder that cannot be created for the window's default document is named with the reason, in words")
    func documentFolderCannotBeCreated() async throws {
        let folder = try folderWithDocumentAndScript("touchtracker-folder-create")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await XorgServer.start()
        defer { server.stop() }
        let app = try AppProcess(
            arguments: ["--verbose"],
            environment: [
                "DISPLAY": server.display, "XDG_DATA_HOME": folder.path + "/doc.json/inside",
                "XDG_STATE_HOME": folder.path + "/state",
            ], workingDirectory: folder.path)
        defer { app.stop() }
        try await app.waitForStderrLine(containing: "touchtracker: ready")
        _ = try await app.terminate()
        #expect(app.stderr.contains("a part of the path is a file, not a folder"), "\(app.transcript)")
        #expect(!app.stderr.contains("NSCocoaErrorDomain"), "\(app.transcript)")
    }

    @Test("demo --replay names a folder given as its script, and the line of text that is not UTF-8, as replay does")
    func demoScriptWords() async throws {
        let folder = try makeTemporaryFolder("touchtracker-demo-words")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try Data(Array(#"{"t": 0, "id": 1, "phase": "began", "x": 20, "y": 10}"#.utf8) + [0x0A, 0xFF, 0x0A]).write(
            to: folder.appendingPathComponent("bad.jsonl"))
        for command in [["demo", "circle", "--replay"], ["replay"]] {
            let onFolder = try await touchtracker(command + ["scripts"], in: folder)
            #expect(onFolder.status == 1)
            #expect(onFolder.stderr.contains("scripts: is a directory, not a script"), "\(command): \(onFolder)")
            let notText = try await touchtracker(command + ["bad.jsonl"], in: folder)
            #expect(notText.status == 1)
            #expect(notText.stderr.contains("bad.jsonl: line 2: not UTF-8 text"), "\(command): \(notText)")
        }
    }

    @Test("export onto a full disk says the disk is full and leaves the old picture whole")
    func exportOntoFullDisk() async throws {
        let folder = try makeTemporaryFolder("touchtracker-export-full")
        let source = try folderWithDocumentAndScript("touchtracker-export-full-source")
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: source)
        }
        guard try SmallFileSystem.mount(on: folder) else { return }
        defer { SmallFileSystem.unmount(folder) }
        let old = folder.appendingPathComponent("out.svg")
        try Data("<svg/>".utf8).write(to: old)
        _ = try SmallFileSystem.fill(folder)
        let result = try await touchtracker([
            "export", source.appendingPathComponent("doc.json").path, "--svg", old.path, "--size", "2000x2000",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("out.svg: the disk is full"), "\(result)")
        #expect(try String(contentsOf: old, encoding: .utf8) == "<svg/>")
    }
}

/// The names in a folder as bytes (`FileManager` would repair names that are not UTF-8).
enum FolderNames {
    static func bytes(in folder: String) -> [[UInt8]] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [[UInt8]] = []
        while let entry = readdir(directory) {
            names.append(DirectoryEntry.withName(of: entry) { Array($0) })
        }
        return names
    }
}
