import JSON
import TouchKit
import TouchTracker
import TouchTrackerSession
import TouchTrackerStore
import TouchTrackerX11

/// Where the window was when it last closed, kept next to the document (`drawing.json` → `drawing.window.json`),
/// so it comes back there: its size and place (Wayland tells no place: the last one X11 told is kept), whether it
/// was maximized, and the view over the drawing (its zoom and scroll) when that was not 100 % at the origin.
struct WindowMemory {
    let path: String
    /// The document it is kept beside, which it must never replace.
    let documentPath: String

    init(documentPath: String) {
        self.documentPath = documentPath
        path = PathText.sibling(of: documentPath, replacingExtensionWith: "window.json")
    }

    /// The remembered geometry, or nil when there is none (or it is not usable).
    func load() -> WindowGeometry? {
        guard let data = try? RegularFile.read(path, limit: 4096).bytes,
            let stored = try? JSONParser.parse(data),
            let width = Self.integer(stored["width"]), let height = Self.integer(stored["height"]),
            let x = Self.integer(stored["x"]), let y = Self.integer(stored["y"]),
            (1...16384).contains(width), (1...16384).contains(height), abs(x) < 100_000, abs(y) < 100_000
        else { return nil }
        var geometry = WindowGeometry(width: width, height: height, x: x, y: y, isExplicit: true)
        geometry.isInDrawingUnits = true
        return geometry
    }

    /// Whether the window was maximized when it last closed.
    func loadMaximized() -> Bool {
        guard let data = try? RegularFile.read(path, limit: 4096).bytes, let stored = try? JSONParser.parse(data),
            case .bool(let maximized)? = stored["maximized"]
        else { return false }
        return maximized
    }

    /// The view over the drawing when the window last closed, or nil (100 % at the origin, or none kept).
    func loadView() -> Viewport? {
        guard let data = try? RegularFile.read(path, limit: 4096).bytes, let stored = try? JSONParser.parse(data),
            let view = stored["view"], case .number(let zoom)? = view["zoom"], case .number(let x)? = view["x"],
            case .number(let y)? = view["y"], CanvasNavigation.zoomRange.contains(zoom), abs(x) < 1e9, abs(y) < 1e9
        else { return nil }
        return Viewport(zoom: zoom, offset: Point(x: x, y: y))
    }

    /// Whether the file at `path` is something other than a window's place (ours, even if damaged, is tiny and
    /// never a drawing): larger than one could be, or a drawing (a document of its own named `NAME.window.json`).
    private var holdsSomethingElse: Bool {
        guard let identity = FileIdentity.of(path: path) else { return false }
        guard identity.size <= 4096 else { return true }
        guard let data = try? RegularFile.read(path, limit: 4096).bytes, let stored = try? JSONParser.parse(data)
        else { return false }
        return stored["version"] != nil || stored["lines"] != nil || stored["circles"] != nil
    }

    /// A whole number of at most six digits, or nil.
    private static func integer(_ value: JSONValue?) -> Int? {
        guard case .number(let number) = value, number == number.rounded(), abs(number) < 1e6 else { return nil }
        return Int(number)
    }

    /// Writes `{"height":H,"width":W,"x":X,"y":Y}` (with `"maximized":true` when it was) and a newline,
    /// crash-safe. `geometry` is the size the window has when not maximized.
    /// Writes nothing over the document (the name a link to it) nor over a file that holds something else (another
    /// document named `NAME.window.json`): the place is not worth a drawing.
    func save(_ geometry: WindowGeometry, maximized: Bool = false, view: Viewport = .actualSize) throws {
        if FileIdentity.sameFile(path, documentPath) {
            throw DocumentFileError(path: path, problem: "it is the document itself (a link to it?); left as it is")
        }
        if holdsSomethingElse {
            throw DocumentFileError(
                path: path, problem: "it holds something other than a window's place; left as it is")
        }
        var members: [(key: String, value: JSONValue)] = [
            ("height", .number(Double(geometry.height))), ("width", .number(Double(geometry.width))),
            ("x", .number(Double(geometry.x))), ("y", .number(Double(geometry.y))),
        ]
        if maximized { members.insert(("maximized", .bool(true)), at: 1) }
        if view != .actualSize, view.zoom.isFinite, view.offset.isFinite {
            let shown: JSONValue = .object([
                ("x", .number(view.offset.x)), ("y", .number(view.offset.y)), ("zoom", .number(view.zoom)),
            ])
            members.insert(("view", shown), at: members.firstIndex { $0.key == "width" } ?? members.count)
        }
        try AtomicFile.write(JSONValue.object(members).encoded(layout: .compact) + [0x0A], to: path)
    }
}
