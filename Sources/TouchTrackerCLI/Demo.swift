import ArgumentParser
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerDemoPainter
import TouchTrackerDemos
import TouchTrackerRender
import TouchTrackerSession
import TouchTrackerStore
import TouchTrackerWayland
import TouchTrackerX11

/// `touchtracker demo farm|circle|swipe`: the gesture demos of the UIKit course the app comes from. With `--replay` the scene runs a script on a
/// virtual clock (no display needed) and writes its state and/or a picture; without it the demo opens in a window, on
/// Wayland or X11 as the drawing window chooses (`WindowBackend`).
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Try the gesture demos: the Farm, the Circle and the Swipe (Tab or F1-F3 switches).",
        usage: """
            touchtracker demo <scene> [--geometry <WxH+X+Y>] [--state <path>]
                                      [--backend <wayland|x11>]
                                      [--display <name>] [--verbose]
            touchtracker demo <scene> --replay <path> [--state <path>]
                                      [--png <path>] [--size <WxH>]
            """,
        discussion: """
            farm: tap the background for a hen; tap an animal: hen → egg → chicken → hen; press and hold: the hen \
            is roasted, the egg fried; drag, pinch and turn it (together with two fingers); swipe in from the left \
            edge to clear the farm.
            circle: tap to place the circle, drag to move it, pinch to size it.
            swipe: on the left a swipe detector on raw touches (Horizontal/Vertical), on the right \
            SwipeGestureRecognizer (its direction) and a custom Z recognizer the swipe waits for.
            Keys: Tab and Shift+Tab switch to the next and previous demo; F1, F2 and F3 pick one.
            --replay runs a JSON Lines script of touch and key events (as `touchtracker replay` takes) and, after \
            the last one, lets time run until every timer and animation is done.
            """
    )

    @Argument(help: ArgumentHelp("The scene: farm, circle or swipe.", valueName: "scene"))
    var scene: DemoSceneKind

    @Option(help: ArgumentHelp("Run this replay script (JSON Lines) instead of opening a window.", valueName: "path"))
    var replay: String?

    @Option(
        help: ArgumentHelp(
            "Write the scene's state (JSON) here: with --replay at the end, in a window after every change.",
            valueName: "path"))
    var state: String?

    @Option(help: ArgumentHelp("With --replay: write a picture of the final state (PNG) here.", valueName: "path"))
    var png: String?

    @Option(help: ArgumentHelp("The scene's size.", valueName: "WxH"))
    var size: String = "800x600"

    @Option(
        help: ArgumentHelp(
            "Window size and position (instead of --size); on Wayland the compositor places the window.",
            valueName: "WxH+X+Y"))
    var geometry: String?

    @OptionGroup var windowSystem: WindowSystemOptions

    func validate() throws {
        try CanvasSize.validate(size, option: "--size")
        try PathOption.validate(replay, option: "--replay")
        try PathOption.validate(state, option: "--state")
        try PathOption.validate(png, option: "--png")
        if replay == nil, png != nil {
            throw ValidationError("--png needs --replay (a window draws on the screen)")
        }
        for (output, option) in [(state, "--state"), (png, "--png")] {
            guard let output, let replay else { continue }
            try PathOption.validate(output: output, option: option, isNot: replay, named: "the script")
        }
        try PathOption.validate(outputs: [(state, "--state"), (png, "--png")])
        if let geometry { try CanvasSize.validateGeometry(geometry, option: "--geometry") }
        if replay != nil {
            // A replay opens no window: a window's option would be ignored without a word.
            let windowOptions = [
                ("--geometry", geometry != nil), ("--backend", windowSystem.backend != nil),
                ("--display", windowSystem.display != nil), ("--verbose", windowSystem.verbose),
            ]
            if let (option, _) = windowOptions.first(where: { $0.1 }) {
                throw ValidationError("\(option) is for the window, and --replay opens none (--size sets its size)")
            }
        }
    }

    func run() throws {
        let canvas = CanvasSize(parsing: size)!
        guard let replay else { throw ExitCode(try openWindow(canvas: canvas)) }
        InterruptCleanup.install()
        let events = try Self.readScript(replay)
        let host = DemoHost(kind: scene, size: Size(width: Double(canvas.width), height: Double(canvas.height)))
        DemoReplay.run(events, on: host)
        do {
            if let png {
                let picture = try DemoPainter.render(host.scene, width: canvas.width, height: canvas.height)
                try AtomicFile.write(picture.pngBytes(), to: png, missingFolder: .refuse)
            }
            if let state { try AtomicFile.write(host.snapshot, to: state, missingFolder: .refuse) }
        } catch {
            Diagnostics.error("cannot write the result: \(error)")
            throw ExitCode(1)
        }
    }

    /// Opens the demo in a window on the backend `WindowBackend.choose` picks (falling back to X11 when the choice
    /// allows and Wayland fails, as the drawing window does) and runs it. Returns the exit status.
    private func openWindow(canvas: CanvasSize) throws -> Int32 {
        let environment = RawEnvironment.current()
        Localization.setUp(environment: environment)
        let choice = try windowSystem.choice(environment: environment)
        let geometry =
            geometry.flatMap(WindowGeometry.init(parsing:))
            ?? WindowGeometry(width: canvas.width, height: canvas.height, x: 0, y: 0, isExplicit: false)
        let verbose = windowSystem.verbose
        do {
            return try windowSystem.open(
                choice,
                wayland: {
                    let options = WaylandDemoOptions(geometry: geometry, verbose: verbose, statePath: state)
                    return try WaylandDemoApp(kind: scene, options: options, log: Diagnostics.note).run()
                },
                x11: {
                    let options = X11DemoOptions(
                        displayName: windowSystem.display, geometry: geometry, verbose: verbose, statePath: state)
                    return try X11DemoApp(
                        kind: scene, options: options, environment: environment, log: Diagnostics.note
                    ).run()
                })
        } catch let error as CustomStringConvertible & Error {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
    }

    /// Reads a replay script's touch and key events; menu events have no meaning in a demo and are refused.
    static func readScript(_ path: String) throws -> [(time: Double, event: DemoReplayEvent)] {
        let text = try ScriptFile.read(path)
        let parsed: [TimedReplayEvent]
        do {
            parsed = try ReplayScript.parse(text, isKeyName: KeysymName.isKnown)
        } catch {
            Diagnostics.error("\(Diagnostics.shown(path)): \(error)")
            throw ExitCode(1)
        }
        if let index = parsed.firstIndex(where: { if case .menu = $0.event { true } else { false } }) {
            // Parsed events do not carry their line: count the script's non-blank lines to find it.
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
                .filter { !$0.element.allSatisfy(\.isWhitespace) }.map { $0.offset + 1 }
            let line = index < lines.count ? lines[index] : index + 1
            Diagnostics.error(
                "\(Diagnostics.shown(path)): line \(line): \"menu\" events have no meaning in a demo (demos have no menu)"
            )
            throw ExitCode(1)
        }
        return demoEvents(parsed)
    }

    /// The touch and key events of a parsed script, for `DemoReplay` (menu events are left out).
    static func demoEvents(_ events: [TimedReplayEvent]) -> [(time: Double, event: DemoReplayEvent)] {
        events.compactMap { timed in
            switch timed.event {
            case .touch(let id, let phase, let location, let force, _):
                (timed.time, .touch(id: id, phase: phase, location: location, force: force))
            case .key(let command):
                (timed.time, .key(name: command.key, control: command.control, shift: command.shift))
            case .menu, .stylusHover, .stylusLeft, .scroll:
                nil
            }
        }
    }
}

extension DemoSceneKind: ExpressibleByArgument {}
