import ArgumentParser
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerSession
import TouchTrackerStore
import TouchTrackerX11

/// `touchtracker replay SCRIPT`: runs a script of touch, key and menu events through the app's own recognizers
/// and controller on a virtual clock, then writes the state and/or a picture.
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run a JSON Lines script of touch, key and menu events on a virtual clock.",
        usage: """
            touchtracker replay <script> [--document <path>] [--state <path>]
                                         [--png <path>] [--size <WxH>]
                                         [--scale <factor>]
            """,
        discussion: """
            Each line is one event, "t" in seconds from the start:
              {"t": 0.00, "id": 1, "phase": "began", "x": 100, "y": 100}
                a touch; phase: began, moved, ended, cancelled, claimed;
                optional: "tool" (finger, mouse, pen, eraser), "force"
              {"t": 0.30, "hover": "pen", "x": 10, "y": 20}
                a pen hovering ("eraser" too; "out" once it leaves)
              {"t": 1.20, "key": "Delete"}
                a key: an X keysym, with modifiers as "ctrl+z"
              {"t": 2.00, "menu": "Delete"}
                activates the open menu's item of that title
            After the last event time runs on until no gesture timer is
            pending. Nothing is written if the script or the document is
            malformed.
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
        help: ArgumentHelp(
            "Pixels of the picture per drawing unit (2: a picture twice as sharp, of the same drawing).",
            valueName: "factor"))
    var scale: Double = 1

    func validate() throws {
        try CanvasSize.validate(size, option: "--size")
        try CanvasSize.validate(scale: scale, of: size)
        try PathOption.validate(script, option: "the script")
        try PathOption.validate(document, option: "--document")
        try PathOption.validate(state, option: "--state")
        try PathOption.validate(png, option: "--png")
        for (output, option) in [(state, "--state"), (png, "--png")] {
            guard let output else { continue }
            if let document { try PathOption.validate(output: output, option: option, isNot: document) }
            try PathOption.validate(output: output, option: option, isNot: script, named: "the script")
        }
        try PathOption.validate(outputs: [(state, "--state"), (png, "--png")])
    }

    func run() throws {
        InterruptCleanup.install()
        let canvas = CanvasSize(parsing: size)!
        let text = try ScriptFile.read(script)
        let events: [TimedReplayEvent]
        do {
            events = try ReplayScript.parse(text, isKeyName: KeysymName.isKnown)
        } catch {
            Diagnostics.error("\(Diagnostics.shown(script)): \(error)")
            throw ExitCode(1)
        }
        var drawing = Drawing()
        if let document { drawing = try DocumentLoading.loadOrExit(document) }
        let controller = DrawingController(
            size: Size(width: Double(canvas.width), height: Double(canvas.height)), drawing: drawing)
        ReplayRunner.run(events, on: controller)
        do {
            if let png {
                // --size is in drawing units; --scale gives the picture's pixels per unit.
                let renderer = try DrawingRenderer(
                    width: DrawingExporter.pixels(canvas.width, at: scale),
                    height: DrawingExporter.pixels(canvas.height, at: scale), scale: scale)
                _ = renderer.frame(
                    for: controller.drawingView, menu: controller.menu, overlay: controller.overlay, forceFull: true)
                try AtomicFile.write(renderer.canvas.pngBytes(), to: png, missingFolder: .refuse)
            }
            if let state { try AtomicFile.write(controller.snapshot.encoded(), to: state, missingFolder: .refuse) }
        } catch {
            Diagnostics.error("cannot write the result: \(error)")
            throw ExitCode(1)
        }
    }
}

/// A `WxH` canvas size.
struct CanvasSize {
    var width: Int
    var height: Int

    /// The largest side of a canvas, a window or an export: Cairo's image surfaces go no larger than 32767, and
    /// 16384 x 16384 is already a gigabyte of pixels.
    static let largestSide = 16384

    init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
            (1...Self.largestSide).contains(width), (1...Self.largestSide).contains(height)
        else { return nil }
        self.width = width
        self.height = height
    }

    /// Refuses `--scale` outside 0.5...8, or one that makes `size` (drawing units, `WxH`) more pixels than a picture
    /// may have.
    static func validate(scale: Double, of size: String?) throws {
        guard (0.5...8).contains(scale) else { throw ValidationError("--scale \(scale) is not between 0.5 and 8") }
        guard let size, let canvas = CanvasSize(parsing: size) else { return }
        let side = DrawingExporter.pixels(max(canvas.width, canvas.height), at: scale)
        if side > largestSide {
            throw ValidationError(
                "--size \(size) at --scale \(scale) is \(side) pixels a side, more than \(largestSide); "
                    + "give a smaller --size or --scale")
        }
    }

    /// Refuses `text` as `option`'s value, saying what is wrong: not `WxH`, or too large.
    static func validate(_ text: String, option: String) throws {
        guard CanvasSize(parsing: text) == nil else { return }
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        if parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 {
            throw ValidationError(
                "\(option) \"\(text)\" is too large: at most \(largestSide) pixels a side (for example 800x600)")
        }
        throw ValidationError("\(option) \"\(text)\" is not WxH with both between 1 and 16384 (for example 800x600)")
    }

    /// Refuses a window geometry (`WxH+X+Y`) as `option`'s value, saying what is wrong.
    static func validateGeometry(_ text: String, option: String) throws {
        guard let geometry = WindowGeometry(parsing: text) else {
            // Sides of more digits than a geometry reads (`1000000x10`) are too large, not malformed.
            let sides = text.prefix { $0 != "+" && $0 != "-" }.lowercased().split(
                separator: "x", omittingEmptySubsequences: false)
            if sides.count == 2,
                sides.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                sides.contains(where: { $0.count > String(largestSide).count })
            {
                throw ValidationError(
                    "\(option) \"\(text)\" is too large: at most \(largestSide) pixels a side (for example 800x600+0+0)"
                )
            }
            throw ValidationError("\(option) \"\(text)\" is not WxH or WxH+X+Y (for example 800x600+0+0)")
        }
        guard geometry.width <= largestSide, geometry.height <= largestSide else {
            throw ValidationError(
                "\(option) \"\(text)\" is too large: at most \(largestSide) pixels a side (for example 800x600+0+0)")
        }
    }
}
