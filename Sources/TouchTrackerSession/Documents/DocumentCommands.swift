import Synchronization
import TouchTracker
import TouchTrackerPortal
import TouchTrackerStore

/// What a window needs for New, Open… and Save As… (DESIGN.md §3g): the desktop's file dialog, the document's sync
/// (its path now, and Save As), the data folder untitled drawings live in, and how to open drawings in windows of
/// their own. Made by the command line, attached with `DrawingSession.attachDocumentCommands`.
public final class DocumentCommands: Sendable {
    /// The app's data folder (`$XDG_DATA_HOME/touchtracker`): untitled drawings live there.
    public let dataFolder: String
    /// Where Save As starts for an untitled drawing (the home folder).
    public let home: String
    let sync: DocumentSync
    let chooser: PortalFileChooser
    /// Ctrl+N: a new untitled drawing in a window of its own (called on the loop; it must not block).
    let newDrawing: @Sendable () -> Void
    /// Opens each drawing in a window of its own (called on the loop; it must not block).
    let openDrawings: @Sendable ([String]) -> Void
    /// What came back from a dialog or a Save As, for the loop.
    let arrivals = Mutex<[Arrival]>([])
    /// Set once the window has handed its place to the drawing opened from it: the host's loop ends.
    let closeRequested = Atomic<Bool>(false)

    enum Arrival: Sendable {
        case dialog(DocumentCommand, FileChooserOutcome)
        case savedAs(DocumentSync.SaveAsOutcome)
    }

    public init(
        dataFolder: String, home: String, sync: DocumentSync, chooser: PortalFileChooser,
        newDrawing: @escaping @Sendable () -> Void, openDrawings: @escaping @Sendable ([String]) -> Void
    ) {
        self.dataFolder = dataFolder
        self.home = home
        self.sync = sync
        self.chooser = chooser
        self.newDrawing = newDrawing
        self.openDrawings = openDrawings
    }

    /// Whether the window's drawing is untitled now.
    var isUntitled: Bool { DocumentNames.isUntitled(sync.documentPath, dataFolder: dataFolder) }

    func post(_ arrival: Arrival) { arrivals.withLock { $0.append(arrival) } }

    func take() -> [Arrival] {
        arrivals.withLock { arrivals in
            defer { arrivals = [] }
            return arrivals
        }
    }

    /// The dialog Ctrl+O shows: several drawings at once, in the data folder while the drawing is untitled (where
    /// closed untitled drawings stay), else in the drawing's folder.
    func openRequest(parentWindow: String, translate: Translate) -> FileChooserRequest {
        var request = FileChooserRequest(
            kind: .open(multiple: true), title: Message.openDialogTitle.localized(translate))
        request.parentWindow = parentWindow
        request.filters = filters(translate)
        request.currentFilter = request.filters.first
        let folder = isUntitled ? dataFolder : PathText.folder(of: sync.documentPath)
        request.currentFolder = PathText.bytes(folder)
        return request
    }

    /// The dialog Ctrl+Shift+S shows: the drawing's own name and folder, or for an untitled one "Untitled
    /// .touchtracker" in the home folder.
    func saveAsRequest(parentWindow: String, translate: Translate) -> FileChooserRequest {
        let path = sync.documentPath
        var request = FileChooserRequest(kind: .save, title: Message.saveAsDialogTitle.localized(translate))
        request.parentWindow = parentWindow
        request.filters = filters(translate)
        request.currentFilter = request.filters.first
        request.currentName = DocumentNames.suggestedName(for: path, dataFolder: dataFolder, translate: translate)
        request.currentFolder = PathText.bytes(isUntitled ? home : PathText.folder(of: path))
        return request
    }

    private func filters(_ translate: Translate) -> [FileChooserRequest.Filter] {
        FileChooserRequest.drawingFilters(
            drawingsName: Message.drawingsFilter.localized(translate),
            jsonName: Message.jsonDrawingsFilter.localized(translate))
    }
}
