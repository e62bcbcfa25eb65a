import ArgumentParser
import Foundation
import TouchTracker
import TouchTrackerX11

/// `touchtracker [open] [--document PATH] [--geometry WxH+X+Y]`: the drawing window.
struct OpenWindow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the drawing window (the default when no subcommand is given)."
    )

    @Option(
        help: ArgumentHelp(
            "The drawing to open and autosave after every edit.",
            discussion: "Default: $XDG_DATA_HOME/touchtracker/drawing.json (~/.local/share/touchtracker/drawing.json).",
            valueName: "path"))
    var document: String?

    @Option(help: ArgumentHelp("Window size and position, as X11 writes it.", valueName: "WxH+X+Y"))
    var geometry: String?

    @Option(help: ArgumentHelp("The X display to use instead of $DISPLAY.", valueName: "name"))
    var display: String?

    @Flag(help: "Print the input devices and mode in use, and window life-cycle events, on stderr.")
    var verbose = false

    func validate() throws {
        if let geometry, WindowGeometry(parsing: geometry) == nil {
            throw ValidationError("--geometry \"\(geometry)\" is not WxH or WxH+X+Y (for example 800x600+0+0)")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        // An unreadable document is kept safe; `store` may then be a recovery file next to it (DocumentLoading).
        let opened = DocumentLoading.loadForEditing(
            DocumentStore(path: document ?? DocumentLocation.defaultPath(environment: environment)))
        let store = opened.store
        let drawing = opened.drawing
        let options = X11AppOptions(
            displayName: display,
            geometry: geometry.flatMap(WindowGeometry.init(parsing:)) ?? .default,
            verbose: verbose)
        let app: X11App
        do {
            app = try X11App(options: options, drawing: drawing, environment: environment, log: Diagnostics.note)
        } catch let error as X11Error {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
        app.controller.onEdit = { drawing in
            do {
                try store.save(drawing)
            } catch {
                Diagnostics.error("cannot save the drawing: \(error)")
            }
        }
        let status = app.run()
        throw ExitCode(status)
    }
}
