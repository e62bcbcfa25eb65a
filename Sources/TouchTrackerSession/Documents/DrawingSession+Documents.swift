import TouchTracker
import TouchTrackerPortal
import TouchTrackerStore

/// New, Open… and Save As… (DESIGN.md §3g): the keys and menu items, the desktop's file dialog (off the loop, its
/// answer back through the wake-up), and the window's title.
extension DrawingSession {
    /// Offers New, Open… and Save As… (Ctrl+N, Ctrl+O, Ctrl+Shift+S and the settings menu), and titles the window
    /// after the drawing.
    public func attachDocumentCommands(_ commands: DocumentCommands) {
        documentCommands = commands
        controller.onDocumentCommand = { [unowned self] command in self.run(command) }
        updateWindowTitle()
    }

    /// Whether the window has handed its place to a drawing opened from it (Ctrl+O on an empty untitled drawing):
    /// the host ends its loop as when the window is closed.
    public var wantsToClose: Bool { documentCommands?.closeRequested.load(ordering: .relaxed) ?? false }

    /// The window's title for the drawing it edits now, told to the host and the accessible tree.
    func updateWindowTitle() {
        guard let commands = documentCommands else { return }
        let path = commands.sync.documentPath
        windowTitle = DocumentNames.windowTitle(
            of: path, dataFolder: commands.dataFolder, translate: Localization.translate)
        documentName = PathText.shown(PathText.name(of: path))
        setWindowTitle?(windowTitle)
        // The accessible window's name follows at the next frame.
        publishedScene = nil
        if options.verbose { log("window title: \(windowTitle)") }
    }

    private func run(_ command: DocumentCommand) {
        guard let commands = documentCommands else { return }
        switch command {
        case .new:
            commands.newDrawing()
        case .open, .saveAs:
            let request =
                command == .open
                ? commands.openRequest(parentWindow: parentWindowHandle, translate: Localization.translate)
                : commands.saveAsRequest(parentWindow: parentWindowHandle, translate: Localization.translate)
            let wakeUp = host.wakeUp
            let shown = commands.chooser.choose(request) { outcome in
                commands.post(.dialog(command, outcome))
                wakeUp()
            }
            if !shown, options.verbose { log("a file dialog is open already") }
        }
    }

    /// Acts on what came back from the file dialog or a Save As (at each frame).
    func serviceDocumentCommands() {
        guard let commands = documentCommands else { return }
        for arrival in commands.take() {
            switch arrival {
            case .dialog(_, .failed(let reason)):
                log("no file dialog: \(reason); drawings still open with touchtracker FILE or --document FILE")
                controller.showNotice(.noFileDialog(reason), for: 6)
            case .dialog(_, .cancelled):
                if options.verbose { log("file dialog cancelled") }
            case .dialog(.open, .chosen(let uris)):
                open(paths(of: uris), commands: commands)
            case .dialog(_, .chosen(let uris)):
                guard let chosen = paths(of: uris).first else { continue }
                saveAs(chosen, commands: commands)
            case .savedAs(.refused(let reason)):
                log("not saved as another drawing: \(reason)")
                controller.showNotice(.saveAsFailed(reason), for: 6)
            case .savedAs(.saved(let path)):
                // Edits made while it was written go to the new file too.
                controller.onEdit?(controller.drawingView.snapshot)
                // Ctrl+S's picture goes beside the drawing's new name, and never over it.
                if options.exportPath != nil { options.exportPath = DocumentNames.picturePath(for: path) }
                options.documentPath = path
                updateWindowTitle()
                controller.showNotice(.savedAs(PathText.shown(PathText.name(of: path))))
            }
        }
    }

    /// The dialog's `file:` URIs as paths; any other is refused in one line.
    private func paths(of uris: [String]) -> [String] {
        let hostName = DroppedFiles.hostName()
        return uris.compactMap { uri in
            switch UriList.path(ofFileURI: uri, hostName: hostName) {
            case .success(let path): return path
            case .failure(let refusal):
                log("the file dialog chose \(uri), which cannot be opened: \(refusal)")
                return nil
            }
        }
    }

    /// Ctrl+O's drawings, each in a window of its own; while this window's drawing is untitled and empty, the
    /// first takes this window's place (it opens in a window of its own, and this one closes: nothing is lost, the
    /// empty untitled drawing stays where it was).
    private func open(_ paths: [String], commands: DocumentCommands) {
        guard !paths.isEmpty else { return }
        commands.openDrawings(paths)
        let view = controller.drawingView
        let empty = loader == nil && view.shapes.isEmpty && view.visibleLinesInProgress.isEmpty
        // Not when the drawing chosen is this window's own: its window stays, brought forward.
        if commands.isUntitled, empty, paths.first != commands.sync.documentPath {
            if options.verbose { log("the empty untitled window gives its place to the drawing opened") }
            commands.closeRequested.store(true, ordering: .relaxed)
            wakeUp()
        }
    }

    /// Save As to `chosen`: written and moved to off the loop (`DocumentSync.saveAs`), said when done.
    private func saveAs(_ chosen: String, commands: DocumentCommands) {
        guard loader == nil else {
            controller.showNotice(.saveAsFailed("the drawing is still being read"), for: 4)
            return
        }
        let (path, completed) = DocumentNames.savedPath(for: chosen)
        let untitled = commands.isUntitled
        let wakeUp = host.wakeUp
        commands.sync.saveAs(
            controller.drawingView.snapshot, to: path, replacing: !completed, removingOld: untitled, session: self
        ) { outcome in
            commands.post(.savedAs(outcome))
            wakeUp()
        }
    }
}
