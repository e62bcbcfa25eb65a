import Foundation
import Testing
import TouchTrackerRender
import XorgTestSupport

/// The command line without a display: --help, --version, the man page, and `export`.
@Suite("Command line")
struct CommandLineTests {
    /// Runs the built `touchtracker` with `arguments`; returns status, stdout and stderr.
    func touchtracker(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let app = try AppProcess(arguments: arguments, environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
        let status = try await app.waitForExit()
        return (status, app.stdout, app.stderr)
    }

    /// The package folder (two levels above this file).
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every `--option` a help text names.
    private func options(in help: String) -> Set<String> {
        var found = Set<String>()
        let scanner = help.components(separatedBy: CharacterSet(charactersIn: " \n[](|),"))
        for word in scanner where word.hasPrefix("--") && word.count > 2 {
            found.insert(String(word.prefix { $0.isLetter || $0 == "-" }))
        }
        return found
    }

    @Test("--help names every subcommand, every subcommand's options, every gesture and every shortcut")
    func helpListsEverything() async throws {
        let help = try await touchtracker(["--help"])
        #expect(help.status == 0)
        for subcommand in ["open", "replay", "export", "demo"] {
            #expect(help.stdout.contains(subcommand), "\(subcommand)")
            let detail = try await touchtracker(["help", subcommand])
            let missing = options(in: detail.stdout).subtracting(options(in: help.stdout))
            #expect(missing.isEmpty, "touchtracker --help does not mention \(missing.sorted()) of \(subcommand)")
        }
        let gesturesAndKeys = [
            "drag", "tap a line", "double-tap", "press and hold", "Right-click", "Delete", "Up/Down/Return", "Escape",
            "Shift+F10", "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y", "Ctrl+S", "F1", "eraser", "Palm Rejection",
        ]
        for item in gesturesAndKeys { #expect(help.stdout.contains(item), "--help does not mention \(item)") }
    }

    @Test(
        "every help page fits 80 columns, usage lines included",
        arguments: [["--help"], ["help", "open"], ["help", "replay"], ["help", "export"], ["help", "demo"]])
    func helpFitsEightyColumns(arguments: [String]) async throws {
        let result = try await touchtracker(arguments)
        #expect(result.status == 0)
        let wide = result.stdout.split(separator: "\n").filter { $0.count > 80 }
        #expect(wide.isEmpty, "\(wide)")
    }

    @Test(
        "a bad argument is one line: the problem and where the options are listed",
        arguments: [
            (["--bogus"], "Unknown option '--bogus' (touchtracker --help lists the options)"),
            (["replay"], "Missing expected argument '<script>' (touchtracker help replay lists the options)"),
            (["--scale", "abc"], "The value 'abc' is invalid for '--scale <factor>'"),
            (["help", "nope"], "there is no command nope; the commands are open, replay, export, thumbnail, demo"),
            (
                ["demo", "farm", "--replay", "s.jsonl", "--geometry", "300x300"],
                "--geometry is for the window, and --replay opens none (--size sets its size)"
            ),
        ])
    func badArgumentIsOneLine(arguments: [String], message: String) async throws {
        let result = try await touchtracker(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("touchtracker: ") && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("the man page names every subcommand, option, gesture and key, and the version --version prints")
    func manPageListsEverything() async throws {
        let man = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Resources/touchtracker.1"), encoding: .utf8)
        let text = man.replacingOccurrences(of: "\\-", with: "-")
        let version = try await touchtracker(["--version"])
        #expect(version.status == 0)
        let number = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(number.split(separator: ".").count == 3, "\(version.stdout)")
        #expect(text.contains(".TH TOUCHTRACKER 1") && text.contains("TouchTracker \(number)"))
        for subcommand in ["open", "replay", "export", "demo"] {
            let detail = try await touchtracker(["help", subcommand])
            for option in options(in: detail.stdout) {
                #expect(text.contains(option), "the man page does not mention \(option) of \(subcommand)")
            }
        }
        for item in [
            "Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y", "Ctrl+S", "F1", "Shift+F10", "Escape", "Delete", "double tap", "eraser",
            "Palm Rejection", "Ctrl+N", "Ctrl+O", "Ctrl+Shift+S", "untitled-N.touchtracker",
        ] {
            #expect(text.contains(item), "the man page does not mention \(item)")
        }
    }

    @Test(
        "replay plays a pen stroke and an eraser stroke from a script: the pen's line, its width from its pressure, and the erased line gone"
    )
    func replayPenAndEraser() async throws {
        let folder = try makeTemporaryFolder("replay-pen")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json").path
        try Data(
            #"{"version": 1, "lines": [{"begin": {"x": 100, "y": 400}, "end": {"x": 700, "y": 400}}], "options": {"widthByPressure": true}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: document))
        let script = folder.appendingPathComponent("pen.jsonl").path
        let lines = [
            #"{"t": 0.00, "hover": "pen", "x": 100, "y": 200}"#,
            #"{"t": 0.05, "id": 1, "phase": "began", "x": 100, "y": 200, "force": 0.5, "tool": "pen"}"#,
            #"{"t": 0.10, "id": 1, "phase": "moved", "x": 700, "y": 200, "force": 0.5, "tool": "pen"}"#,
            #"{"t": 0.15, "id": 1, "phase": "ended", "x": 700, "y": 200, "tool": "pen"}"#,
            #"{"t": 0.30, "hover": "out"}"#,
            #"{"t": 0.50, "id": 2, "phase": "began", "x": 400, "y": 300, "tool": "eraser"}"#,
            #"{"t": 0.55, "id": 2, "phase": "moved", "x": 400, "y": 500, "tool": "eraser"}"#,
            #"{"t": 0.60, "id": 2, "phase": "ended", "x": 400, "y": 500, "tool": "eraser"}"#,
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: script))
        let state = folder.appendingPathComponent("state.json").path
        let png = folder.appendingPathComponent("out.png").path
        let result = try await touchtracker(["replay", script, "--document", document, "--state", state, "--png", png])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        let text = try String(contentsOfFile: state, encoding: .utf8)
        #expect(
            text.contains(#"{"begin": {"x": 100, "y": 200}, "end": {"x": 700, "y": 200}, "width": 15}"#)
                && !text.contains(#""y": 400"#), "\(text)")
        // The picture shows the pen's line and not the erased one.
        let picture = try CairoSurface(readingPNG: png)
        let pen = try #require(picture.pixel(x: 400, y: 200))
        let erased = try #require(picture.pixel(x: 200, y: 400))
        #expect(max(pen.red, pen.green, pen.blue) < 40 && min(erased.red, erased.green, erased.blue) > 200)
    }

    @Test(
        "export of an unreadable document prints one 'cannot read document' line, exits 1 and writes nothing",
        arguments: ["not json", #"{"version": 99, "lines": []}"#, nil])
    func exportRefusesBadDocument(contents: String?) async throws {
        let folder = try makeTemporaryFolder("export-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json")
        if let contents { try Data(contents.utf8).write(to: document) }
        for format in ["png", "svg", "pdf"] {
            let out = folder.appendingPathComponent("out.\(format)").path
            let result = try await touchtracker(["export", document.path, "--\(format)", out])
            #expect(result.status == 1, "\(result)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("touchtracker: cannot read document "), "\(result.stderr)")
            #expect(lines.first?.contains(document.path) == true, "\(result.stderr)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == (contents == nil ? [] : ["d.json"]), "\(left)")
    }

    @Test("export wants exactly one of --png, --svg and --pdf")
    func exportNeedsOneFormat() async throws {
        let none = try await touchtracker(["export", "/nonexistent.json"])
        #expect(none.status == 64 && none.stderr.contains("exactly one of --png, --svg and --pdf"), "\(none)")
        let two = try await touchtracker(["export", "/nonexistent.json", "--png", "/tmp/a.png", "--svg", "/tmp/a.svg"])
        #expect(two.status == 64, "\(two)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/a.png"))
    }

    @Test("an export ended by SIGTERM while it writes removes its temporary file and leaves no output")
    func interruptedExportLeavesNothing() async throws {
        let folder = try makeTemporaryFolder("export-interrupted")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Enough lines that the SVG takes a while to write.
        let lines = (0..<300_000).map { index in
            #"{"begin": {"x": \#(index % 800), "y": \#(index * 7 % 600)}, "end": {"x": \#(index * 13 % 800), "y": 5}}"#
        }
        let document = folder.appendingPathComponent("d.json")
        try Data(#"{"version": 1, "lines": [\#(lines.joined(separator: ","))]}"#.utf8).write(to: document)
        let out = folder.appendingPathComponent("out.svg").path
        func names() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] }
        // The signal is sent the moment the kernel reports the temporary file made (inotify, not polling, which a
        // busy machine can make late). An export that still finished first proves nothing: it is tried again.
        for _ in 0..<5 {
            try? FileManager.default.removeItem(atPath: out)
            let created = try FolderCreations(watching: folder.path)
            let app = try AppProcess(
                arguments: ["export", document.path, "--svg", out],
                environment: ["DISPLAY": nil, "WAYLAND_DISPLAY": nil])
            defer { app.stop() }
            let pid = app.pid
            guard await created.next(startingWith: ".out.svg.tmp-", timeout: 60, then: { kill(pid, SIGTERM) }) else {
                Issue.record("no temporary file was made: \(app.transcript)")
                return
            }
            let status = try await app.waitForExit(timeout: .seconds(30))
            if status == 0 { continue }
            #expect(status == 128 + SIGTERM, "\(app.transcript)")
            #expect(names() == ["d.json"])
            return
        }
        Issue.record("every export finished before its SIGTERM arrived")
    }

    @Test("an export started ignoring SIGHUP (nohup) goes on through one and writes its output")
    func exportIgnoringHangUpFinishes() async throws {
        let folder = try makeTemporaryFolder("export-nohup")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = (0..<100_000).map { #"{"begin": {"x": \#($0 % 800), "y": 5}, "end": {"x": 5, "y": \#($0 % 600)}}"# }
        let document = folder.appendingPathComponent("d.json")
        try Data(#"{"version": 1, "lines": [\#(lines.joined(separator: ","))]}"#.utf8).write(to: document)
        let out = folder.appendingPathComponent("out.svg").path
        let created = try FolderCreations(watching: folder.path)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `exec` keeps the shell's process id, so the signal below reaches the export itself.
        shell.arguments = [
            "-c", #"trap '' HUP; exec "$0" export "$1" --svg "$2""#, try AppProcess.locateExecutable().path,
            document.path, out,
        ]
        try shell.run()
        let pid = shell.processIdentifier
        #expect(await created.next(startingWith: ".out.svg.tmp-", timeout: 60, then: { kill(pid, SIGHUP) }))
        shell.waitUntilExit()
        #expect(shell.terminationReason == .exit && shell.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test(
        "an option given twice is refused in one line, not the earlier one dropped without a word",
        arguments: [
            ["export", "d.json", "--png", "/tmp/twice-a.png", "--png", "/tmp/twice-b.png"],
            ["replay", "s.jsonl", "--state=/tmp/twice-a.json", "--state", "/tmp/twice-b.json"],
        ])
    func optionGivenTwiceIsRefused(arguments: [String]) async throws {
        let result = try await touchtracker(arguments)
        let option = arguments.first { $0.hasPrefix("--") }!.prefix { $0 != "=" }
        #expect(result.status == 64 && result.stderr.contains("\(option) is given twice; give it once"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test(
        "a value that starts with - is named as such, with the way to give it, not called missing",
        arguments: [["replay", "s.jsonl", "--size", "-5x3"], ["export", "d.json", "--png", "-o.png"]])
    func dashedValueIsExplained(arguments: [String]) async throws {
        let result = try await touchtracker(arguments)
        let (option, value) = (arguments[2], arguments[3])
        #expect(result.status == 64, "\(result)")
        #expect(
            result.stderr.contains(
                "\(option) \(value): a value that starts with - is read as an option; write \(option)=\(value)"),
            "\(result)")
    }

    @Test(
        "a display that cannot be opened is named with where it came from: --display or DISPLAY",
        arguments: [true, false])
    func unopenableDisplayNamesItsSource(byOption: Bool) async throws {
        // A folder of its own: the two cases run at once, and one document would be the other's ("already open").
        let folder = try makeTemporaryFolder("unopenable-display")
        defer { try? FileManager.default.removeItem(at: folder) }
        let display = try unservedDisplay()
        let app = try AppProcess(
            arguments: (byOption ? ["--display", display] : [])
                + ["--document", folder.appendingPathComponent("d.json").path],
            environment: ["DISPLAY": byOption ? nil : display, "WAYLAND_DISPLAY": nil])
        defer { app.stop() }
        let status = try await app.waitForExit()
        #expect(status != 0)
        let source = byOption ? "--display" : "DISPLAY"
        #expect(app.stderr.contains("cannot open X display \"\(display)\" named by \(source);"), "\(app.transcript)")
    }

    @Test("a --geometry with more digits than any screen is too large, not malformed")
    func hugeGeometryIsTooLarge() async throws {
        let result = try await touchtracker(["--geometry", "1000000x10"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("is too large: at most 16384 pixels a side"), "\(result)")
    }

    @Test("replay refuses a key that is no X keysym, naming the line and the keysym meant, and writes nothing")
    func replayRefusesUnknownKey() async throws {
        let folder = try makeTemporaryFolder("replay-key")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("s.jsonl")
        try Data("{\"t\": 0, \"key\": \"space\"}\n{\"t\": 1, \"key\": \"Space\"}\n".utf8).write(to: script)
        let state = folder.appendingPathComponent("state.json").path
        let result = try await touchtracker(["replay", script.path, "--state", state])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(#"line 2: "Space" is not an X keysym name (names are case-sensitive: "space")"#),
            "\(result)")
        #expect(!FileManager.default.fileExists(atPath: state))
    }

    @Test("SIGTERM ends a window stuck connecting to a Wayland socket that never answers")
    func signalEndsAStuckWaylandConnection() async throws {
        let folder = try makeTemporaryFolder("silent-compositor")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A socket that accepts connections and never says a word: the first round trip waits for ever.
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = folder.appendingPathComponent("wayland-silent").path
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() where index < raw.count - 1 { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(listener, 4) == 0)
        let app = try AppProcess(
            arguments: ["--backend", "wayland", "--document", folder.appendingPathComponent("d.json").path],
            environment: ["WAYLAND_DISPLAY": path, "DISPLAY": nil])
        defer { app.stop() }
        try await Task.sleep(for: .seconds(1))
        let status = try await app.terminate(timeout: .seconds(5))
        #expect(status == 128 + SIGTERM, "\(app.transcript)")
    }

    @Test("without XDG_RUNTIME_DIR a Wayland socket name gets one line saying so, status 2, and no window")
    func missingRuntimeFolderIsOneLine() async throws {
        let folder = try makeTemporaryFolder("no-runtime-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try AppProcess(
            arguments: ["--document", folder.appendingPathComponent("d.json").path],
            environment: [
                "WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": nil, "WAYLAND_SOCKET": nil, "DISPLAY": nil,
            ])
        let status = try await app.waitForExit()
        #expect(status == 2)
        let lines = app.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("XDG_RUNTIME_DIR is not set"), "\(app.transcript)")
    }
}
