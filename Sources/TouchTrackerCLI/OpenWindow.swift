import ArgumentParser
import BackgroundWork
import Foundation
import Glibc
import Synchronization
import TouchTracker
import TouchTrackerPortal
import TouchTrackerSession
import TouchTrackerStore
import TouchTrackerWayland
import TouchTrackerX11

/// `touchtracker [open] [FILE...] [--document PATH] [--geometry WxH+X+Y]`: the drawing window (a window of its own
/// for each file, the first in this process and each other in a `touchtracker` of its own).
struct OpenWindow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the drawing window (the default when no subcommand is given).",
        usage: """
            touchtracker [open] [<file> ...] [--document <path>]
                                [--geometry <WxH+X+Y>] [--scale <factor>]
                                [--backend <wayland|x11>]
                                [--display <name>] [--verbose] [--trace-frames]
                                [--painter-threads <count>]
            """
    )

    @Option(
        help: ArgumentHelp(
            "The drawing to open and autosave after every edit.",
            discussion: """
                Default: $XDG_DATA_HOME/touchtracker/drawing.json (~/.local/share/touchtracker/drawing.json). \
                One window per document: a second touchtracker on it brings the first window forward and exits. \
                Changes other programs make to it are shown (Ctrl+Z undoes them); a drawing that cannot be saved \
                when the window closes is kept in $XDG_STATE_HOME/touchtracker/.
                """,
            valueName: "path"))
    var document: String?

    @Argument(
        help: ArgumentHelp(
            "Drawings to open, each in a window of its own (a .touchtracker or .json file).",
            discussion: """
                As a file manager or the desktop's menu passes them; the first is as --document would be. A drawing \
                dropped on the window opens the same way. A drawing opened by name joins the desktop's recent files \
                ($XDG_DATA_HOME/recently-used.xbel). In the window, Ctrl+N starts a new untitled drawing (kept in \
                $XDG_DATA_HOME/touchtracker/untitled-N.touchtracker until named), Ctrl+O opens drawings and \
                Ctrl+Shift+S saves this one under a new name, through the desktop's file dialog \
                (org.freedesktop.portal.FileChooser).
                """,
            valueName: "file"))
    var files: [String] = []

    @Option(
        help: ArgumentHelp(
            "Window size and position, as X11 writes it (-X-Y from the right and bottom).",
            discussion: """
                Default: where the window was when it last closed (kept next to the document), or 800x600. On \
                Wayland only the size is used: the compositor places the window.
                """,
            valueName: "WxH+X+Y"))
    var geometry: String?

    @Option(
        help: ArgumentHelp(
            "The window's pixels per drawing unit on X11 (0.5 to 8).",
            discussion: """
                Default: the X resource Xft.dpi divided by 96 (1 when it is not set), followed while the window is \
                open. On Wayland the compositor's scale is used.
                """,
            valueName: "factor"))
    var scale: Double?

    @OptionGroup var windowSystem: WindowSystemOptions

    @Flag(
        help: ArgumentHelp(
            "Print a line with the monotonic time after every frame is presented, on stderr.",
            discussion: "For latency measurements (touchtracker-bench)."))
    var traceFrames = false

    @Option(
        help: ArgumentHelp(
            "Threads that paint the complete lines' tiles in the background (1 to 64).",
            discussion:
                "Default: one per processor. For measurements (touchtracker-bench compares 1 with the default).",
            valueName: "count"))
    var painterThreads: Int?

    func validate() throws {
        if document != nil, !files.isEmpty {
            throw ValidationError(
                "--document and a file to open are both given; give the drawing once (touchtracker FILE, or --document FILE)"
            )
        }
        for file in files {
            try PathOption.validate(file, option: "the file")
            try PathOption.validateFolder(of: file, option: "the file")
            try PathOption.validateNotFolder(file, option: "the file")
        }
        try PathOption.validate(document, option: "--document")
        try PathOption.validateFolder(of: document, option: "--document")
        try PathOption.validateNotFolder(document, option: "--document")
        if let painterThreads, !(1...64).contains(painterThreads) {
            throw ValidationError("--painter-threads \(painterThreads) is not between 1 and 64")
        }
        if let geometry { try CanvasSize.validateGeometry(geometry, option: "--geometry") }
        if let scale, !(0.5...8).contains(scale) {
            throw ValidationError("--scale \(scale) is not between 0.5 and 8")
        }
    }

    func run() throws {
        MemoryPolicy.applyForWindow()
        let environment = RawEnvironment.current()
        // The window speaks the user's language; what goes to stderr and files stays English.
        Localization.setUp(environment: environment)
        let choice = try windowSystem.choice(environment: environment)
        // Each file after the first opens in a touchtracker of its own, on the same window system.
        let passedOn = passedOnArguments
        let verbose = windowSystem.verbose
        for file in files.dropFirst() { Self.openInAnotherProcess(file, passing: passedOn, verbose: verbose) }
        let defaultPath = DocumentLocation.defaultPath(environment: environment)
        let documentPath = document ?? files.first ?? defaultPath
        let memory = WindowMemory(documentPath: documentPath)
        let remembered = memory.load()
        // A drawing opened by name joins the desktop's recent files; an untitled one in the data folder does not
        // (until Save As names it).
        let dataFolder = PathText.folder(of: defaultPath)
        let named = !DocumentNames.isUntitled(documentPath, dataFolder: dataFolder)
        let sync = DocumentSync(
            documentPath: documentPath, environment: environment, verbose: windowSystem.verbose,
            log: { Diagnostics.error($0) },
            recentFiles: RecentFiles(environment: environment, home: NSHomeDirectory()), recordsOpening: named)
        // One window per document: a second one asks the first to come forward and exits.
        if case .heldBy(let owner) = sync.takeLock() {
            try Self.bringForward(owner, documentPath: documentPath, displayName: windowSystem.display, environment)
            throw ExitCode(0)
        }
        defer { sync.close() }
        let window: any DrawingWindow
        do {
            window = try open(
                choice, geometry: geometry.flatMap(WindowGeometry.init(parsing:)) ?? remembered,
                maximized: geometry == nil && memory.loadMaximized(), documentPath: documentPath,
                loadDocument: sync.loadDocument, environment: environment)
        } catch let error as CustomStringConvertible & Error {
            Diagnostics.error(error.description)
            throw ExitCode(2)
        }
        sync.attach(to: window.session, window: window.lockWindow)
        window.session.attachDocumentCommands(
            documentCommands(sync: sync, dataFolder: dataFolder, environment: environment))
        if let view = memory.loadView() { window.session.controller.navigation.show(view) }
        let status = window.run()
        // After a Save As the window's place is remembered beside the drawing's new name.
        let finalMemory = sync.documentPath == documentPath ? memory : WindowMemory(documentPath: sync.documentPath)
        do {
            let size = window.rememberedGeometry
            let geometry = WindowGeometry(
                width: size.width, height: size.height, x: size.x ?? remembered?.x ?? 0,
                y: size.y ?? remembered?.y ?? 0,
                isExplicit: true)
            try finalMemory.save(geometry, maximized: window.isMaximized, view: window.session.controller.viewport)
        } catch {
            Diagnostics.error("cannot remember the window's place: \(error)")
        }
        throw ExitCode(status)
    }

    /// Opens drawings (chosen in Open…, or dropped on the window) as `touchtracker FILE...` opens its further files:
    /// each in a `touchtracker` of its own, started off the loop.
    private var openDrawings: @Sendable ([String]) -> Void {
        let (passedOn, verbose) = (passedOnArguments, windowSystem.verbose)
        return { files in
            Worker.run("open drawings") {
                for file in files { Self.openInAnotherProcess(file, passing: passedOn, verbose: verbose) }
            }
        }
    }

    /// New, Open… and Save As… for the window: the desktop's file dialog, and drawings opened in windows of their
    /// own as `touchtracker FILE...` opens its further files (off the loop).
    private func documentCommands(sync: DocumentSync, dataFolder: String, environment: [String: String])
        -> DocumentCommands
    {
        let (passedOn, verbose) = (passedOnArguments, windowSystem.verbose)
        return DocumentCommands(
            dataFolder: dataFolder, home: environment["HOME"] ?? NSHomeDirectory(), sync: sync,
            chooser: PortalFileChooser(environment: environment),
            newDrawing: {
                Worker.run("new drawing") {
                    let path = UntitledDrawing.next(in: dataFolder)
                    Self.openInAnotherProcess(path, passing: passedOn, verbose: verbose)
                }
            },
            openDrawings: openDrawings)
    }

    /// Opens the window on the chosen backend (falling back to X11 when the choice allows and Wayland fails).
    private func open(
        _ choice: WindowBackend.Choice, geometry: WindowGeometry?, maximized: Bool, documentPath: String,
        loadDocument: @escaping @Sendable () -> Drawing, environment: [String: String]
    ) throws -> any DrawingWindow {
        let exportPath = DocumentNames.picturePath(for: documentPath)
        let verbose = windowSystem.verbose
        return try windowSystem.open(
            choice,
            wayland: { () throws -> any DrawingWindow in
                var options = WaylandAppOptions(
                    geometry: geometry ?? .default, verbose: verbose, scale: scale, exportPath: exportPath)
                options.documentPath = documentPath
                options.traceFrames = traceFrames
                options.painterThreads = painterThreads
                options.maximized = maximized
                options.openDropped = openDrawings
                return try WaylandApp(
                    options: options, loadDocument: loadDocument, environment: environment, log: Diagnostics.note)
            },
            x11: { () throws -> any DrawingWindow in
                var options = X11AppOptions(
                    displayName: windowSystem.display, geometry: geometry ?? .default, verbose: verbose, scale: scale,
                    exportPath: exportPath)
                options.documentPath = documentPath
                options.traceFrames = traceFrames
                options.painterThreads = painterThreads
                options.openDropped = openDrawings
                return try X11App(
                    options: options, loadDocument: loadDocument, environment: environment, log: Diagnostics.note)
            })
    }
}

extension OpenWindow {
    /// Says which window has the drawing and asks it to come forward: an X window by its id; a Wayland window by
    /// handing it this launch's activation token, which only the compositor can act on.
    static func bringForward(
        _ owner: DocumentLock.Owner, documentPath: String, displayName: String?, _ environment: [String: String]
    ) throws {
        let drawing = "the drawing \(Diagnostics.shown(documentPath))"
        switch owner.window {
        case nil:
            Diagnostics.note("\(drawing) is already open (process \(owner.pid)), its window is not up yet")
        case .x11(let window):
            let hex = "0x" + String(window, radix: 16)
            do {
                try WindowActivation.activate(window: window, displayName: displayName, environment: environment)
            } catch {
                Diagnostics.error("cannot bring window \(hex) forward: \(error)")
            }
            Diagnostics.note("\(drawing) is already open in window \(hex) (process \(owner.pid))")
        case .wayland:
            guard let token = LaunchToken.read(from: environment) else {
                Diagnostics.note(
                    "\(drawing) is already open in a Wayland window (process \(owner.pid)); it cannot be brought "
                        + "forward without an activation token (XDG_ACTIVATION_TOKEN is not set: start touchtracker "
                        + "from the desktop's launcher, or switch to that window)")
                return
            }
            do {
                try ActivationChannel.send(token: token, toProcess: owner.pid)
            } catch {
                Diagnostics.error("cannot bring the window of process \(owner.pid) forward: \(error)")
            }
            Diagnostics.note("\(drawing) is already open in a Wayland window (process \(owner.pid))")
        }
    }

    /// Starts `touchtracker --document FILE` with this one's window-system options: a window of its own for `file`,
    /// with its own lock (a drawing already open brings its window forward) and its own memory. The arguments go as
    /// the bytes they were typed (`PathText`), so a Latin-1 name opens that file. It is started through a shell
    /// that puts it in the background and ends at once (waited for here): the window is then nobody's child, so
    /// it is never left a zombie while this one runs.
    /// This window's window-system options, passed on to the windows it opens for further files.
    private var passedOnArguments: [String] {
        var arguments: [String] = []
        if let backend = windowSystem.backend { arguments += ["--backend", backend.rawValue] }
        if let display = windowSystem.display { arguments += ["--display", display] }
        if windowSystem.verbose { arguments.append("--verbose") }
        return arguments
    }

    private static func openInAnotherProcess(_ file: String, passing passedOn: [String], verbose: Bool) {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else {
            Diagnostics.error(
                "cannot open \(Diagnostics.shown(file)) in a window of its own: this program's path is unknown")
            return
        }
        let executable = buffer[..<length].map { UInt8(bitPattern: $0) }
        let arguments = ["--document", file] + passedOn
        let shell = ["sh", "-c", #""$0" "$@" </dev/null &"#].map { Array($0.utf8) }
        let bytes = (shell + [executable] + arguments.map { PathText.bytes($0) }).map { $0 + [0] }
        var pid: pid_t = 0
        var status = withCStrings(bytes) { argv in posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) }
        if status == 0 {
            var exit: Int32 = 0
            while waitpid(pid, &exit, 0) < 0, errno == EINTR {}
            if exit != 0 { status = EAGAIN }
        }
        if status == 0 {
            if verbose {
                Diagnostics.note("opening \(Diagnostics.shown(file)) in a touchtracker of its own")
            }
        } else {
            Diagnostics.error(
                "cannot open \(Diagnostics.shown(file)) in a window of its own: \(String(cString: strerror(status)))")
        }
    }

    /// Calls `body` with a NULL-terminated C array of `strings` (each already NUL-terminated).
    private static func withCStrings<R>(
        _ strings: [[UInt8]], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R
    ) -> R {
        var copies = strings.map { bytes -> UnsafeMutablePointer<CChar>? in
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            bytes.withUnsafeBytes { copy.update(from: $0.bindMemory(to: CChar.self).baseAddress!, count: bytes.count) }
            return copy
        }
        copies.append(nil)
        defer { for copy in copies { copy?.deallocate() } }
        return copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
