import ArgumentParser

/// The `touchtracker` command: opens the window by default; subcommands work without a display.
@main
struct TouchTrackerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker",
        abstract: "Draw lines with several fingers (or the mouse) at once.",
        discussion: """
            Gestures (fingers or mouse button 1): drag to draw a line (red while drawing, black when done; \
            several fingers draw several lines at once); tap a line to select it and open the Delete menu; tap \
            elsewhere to deselect; double-tap to clear; press and hold a line, then drag, to move it. Right-click \
            a line to open its menu at once.
            Keys: Delete deletes the selected line; Up/Down/Return choose in the menu, Escape closes it; Menu or \
            Shift+F10 opens it; Ctrl+Z undoes; Ctrl+Shift+Z or Ctrl+Y redoes.
            """,
        version: "0.1.0",
        subcommands: [OpenWindow.self, Replay.self, Demo.self],
        defaultSubcommand: OpenWindow.self
    )
}
