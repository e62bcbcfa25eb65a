import TouchTrackerStore

/// What a drop on the window opens: the drawings among the dropped files, each in a window of its own, and one line
/// for everything refused (another computer's file, a web address, a file that is not a drawing). The window
/// systems' drag protocols (XDND, `wl_data_device`) deliver `text/uri-list`; this is the policy, the same on both.
public struct DroppedFiles: Equatable, Sendable {
    /// The most drawings one drop opens: a folder's worth dropped by mistake must not open a hundred windows.
    public static let limit = 16

    /// The drawings to open, in the order dropped, each once.
    public var drawings: [String] = []
    /// One line for each file or URI refused, for stderr.
    public var refusals: [String] = []

    /// The MIME type a drag must offer for the window to take it.
    public static let mimeType = "text/uri-list"

    /// Sorts the URIs of a dropped `text/uri-list`; `hostName` is this computer's (`gethostname`), whose `file:`
    /// URIs are local.
    public init(uriList bytes: [UInt8], hostName: String) {
        for uri in UriList.uris(in: bytes) {
            let shown = Self.shortened(uri)
            switch UriList.path(ofFileURI: uri, hostName: hostName) {
            case .failure(.notAFile):
                refusals.append("dropped \(shown) is not a file; only drawings on this computer open")
            case .failure(.otherComputer(let host)):
                refusals.append(
                    "dropped \(shown) is on another computer (\(Self.shortened(host))); only drawings on this "
                        + "computer open")
            case .failure(.malformed):
                refusals.append("dropped \(shown) is not a well-formed file URI; not opened")
            case .success(let path):
                guard Self.isDrawing(path) else {
                    refusals.append(
                        "dropped \(PathText.shown(path)) is not a drawing (a .touchtracker or .json file); not opened")
                    continue
                }
                if !drawings.contains(path) { drawings.append(path) }
            }
        }
        if drawings.count > Self.limit {
            refusals.append(
                "\(drawings.count) drawings dropped at once; the first \(Self.limit) open, the others do not")
            drawings.removeLast(drawings.count - Self.limit)
        }
    }

    /// Whether `path` names a drawing by its type: `.touchtracker` (`application/x-touchtracker+json`) or `.json`,
    /// in either case.
    public static func isDrawing(_ path: String) -> Bool {
        let name = PathText.name(of: path).lowercased()
        return (name.hasSuffix(".touchtracker") && name != ".touchtracker")
            || (name.hasSuffix(".json") && name != ".json")
    }

    /// A URI as a line shows it: at most 120 characters, control characters as `?`.
    static func shortened(_ text: String) -> String {
        let clean = String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) })
        return clean.count > 120 ? String(clean.prefix(119)) + "…" : clean
    }
}
