import ArgumentParser

/// The `touchtracker` command: opens the window by default; subcommands work without a display.
@main
struct TouchTrackerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker",
        abstract: "Draw lines with several fingers (or the mouse) at once.",
        discussion: """
            Gestures: drag to draw a line (red while drawing, black when done); several fingers draw several \
            lines at once.
            """,
        version: "0.1.0",
        subcommands: [OpenWindow.self],
        defaultSubcommand: OpenWindow.self
    )
}
