import ArgumentParser
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore

/// `touchtracker replay SCRIPT`: runs a script of touch, key and menu events through the app's own recognizers
/// and controller on a virtual clock, then writes the state and/or a picture.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a JSON Lines script of touch, key and menu events on a virtual clock.",
        discussion: """
            Each line is one event, "t" in seconds from the start:
              {"t": 0.00, "id": 1, "phase": "began", "x": 100, "y": 100}   (phase: began, moved, ended, cancelled)
              {"t": 1.20, "key": "Delete"}                                   (an X keysym, e.g. "ctrl+z")
              {"t": 2.00, "menu": "Delete"}                                  (activate the open menu's item)
            After the last event time runs on until no gesture timer is pending. Nothing is written if the script \
            or the document is malformed.
            """
    )

    @Argument(help: "The replay script (JSON Lines).")
    var script: String

    @Option(help: ArgumentHelp("A document to start from.", valueName: "path"))
    var document: String?

    @Option(help: ArgumentHelp("Write the final state snapshot (JSON) here.", valueName: "path"))
    var state: String?

    @Option(help: ArgumentHelp("Write a picture of the final state (PNG) here.", valueName: "path"))
    var png: String?

    @Option(help: ArgumentHelp("Canvas size.", valueName: "WxH"))
    var size: String = "800x600"

    @Option(
        help: ArgumentHelp("Scale line width, hit radius, gesture distances and menu (HiDPI).", valueName: "factor"))
    var scale: Double = 1

    func validate() throws {
        guard CanvasSize(parsing: size) != nil else {
            throw ValidationError("--size \"\(size)\" is not WxH with both between 1 and 16384 (for example 800x600)")
        }
        guard (0.5...8).contains(scale) else { throw ValidationError("--scale \(scale) is not between 0.5 and 8") }
    }

    func run() throws {
        let canvas = CanvasSize(parsing: size)!
        let text = try Self.readScript(script)
        let events: [TimedReplayEvent]
        do {
            events = try ReplayScript.parse(text)
        } catch {
            Diagnostics.error("\(script): \(error)")
            throw ExitCode(1)
        }
        var drawing = Drawing()
        if let document { drawing = try DocumentLoading.loadOrExit(document) }
        let controller = DrawingController(
            size: Size(width: Double(canvas.width), height: Double(canvas.height)), drawing: drawing, scale: scale)
        ReplayRunner.run(events, on: controller)
        do {
            if let png {
                let renderer = try DrawingRenderer(width: canvas.width, height: canvas.height)
                _ = renderer.frame(
                    for: controller.drawingView, menu: controller.menu, overlay: controller.overlay, forceFull: true)
                try renderer.canvas.writePNG(to: png)
            }
            if let state { try AtomicFile.write(controller.snapshot.encoded(), to: state) }
        } catch {
            Diagnostics.error("cannot write the result: \(error)")
            throw ExitCode(1)
        }
    }
}

extension Replay {
    /// The largest script read: far beyond any hand-written or recorded one.
    static let maximumScriptSize = 256 * 1024 * 1024

    /// The script's text, or one line naming the file and the problem (with the line number for text that is not
    /// UTF-8) and exit status 1.
    static func readScript(_ path: String) throws -> String {
        func fail(_ problem: String) -> ExitCode {
            Diagnostics.error("cannot read replay script \(DocumentFileError(path: path, problem: problem))")
            return ExitCode(1)
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            throw fail(
                code == ELOOP ? "too many levels of symbolic links (a symlink loop?)" : String(cString: strerror(code)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw fail("is a directory, not a script") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw fail("is not a regular file") }
        guard Int(info.st_size) <= maximumScriptSize else {
            throw fail("the file is \(info.st_size) bytes, more than the \(maximumScriptSize) allowed")
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw fail(error.localizedDescription)
        }
        if let text = String(validating: data, as: UTF8.self) { return text }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let bad = (lines.firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
        Diagnostics.error("\(path): line \(bad): not UTF-8 text")
        throw ExitCode(1)
    }
}

/// A `WxH` canvas size.
struct CanvasSize {
    var width: Int
    var height: Int

    init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...16384).contains(width), (1...16384).contains(height)
        else { return nil }
        self.width = width
        self.height = height
    }
}
