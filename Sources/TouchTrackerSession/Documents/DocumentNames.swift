import TouchTracker
import TouchTrackerStore

/// Which drawings are untitled, what they and the window are called, and the names New and Save As choose
/// (DESIGN.md §3g). Pure: the folder is looked at by the caller.
///
/// An untitled drawing lives in the app's data folder (`$XDG_DATA_HOME/touchtracker`) until it is named: the first
/// window's `drawing.json`, and `untitled-N.touchtracker` for each New. Every other path is a named drawing.
public enum DocumentNames {
    /// The extension of the app's own drawings.
    public static let drawingExtension = ".touchtracker"
    /// The first window's untitled drawing.
    public static let defaultName = "drawing.json"

    /// Whether `path` is an untitled drawing: `drawing.json` or `untitled-N.touchtracker` in `dataFolder`.
    public static func isUntitled(_ path: String, dataFolder: String) -> Bool {
        PathText.folder(of: path) == dataFolder && untitledNumber(of: PathText.name(of: path)) != nil
    }

    /// `name`'s place among untitled drawings: 1 for `drawing.json`, N for `untitled-N.touchtracker`; nil for any
    /// other name.
    static func untitledNumber(of name: String) -> Int? {
        if name == defaultName { return 1 }
        guard name.hasPrefix("untitled-"), name.hasSuffix(drawingExtension) else { return nil }
        let digits = name.dropFirst("untitled-".count).dropLast(drawingExtension.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.first != "0", let number = Int(digits),
            number >= 2
        else { return nil }
        return number
    }

    /// The name of the `number`th untitled drawing (2 or more: the first is `drawing.json`).
    public static func untitledName(number: Int) -> String { "untitled-\(number)\(drawingExtension)" }

    /// The first untitled name from 2 on that `isTaken` says is free (a file, or a lock, by that name).
    public static func nextUntitledName(isTaken: (String) -> Bool) -> String {
        var number = 2
        while isTaken(untitledName(number: number)) { number += 1 }
        return untitledName(number: number)
    }

    /// What the window's title calls the drawing: "Untitled", "Untitled 3", or the file's name as shown.
    public static func title(of path: String, dataFolder: String, translate: Translate) -> String {
        let name = PathText.name(of: path)
        guard isUntitled(path, dataFolder: dataFolder), let number = untitledNumber(of: name) else {
            return PathText.shown(name)
        }
        return Message.untitled(number: number == 1 ? nil : number).localized(translate)
    }

    /// The window's title: the drawing's name, then the app's, as GNOME's and KDE's document windows say it.
    public static func windowTitle(of path: String, dataFolder: String, translate: Translate) -> String {
        "\(title(of: path, dataFolder: dataFolder, translate: translate)) — TouchTracker"
    }

    /// The name the Save As dialog suggests: the drawing's own, or for an untitled one "Untitled.touchtracker" in
    /// the user's language.
    public static func suggestedName(for path: String, dataFolder: String, translate: Translate) -> String {
        guard isUntitled(path, dataFolder: dataFolder) else { return PathText.name(of: path) }
        return Message.untitled(number: nil).localized(translate) + drawingExtension
    }

    /// Where Ctrl+S puts the drawing's picture: beside it, its extension replaced by `.png` (`sketch.png` for
    /// `sketch.touchtracker`), the name cut to fit 255 bytes as other names beside a document are.
    public static func picturePath(for documentPath: String) -> String {
        PathText.sibling(of: documentPath, replacingExtensionWith: "png")
    }

    /// The path Save As writes for the name chosen: as chosen when it ends in `.touchtracker` or `.json`, else with
    /// `.touchtracker` added (`completed` true: a file of that name was not confirmed in the dialog).
    public static func savedPath(for chosen: String) -> (path: String, completed: Bool) {
        DroppedFiles.isDrawing(chosen) ? (chosen, false) : (chosen + drawingExtension, true)
    }
}
