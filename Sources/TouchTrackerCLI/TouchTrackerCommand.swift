import ArgumentParser
import Foundation
import Glibc
import TouchTrackerStore

/// The `touchtracker` command: opens the window by default; subcommands work without a display.
@main
struct TouchTrackerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker",
        abstract: "Draw lines with several fingers (or the mouse) at once.",
        discussion: """
            Commands ('touchtracker help COMMAND' for each one's options):
              touchtracker [open] [FILE...] [--document PATH] [--geometry WxH+X+Y]
                           [--backend wayland|x11] [--display NAME]
                           [--scale FACTOR] [--verbose]
                           [--trace-frames] [--painter-threads N]
              touchtracker replay SCRIPT [--document IN] [--state OUT]
                           [--png OUT] [--size WxH] [--scale FACTOR]
              touchtracker export DOCUMENT (--png|--svg|--pdf) OUT
                           [--size WxH | --view X,Y,W,H] [--scale FACTOR]
              touchtracker thumbnail --size N DOCUMENT OUT
              touchtracker demo farm|circle|swipe [--geometry WxH+X+Y]
                           [--state OUT] [--backend wayland|x11]
                           [--display NAME] [--verbose]
              touchtracker demo farm|circle|swipe --replay SCRIPT
                           [--state OUT] [--png OUT] [--size WxH]

            Gestures (fingers, or mouse button 1):
              drag                   draw a line (each finger its own)
              tap a line             select it and open its Delete menu
              tap elsewhere          deselect
              double-tap             clear the drawing
              press and hold a line  then drag: move it
              Right-click            a line: its menu; the canvas: settings
              three fingers up       the colour menu
              wheel, Shift+wheel     scroll (touchpad: two-finger scroll)
              Ctrl+wheel, pinch      zoom (touchpad pinch; fingers on the
                                     screen only with Fingers Scroll and Zoom)

            A tablet's pen:
              tip                    draws, taps and holds like a finger
              eraser end             erases the shapes it rubs across
              hovering               a ring shows where it will land; fingers
                                     (the palm) draw nothing while a pen is
                                     near (settings: Palm Rejection)

            Keys:
              arrows                 move the keyboard cursor 10 px (Shift: 1)
              Space                  start a line there; Space again ends it
              Shift+Space            start a circle there (one corner); the
                                     arrows move the other, Space ends it
              Tab, Shift+Tab         select the next or previous shape;
                                     the arrows then move it
              Delete                 delete the selected line
              Ctrl+Shift+Delete      clear the drawing (Ctrl+Z undoes)
              Up/Down/Return         choose in the menu (Space too); Escape
                                     closes it, cancels a keyboard stroke,
                                     deselects
              Menu, Shift+F10        open the selected line's menu
              Ctrl+Z                 undo; Ctrl+Shift+Z or Ctrl+Y redo
              Ctrl+C, Ctrl+V         copy (PNG and shapes), paste at the pointer
                                     (or the keyboard cursor)
              Ctrl+S                 export drawing.png beside the document
                                     (what the window shows)
              Ctrl++, Ctrl+=, Ctrl+- zoom in and out (10 % to 1000 %)
              Ctrl+0, Ctrl+Shift+J   100 %; fit the whole drawing
              F1                     gesture inspector; F2 settings; C colours
              O, A, W, P             circles, colour by angle, width by speed,
                                     width by pressure (saved with the drawing)

            Files:
              ~/.local/share/touchtracker/drawing.json   the default document
              drawing.window.json, drawing.png           beside the document
              ~/.local/state/touchtracker/               drawings kept at exit
              ~/.local/share/recently-used.xbel          the desktop's recent
                                                         files: each drawing
                                                         opened by name

            A drawing dropped on the window from a file manager opens in a
            window of its own, as touchtracker FILE opens it.

            Screen readers find the window, the drawing and every shape on the
            accessibility bus (AT-SPI), with the actions select and delete.
            HiDPI: drawings are in drawing units (a pixel at 100 %), the same
            size on every screen; the window follows the compositor's scale on
            Wayland and Xft.dpi / 96 on X11 (unless --scale is given there).
            More in the manual: man touchtracker.
            """,
        version: "0.1.0",
        subcommands: [OpenWindow.self, Replay.self, Export.self, Thumbnail.self, Demo.self],
        defaultSubcommand: OpenWindow.self
    )

    /// Parses the arguments as their bytes (`RawArguments`), not as Swift's repaired copy, and runs the command.
    /// Bad arguments get one line, as every other error does: the problem, and where the options are listed.
    static func main() {
        // A pipe whose reader has gone (stderr piped to a closed reader, a `--state` pipe) is an error to handle
        // where it is written, never a reason for the whole app to die with the drawing unsaved.
        signal(SIGPIPE, SIG_IGN)
        let arguments = RawArguments.afterProgramName()
        if let unknown = unknownHelpTopic(in: arguments) {
            // The parser answers `help nope` with the overview and success, which a script would take for an answer.
            let names = subcommandNames.joined(separator: ", ")
            Diagnostics.error(
                "there is no command \(PathText.shown(unknown)); the commands are \(names) (touchtracker --help lists them)"
            )
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // Help and the version are asked for, not errors: printed in full, as the parser prints them.
            guard exitCode(for: error) != .success else { exit(withError: error) }
            let said = message(for: error)
            let problem =
                dashedValue(in: arguments, missingFrom: said) ?? emptyValue(in: arguments, missingFrom: said)
                ?? optionAfterDoubleDash(in: arguments) ?? singleDashWord(in: arguments) ?? oneLine(said)
            Diagnostics.error("\(problem) (\(helpCommand(for: arguments)) lists the options)")
            Glibc.exit(exitCode(for: error).rawValue)
        }
        if let repeated = repeatedOption(in: arguments) {
            // The parser keeps the last of two, so `--png a.png --png b.png` would write one of them without a word.
            Diagnostics.error(
                "\(repeated) is given twice; give it once (\(helpCommand(for: arguments)) lists the options)")
            Glibc.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The first `--option` given twice (before a `--`), if any; `--option=value` counts as `--option`.
    static func repeatedOption(in arguments: [String]) -> String? {
        var seen = Set<String>()
        for argument in arguments.prefix(while: { $0 != "--" }) where argument.hasPrefix("--") {
            let option = String(argument.prefix { $0 != "=" })
            if !seen.insert(option).inserted { return option }
        }
        return nil
    }

    /// What to say when the parser found no value for an option because its value starts with `-` (`--size -5x3`,
    /// `--state -o.json`): the parser takes such a word for an option, and `--option=value` is the way to give it.
    static func dashedValue(in arguments: [String], missingFrom message: String) -> String? {
        guard let option = optionMissingItsValue(in: message), let index = arguments.firstIndex(of: option),
            index + 1 < arguments.count,
            case let value = arguments[index + 1], value.hasPrefix("-"), !value.hasPrefix("--")
        else { return nil }
        return "\(option) \(PathText.shown(value)): a value that starts with - is read as an option; "
            + "write \(option)=\(PathText.shown(value))"
    }

    /// What to say when the parser found no value for `--option=` (an unset shell variable after the `=`): the
    /// same words as for an empty value given apart (`--document ""`).
    static func emptyValue(in arguments: [String], missingFrom message: String) -> String? {
        guard let option = optionMissingItsValue(in: message),
            arguments.prefix(while: { $0 != "--" }).contains(option + "=")
        else { return nil }
        return pathOptions.contains(option)
            ? "\(option) is empty; give a file's name" : "\(option) is empty; give a value"
    }

    /// The option a parser's "Missing value for '--size <WxH>'" names, or nil for any other message.
    private static func optionMissingItsValue(in message: String) -> String? {
        let prefix = "Missing value for '"
        guard message.hasPrefix(prefix) else { return nil }
        return String(message.dropFirst(prefix.count).prefix { $0 != " " && $0 != "'" })
    }

    /// The options whose value is a file's path.
    static let pathOptions: Set<String> = ["--document", "--state", "--png", "--svg", "--pdf", "--replay"]

    /// Every long option of every command, to tell `-png` (a dash short of `--png`) from a word that is no option.
    static let longOptions: Set<String> = pathOptions.union([
        "--geometry", "--backend", "--display", "--scale", "--verbose", "--trace-frames", "--painter-threads",
        "--size", "--help", "--version",
    ])

    /// What to say about an option written after `--`, when the command line was refused: everything after `--`
    /// is a name, so `export -- d.json --png out.png` has no `--png` and two documents.
    static func optionAfterDoubleDash(in arguments: [String]) -> String? {
        guard let end = arguments.firstIndex(of: "--"),
            let option = arguments[(end + 1)...].first(where: { longOptions.contains(String($0.prefix { $0 != "=" })) })
        else { return nil }
        return "\(PathText.shown(option)) after -- is read as a name, not an option; put the options before --"
    }

    /// What to say about the first word (before a `--`) that starts with a single `-` and is no option (only `-h`
    /// is), when the command line was refused: the parser took it for an option, so a file named `-s.jsonl` went
    /// missing and `-png` was no `--png`, and its own message names neither.
    static func singleDashWord(in arguments: [String]) -> String? {
        guard
            let word = arguments.prefix(while: { $0 != "--" }).first(where: {
                $0.hasPrefix("-") && !$0.hasPrefix("--") && $0 != "-" && $0 != "-h"
            })
        else { return nil }
        let shown = PathText.shown(word)
        if longOptions.contains("-" + word) { return "\(shown) is no option; did you mean -\(shown)?" }
        if word.contains(".") || word.contains("/") {
            return "\(shown) is read as an option, not a file's name; write ./\(shown) for a file of that name"
        }
        return "\(shown) is no option; options start with --"
    }

    /// The subcommands' names, as typed.
    private static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    /// The topic of `help TOPIC` when it names no subcommand.
    private static func unknownHelpTopic(in arguments: [String]) -> String? {
        guard arguments.count >= 2, arguments[0] == "help", !arguments[1].hasPrefix("-") else { return nil }
        return (subcommandNames + ["help"]).contains(arguments[1]) ? nil : arguments[1]
    }

    /// How to list the options of the command `arguments` name.
    private static func helpCommand(for arguments: [String]) -> String {
        guard let first = arguments.first, subcommandNames.contains(first) else { return "touchtracker --help" }
        return "touchtracker help \(first)"
    }

    /// A parser's message on one line: its lines (a value's own help, say) joined.
    private static func oneLine(_ message: String) -> String {
        message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }
}
