import Foundation
import TouchTracker
import TouchTrackerStore
import TouchTrackerX11

/// Where the window was when it last closed, kept next to the document (`drawing.json` → `drawing.window.json`),
/// so it comes back there.
struct WindowMemory {
    let path: String

    init(documentPath: String) {
        path = Self.sibling(of: documentPath, replacingExtensionWith: "window.json")
    }

    /// `folder/name.json` → `folder/name.EXT`; a name without an extension gets `.EXT` added, and so does a
    /// document that already ends in `.EXT` (so the sibling never replaces the document itself).
    static func sibling(of documentPath: String, replacingExtensionWith newExtension: String) -> String {
        let url = URL(fileURLWithPath: documentPath)
        let base = url.pathExtension.isEmpty ? url : url.deletingPathExtension()
        let sibling = base.path + "." + newExtension
        return sibling == url.path ? url.path + "." + newExtension : sibling
    }

    private struct Stored: Codable {
        var width: Int
        var height: Int
        var x: Int
        var y: Int
    }

    /// The remembered geometry, or nil when there is none (or it is not usable).
    func load() -> WindowGeometry? {
        guard let data = FileManager.default.contents(atPath: path),
            let stored = try? JSONDecoder().decode(Stored.self, from: data),
            (1...16384).contains(stored.width), (1...16384).contains(stored.height),
            abs(stored.x) < 100_000, abs(stored.y) < 100_000
        else { return nil }
        return WindowGeometry(width: stored.width, height: stored.height, x: stored.x, y: stored.y, isExplicit: true)
    }

    func save(_ geometry: WindowGeometry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(
            Stored(width: geometry.width, height: geometry.height, x: geometry.x, y: geometry.y))
        try AtomicFile.write(Array(data) + [0x0A], to: path)
    }
}
