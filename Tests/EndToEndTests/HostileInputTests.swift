import Foundation
import Testing
import TouchTracker
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 5, "never crash on bad input": hostile documents and replay scripts given to the real `touchtracker`.
@Suite("Hostile documents and scripts")
struct HostileInputTests {
    /// A document file that is not a drawing, with words its one-line error must contain.
    struct BadDocument: Sendable, CustomStringConvertible {
        enum Kind: Sendable {
            case bytes([UInt8])
            case sparse(Int)
            case directory
            case symlinkLoop
            /// Mode 0000, read by an unprivileged user (root reads everything).
            case unreadable
        }

        let name: String
        let kind: Kind
        let problem: String
        var description: String { name }

        var isRegularFile: Bool {
            switch kind {
            case .bytes, .sparse, .unreadable: true
            case .directory, .symlinkLoop: false
            }
        }

        func create(at path: String) throws {
            switch kind {
            case .bytes(let bytes):
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            case .sparse(let size):
                try Data(#"{"version": 1, "lines": []}"#.utf8).write(to: URL(fileURLWithPath: path))
                guard truncate(path, off_t(size)) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                try Data("kept".utf8).write(to: URL(fileURLWithPath: path + "/inside.txt"))
            case .symlinkLoop:
                guard symlink(path + ".b", path) == 0, symlink(path, path + ".b") == 0 else {
                    throw POSIXError(.init(rawValue: errno)!)
                }
            case .unreadable:
                try Data(#"{"version": 1, "lines": []}"#.utf8).write(to: URL(fileURLWithPath: path))
                guard chmod(path, 0) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
            }
        }

        static func text(_ name: String, _ text: String, _ problem: String) -> BadDocument {
            BadDocument(name: name, kind: .bytes(Array(text.utf8)), problem: problem)
        }

        static func line(_ name: String, begin: String, _ problem: String) -> BadDocument {
            text(name, #"{"version": 1, "lines": [{"begin": \#(begin), "end": {"x": 3, "y": 4}}]}"#, problem)
        }

        static let all: [BadDocument] = [
            text("an empty file", "", "empty"),
            text("truncated JSON", #"{"version": 1, "lines": [{"begin": {"x": 1"#, "not valid JSON"),
            text("not JSON", "hello, world\n", "not valid JSON"),
            text("a JSON array", #"[{"version": 1, "lines": []}]"#, "not a JSON object"),
            text("version 0", #"{"version": 0, "lines": []}"#, "version 0 is not a TouchTracker version"),
            text("a future version", #"{"version": 7, "lines": []}"#, "version 7 is not supported"),
            text("no version", #"{"lines": []}"#, "missing field \"version\""),
            text("no lines", #"{"version": 1}"#, "missing field \"lines\""),
            text("a line without an end", #"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}}]}"#, "lines[0].end"),
            line("a NaN coordinate", begin: #"{"x": NaN, "y": 2}"#, "not valid JSON"),
            line("an Infinity coordinate", begin: #"{"x": 1, "y": -Infinity}"#, "not valid JSON"),
            line("a string coordinate", begin: #"{"x": "12", "y": 2}"#, "should be a number"),
            line("a coordinate of 1e300", begin: #"{"x": 1e300, "y": 2}"#, "not a finite number within"),
            BadDocument(
                name: "1,000,001 lines",
                kind: .bytes(
                    Array(#"{"version": 1, "lines": [0"#.utf8)
                        + Array(repeating: [0x2C, 0x30], count: 1_000_000).joined()
                        + Array("]}".utf8)),
                problem: "1000001 lines is more than the 1000000"),
            BadDocument(
                name: "a file of maximumFileSize + 1 byte", kind: .sparse(DocumentCodec.maximumFileSize + 1),
                problem: "more than the \(DocumentCodec.maximumFileSize)"),
            BadDocument(name: "a directory", kind: .directory, problem: "is a directory"),
            BadDocument(name: "a symlink loop", kind: .symlinkLoop, problem: "symlink loop"),
            BadDocument(name: "an unreadable file", kind: .unreadable, problem: "permission denied"),
        ]
    }

    @Test(
        "replay --document with a hostile document exits 1 with one line naming the file and the problem, and writes nothing",
        arguments: BadDocument.all)
    func replayRefusesDocument(document: BadDocument) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/drawing.json"
        try document.create(at: path)
        let script = folder + "/script.jsonl"
        try Data(#"{"t": 0, "id": 1, "phase": "began", "x": 10, "y": 10}"#.utf8).write(to: URL(fileURLWithPath: script))
        let before = try listing(folder)

        let result = try runReplay(
            ["replay", script, "--document", path, "--state", folder + "/state.json", "--png", folder + "/out.png"],
            asNobody: document.kind.isUnreadable)
        #expect(result.status == 1, "\(result.transcript)")
        #expect(result.stderrLines.count == 1, "\(result.transcript)")
        let line = result.stderrLines.first ?? ""
        #expect(line.contains(path + ": "), "\(result.transcript)")
        #expect(line.contains(document.problem), "\(result.transcript)")
        #expect(try listing(folder) == before, "replay wrote or changed something")
    }

    @Test(
        "the window given a hostile document says so in one line, keeps the original, starts empty and saves its first line without overwriting it"
    )
    func windowKeepsHostileDocuments() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let touch = try server.touch
        var tried = 0
        for document in BadDocument.all where !document.kind.isUnreadable {
            // A folder named as the window's document is refused before the window opens (PathCommandLineTests).
            if case .directory = document.kind { continue }
            let folder = server.directory.path + "/case\(tried)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let path = folder + "/drawing.json"
            try document.create(at: path)
            let before = try fingerprint(path)

            let app = try AppProcess(
                display: server.display, document: URL(fileURLWithPath: path), geometry: (400, 300, 0, 0))
            defer { app.stop() }
            // Some hostile documents are large: a debug build on a machine running every suite at once takes a while.
            let problem = try await app.waitForStderrLine(containing: "cannot read document", timeout: .seconds(60))
            try await app.waitForStderrLine(containing: "touchtracker: ready")
            #expect(problem.contains(path + ": ") && problem.contains(document.problem), "\(document): \(problem)")
            #expect(app.stderrLines.filter { $0.contains(path) }.count == 1, "\(document): \(app.transcript)")
            #expect(try fingerprint(path) == before, "\(document): the original changed on loading")

            // The app starts empty: the first line drawn is the only line saved.
            let id = UInt32(tried % 10)
            try touch.touchBegin(id: id, x: 50, y: 50)
            try touch.touchUpdate(id: id, x: 150, y: 80)
            try touch.touchUpdate(id: id, x: 250, y: 100)
            try touch.touchEnd(id: id, x: 250, y: 100)
            try touch.sync()
            let saved: URL
            if document.isRegularFile {
                let copy = try #require(
                    try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.contains(".corrupt-") })
                let contents = before.components(separatedBy: ", mode").first ?? before
                #expect(try fingerprint(folder + "/" + copy).hasPrefix(contents), "\(document): the copy differs")
                saved = URL(fileURLWithPath: path)
            } else {
                let recovery = try #require(problem.components(separatedBy: "saved to ").last, "\(problem)")
                #expect(recovery.hasPrefix(path + ".recovered-"), "\(problem)")
                saved = URL(fileURLWithPath: recovery)
            }
            let document2 = try await SavedDocument.wait(for: saved, lineCount: 1)
            #expect(document2.lines.count == 1, "\(document)")
            if !document.isRegularFile {
                #expect(try fingerprint(path) == before, "\(document): the autosave wrote over the original")
            }
            #expect(try await app.terminate() == 0, "\(app.transcript)")
            tried += 1
        }
        print("hostile documents: \(BadDocument.all.count) tried with replay --document, \(tried) in the window")
    }

    // MARK: Replay scripts

    static let badScripts: [(name: String, text: String, line: Int)] = [
        ("not JSON", "hello\n", 1),
        ("truncated second line", #"{"t": 0, "id": 1, "phase": "began", "x": 1, "y": 1}"# + "\n{\"t\": 0.1, \"id\"", 2),
        ("a JSON array", "\n\n[1, 2]\n", 3),
        ("no t", #"{"id": 1, "phase": "began", "x": 1, "y": 1}"#, 1),
        ("negative t", #"{"t": -1, "id": 1, "phase": "began", "x": 1, "y": 1}"#, 1),
        (
            "t going backwards",
            #"{"t": 1, "id": 1, "phase": "began", "x": 1, "y": 1}"# + "\n"
                + #"{"t": 0.5, "id": 1, "phase": "ended", "x": 1, "y": 1}"#,
            2
        ),
        ("an unknown phase", #"{"t": 0, "id": 1, "phase": "hovered", "x": 1, "y": 1}"#, 1),
        ("a negative id", #"{"t": 0, "id": -3, "phase": "began", "x": 1, "y": 1}"#, 1),
        ("a NaN coordinate", #"{"t": 0, "id": 1, "phase": "began", "x": NaN, "y": 1}"#, 1),
        ("a coordinate of 1e300", #"{"t": 0, "id": 1, "phase": "began", "x": 1e300, "y": 1}"#, 1),
        ("a string coordinate", #"{"t": 0, "id": 1, "phase": "began", "x": "1", "y": 1}"#, 1),
        ("an unknown key", #"{"t": 0, "key": "ctrl+"}"#, 1),
        ("an empty menu title", #"{"t": 0, "menu": ""}"#, 1),
        ("deep nesting", String(repeating: "[", count: 100_000), 1),
        ("bytes that are not UTF-8", "{\"t\": 0, \"key\": \"Delete\"}\n\n{\"t\": 1, \"key\": \"\u{FFFF}\"}", 3),
    ]

    @Test("a malformed replay script exits 1 with one line naming the script and the line, and writes nothing")
    func malformedScripts() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (index, bad) in Self.badScripts.enumerated() {
            let script = folder + "/script\(index).jsonl"
            var bytes = Array(bad.text.utf8)
            if bad.name == "bytes that are not UTF-8" {
                // Replace U+FFFF's encoding with a lone continuation byte.
                bytes = Array(bad.text.utf8.prefix { $0 != 0xEF }) + [0x80] + Array("\"}".utf8)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: script))
            let state = folder + "/state\(index).json"
            let app = try replay(["replay", script, "--state", state])
            let status = try await app.waitForExit(timeout: .seconds(30))
            #expect(status == 1, "\(bad.name): \(app.transcript)")
            #expect(app.stderrLines.count == 1, "\(bad.name): \(app.transcript)")
            #expect(app.stderr.contains(script), "\(bad.name): \(app.transcript)")
            #expect(app.stderr.contains("line \(bad.line):"), "\(bad.name): \(app.transcript)")
            #expect(!FileManager.default.fileExists(atPath: state), "\(bad.name): a state was written")
        }
    }

    @Test("a replay script that is a directory, a symlink loop or missing exits 1 with one line")
    func unreadableScripts() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/dir.jsonl", withIntermediateDirectories: false)
        _ = symlink(folder + "/loop2", folder + "/loop1")
        _ = symlink(folder + "/loop1", folder + "/loop2")
        for (name, problem) in [
            ("dir.jsonl", "is a directory"), ("loop1", "symlink loop"), ("missing", "no such file or folder"),
        ] {
            let app = try replay(["replay", folder + "/" + name, "--state", folder + "/state.json"])
            #expect(try await app.waitForExit() == 1, "\(app.transcript)")
            #expect(app.stderrLines.count == 1 && app.stderr.contains(problem), "\(app.transcript)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/state.json"))
    }

    // MARK: Helpers

    private func replay(_ arguments: [String]) throws -> AppProcess {
        try AppProcess(arguments: arguments, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
    }

    /// Runs `touchtracker` with `arguments` to its end, as root or as user nobody (root reads every file).
    private func runReplay(_ arguments: [String], asNobody: Bool) throws -> (
        status: Int32, stderrLines: [String], transcript: String
    ) {
        var executable = try AppProcess.locateExecutable().path
        var arguments = arguments
        if asNobody {
            arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", executable] + arguments
            executable = "/usr/bin/setpriv"
        }
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ["PATH": "/usr/bin:/bin", "HOME": "/tmp"])
        let termination = process.waitForExit(timeout: .seconds(60))
        let drained = ContinuousClock.now.advanced(by: .seconds(2))
        while !process.outputClosed, ContinuousClock.now < drained { usleep(2_000) }
        let stderr = String(decoding: process.stderr, as: UTF8.self)
        let transcript =
            "$ \(executable) \(arguments.joined(separator: " ")) [\(termination.map(\.description) ?? "running")]\n\(stderr)"
        return (termination?.status ?? -1, stderr.split(separator: "\n").map(String.init), transcript)
    }

    private func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "touchtracker-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        return folder
    }

    /// Every entry of `folder` with its fingerprint.
    private func listing(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map {
            "\($0): \(try fingerprint(folder + "/" + $0))"
        }
    }

    /// Type, size, mode and a digest of the bytes (a sparse file's holes are skipped quickly).
    private func fingerprint(_ path: String) throws -> String {
        var info = stat()
        guard lstat(path, &info) == 0 else { return "missing" }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return "link to \(try FileManager.default.destinationOfSymbolicLink(atPath: path))"
        case S_IFDIR: return "folder \(try FileManager.default.contentsOfDirectory(atPath: path).sorted())"
        default: break
        }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "unreadable" }
        defer { close(fd) }
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { break }
            if memcmp(buffer, zeros, n) != 0 {
                for index in 0..<n {
                    digest = (digest ^ UInt64(buffer[index]) ^ UInt64(offset + index) << 8) &* 0x100_0000_01b3
                }
            }
            offset += n
        }
        return "\(offset) bytes, digest \(digest), mode \(String(info.st_mode & 0o7777, radix: 8))"
    }
}

extension HostileInputTests.BadDocument.Kind {
    var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }
}
