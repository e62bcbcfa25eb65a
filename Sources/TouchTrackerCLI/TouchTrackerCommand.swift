import ArgumentParser
import Glibc

/// The `touchtracker` command: opens the window by default; subcommands work without a display.
@main
struct TouchTrackerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker",
        abstract: "Draw lines with several fingers (or the mouse) at once.",
        discussion: """
            Commands (see 'touchtracker help <subcommand>'):
              touchtracker [open] [--document PATH] [--geometry WxH+X+Y] [--display NAME] [--scale FACTOR]
                [--verbose] [--trace-frames] [--painter-threads N]
              touchtracker replay SCRIPT [--document IN] [--state OUT] [--png OUT] [--size WxH] [--scale FACTOR]
              touchtracker export DOCUMENT (--png|--svg|--pdf) OUT [--size WxH]
              touchtracker demo (farm|circle|swipe) [--geometry WxH+X+Y] [--state OUT] [--display NAME] [--verbose]
              touchtracker demo (farm|circle|swipe) --replay SCRIPT [--state OUT] [--png OUT] [--size WxH]
            Gestures (fingers or mouse button 1): drag to draw a line (red while drawing, black when done; \
            several fingers draw several lines at once); tap a line to select it and open the Delete menu; tap \
            elsewhere to deselect; double-tap to clear; press and hold a line, then drag, to move it. Right-click \
            a line to open its menu at once; right-click the empty canvas for the settings menu. Swipe up with \
            three fingers for the colour menu.
            Challenges (each off until switched on; saved with the document): O toggles two-finger circles (two \
            fingers down within 0.1 s draw the circle that fits the box between them; select, delete, move and \
            undo them like lines); A toggles colour by angle (hue = the line's angle); W toggles width by speed \
            (faster is thinner, 1-20 px); P toggles width by pressure (a normal press is 10 px, 1-20 px, on \
            devices that report pressure); C opens the colour menu (Black, Red, Green, Blue, Yellow) for new lines; \
            F2 opens the settings menu.
            Keys: Delete deletes the selected line; Up/Down/Return choose in the menu, Escape closes it; Menu or \
            Shift+F10 opens it; Ctrl+Z undoes; Ctrl+Shift+Z or Ctrl+Y redoes; Ctrl+S exports a PNG next to the \
            document (drawing.json -> drawing.png); Ctrl+C copies the selected shape (or the whole drawing) to the \
            clipboard as a PNG and as TouchTracker JSON; Ctrl+V pastes TouchTracker shapes at the pointer; F1 shows or hides the gesture inspector (live touches and each \
            recognizer's state).
            Files: the default document is $XDG_DATA_HOME/touchtracker/drawing.json \
            (~/.local/share/touchtracker/drawing.json); the window's size and place are kept next to it in \
            drawing.window.json. HiDPI: sizes follow the X resource Xft.dpi (scale = dpi / 96) unless --scale is \
            given. Manual: man touchtracker.
            """,
        version: "0.1.0",
        subcommands: [OpenWindow.self, Replay.self, Export.self, Demo.self],
        defaultSubcommand: OpenWindow.self
    )

    /// Parses the arguments as their bytes (`RawArguments`), not as Swift's repaired copy, and runs the command.
    static func main() {
        // A pipe whose reader has gone (stderr piped to a closed reader, a `--state` pipe) is an error to handle
        // where it is written, never a reason for the whole app to die with the drawing unsaved.
        signal(SIGPIPE, SIG_IGN)
        main(RawArguments.afterProgramName())
    }
}
