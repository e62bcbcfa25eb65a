import ArgumentParser
import TouchTrackerWayland

/// The options that choose the window system, shared by every command that opens a window (`open`, `demo`):
/// `--backend`, `--display` and `--verbose`, what they mean together, and opening on the chosen backend with the
/// fallback to X11 the choice allows.
struct WindowSystemOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The window system to open the window on.",
            discussion: """
                Default: Wayland when WAYLAND_DISPLAY is set (X11 if the compositor cannot be reached and DISPLAY is \
                set too), else X11 when DISPLAY is set.
                """,
            valueName: "wayland|x11"))
    var backend: WindowBackend?

    @Option(help: ArgumentHelp("The X display to use instead of $DISPLAY (implies --backend x11).", valueName: "name"))
    var display: String?

    @Flag(help: "Print the input devices and mode in use, and window life-cycle events, on stderr.")
    var verbose = false

    func validate() throws {
        if display?.isEmpty == true { throw ValidationError("--display is empty; give an X display's name (like :0)") }
        if backend == .wayland, let display {
            throw ValidationError("--display \(display) names an X display; it cannot go with --backend wayland")
        }
    }

    /// The backend to open on (`WindowBackend.choose`); with nothing to open, the one-line error and exit status 2.
    func choice(environment: [String: String]) throws -> WindowBackend.Choice {
        do {
            return try WindowBackend.choose(requested: backend, displayOption: display, environment: environment)
        } catch {
            Diagnostics.error(error.message)
            throw ExitCode(2)
        }
    }

    /// Opens a window on `choice`'s backend: `wayland`, or `x11` when the choice is X11 or allows falling back to
    /// it and the compositor could not be used. `--verbose` says which and why.
    func open<Window>(
        _ choice: WindowBackend.Choice, wayland: () throws -> Window, x11: () throws -> Window
    ) throws -> Window {
        if choice.backend == .wayland {
            if verbose { Diagnostics.note("backend wayland (\(choice.reason))") }
            do {
                return try wayland()
            } catch let error as WaylandError where choice.fallsBackToX11 {
                if verbose {
                    Diagnostics.note("\(error.description); trying X11 (DISPLAY is set)")
                    Diagnostics.note("backend x11 (the Wayland compositor could not be used and DISPLAY is set)")
                }
            }
        } else if verbose {
            Diagnostics.note("backend x11 (\(choice.reason))")
        }
        return try x11()
    }
}
