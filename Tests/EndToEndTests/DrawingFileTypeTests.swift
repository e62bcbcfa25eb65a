import Foundation
import Testing
import TouchKit
import TouchTracker
import TouchTrackerRender
import TouchTrackerStore
import XorgTestSupport

/// A drawing file as the desktop sees it, with the app installed by `make install`: its
/// type, the app that opens it (GLib's gio and xdg-utils), and its thumbnail made by Xfce's real Tumbler service
/// through the app's thumbnailer.
@Suite("Drawing files on the desktop", .serialized)
struct DrawingFileTypeTests {
    private static let type = "application/x-touchtracker+json"

    /// The process whose window holds the drawing at `path`, as its lock file says, while it runs.
    private func lockHolder(of path: String) -> Int32? {
        // Read through the path's bytes (`PathText`): a name that is not UTF-8 is that file, not a repaired one.
        var bytes: [UInt8] = []
        PathText.withCString(DocumentLock.lockPath(for: path)) { name in
            guard let file = fopen(name, "r") else { return }
            defer { fclose(file) }
            var buffer = [UInt8](repeating: 0, count: 256)
            bytes = Array(buffer[..<fread(&buffer, 1, buffer.count, file)])
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let pid = text.split(separator: "\n").first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) }
        return pid.flatMap { kill($0, 0) == 0 ? $0 : nil }
    }

    /// A drawing of one diagonal line at `url`.
    private func writeDrawing(to url: URL) throws {
        try DocumentStore(path: url.path).save(
            Drawing(lines: [Line(begin: Point(x: 100, y: 100), end: Point(x: 700, y: 500))]))
    }

    @Test("a .touchtracker file is a TouchTracker drawing to gio and xdg-mime, and the app is the one to open it")
    func theDesktopKnowsTheType() throws {
        let desktop = try InstalledDesktop.make()
        defer { desktop.stop() }
        let file = desktop.root.appendingPathComponent("home/sketch.touchtracker")
        try writeDrawing(to: file)
        let info = try desktop.run("/usr/bin/gio", ["info", "-a", "standard::content-type", file.path])
        #expect(info.output.contains("standard::content-type: \(Self.type)"), "\(info.output)")
        let handler = try desktop.run("/usr/bin/gio", ["mime", Self.type])
        #expect(
            handler.output.contains("Default application for “\(Self.type)”: touchtracker.desktop"), "\(handler.output)"
        )
        // xdg-utils ask GLib on GNOME, as a GNOME session's xdg-open does.
        let gnome = ["XDG_CURRENT_DESKTOP": "GNOME"]
        let type = try desktop.run("/usr/bin/xdg-mime", ["query", "filetype", file.path], extra: gnome)
        #expect(type.output.trimmingCharacters(in: .whitespacesAndNewlines) == Self.type, "\(type.output)")
        let app = try desktop.run("/usr/bin/xdg-mime", ["query", "default", Self.type], extra: gnome)
        #expect(app.output.trimmingCharacters(in: .whitespacesAndNewlines) == "touchtracker.desktop", "\(app.output)")
    }

    @Test("gio open of a drawing opens it in the app's window, and xdg-open of it again brings that window forward")
    func openingADrawingFromTheDesktop() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let desktop = try InstalledDesktop.make()
        defer { desktop.stop() }
        let file = desktop.root.appendingPathComponent("home/sketch.touchtracker")
        try writeDrawing(to: file)
        let display = ["DISPLAY": server.display, "XDG_CURRENT_DESKTOP": "GNOME"]
        // gio starts the app from its desktop entry (Exec=touchtracker %F) and returns.
        #expect(try desktop.launch("/usr/bin/gio", ["open", file.path], extra: display) == 0)
        let owner = try await waitForValue("the app to hold the drawing", timeout: .seconds(20)) { () -> Int32? in
            lockHolder(of: file.path)
        }
        defer { kill(owner, SIGTERM) }
        _ = try await waitForValue("the TouchTracker window", timeout: .seconds(20)) { () -> Bool? in
            try TopLevelWindows.list(display: server.display).contains { $0.isDrawingWindow } ? true : nil
        }
        // A second open of the same drawing goes to the window that has it: no second window.
        #expect(try desktop.launch("/usr/bin/xdg-open", [file.path], extra: display) == 0)
        try await Task.sleep(for: .seconds(1))
        let windows = try TopLevelWindows.list(display: server.display).filter { $0.isDrawingWindow }
        #expect(windows.count == 1, "\(windows)")
        #expect(lockHolder(of: file.path) == owner)
    }

    @Test("touchtracker FILE FILE opens each drawing in a window of its own, a Latin-1 name too, and leaves no zombie")
    func eachFileInAWindowOfItsOwn() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let folder = try makeTemporaryFolder("touchtracker-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first.touchtracker")
        try writeDrawing(to: first)
        // "café.touchtracker" in Latin-1: a name that is not UTF-8 opens the file it names.
        let latin1 = Array(folder.path.utf8) + Array("/caf".utf8) + [0xE9] + Array(".touchtracker".utf8)
        let second = PathText.decode(latin1)
        try DocumentStore(path: second).save(Drawing())
        let app = try AppProcess(
            arguments: [first.path, "café.touchtracker"], argumentBytes: [Array(first.path.utf8), latin1],
            environment: ["DISPLAY": server.display, "WAYLAND_DISPLAY": nil])
        defer { app.stop() }
        let holders = try await waitForValue("both drawings held", timeout: .seconds(20)) { () -> [Int32]? in
            let pids = [first.path, second].compactMap { lockHolder(of: $0) }
            return pids.count == 2 ? pids : nil
        }
        defer { kill(holders[1], SIGTERM) }
        #expect(holders[0] == app.pid && holders[1] != app.pid, "\(holders)")
        _ = try await waitForValue("two TouchTracker windows", timeout: .seconds(20)) { () -> Bool? in
            try TopLevelWindows.list(display: server.display).filter { $0.isDrawingWindow }.count == 2
                ? true : nil
        }
        // The second window's process is nobody's child here: none is left a zombie of the first.
        let status = try String(contentsOfFile: "/proc/\(holders[1])/status", encoding: .utf8)
        #expect(status.contains("PPid:\t1\n") || !status.contains("PPid:\t\(app.pid)\n"), "\(status)")
    }

    @Test("Tumbler, the desktop's thumbnail service, makes a drawing's thumbnail with the app, under the spec's name")
    func tumblerMakesTheThumbnail() async throws {
        let desktop = try InstalledDesktop.make()
        defer { desktop.stop() }
        let file = desktop.root.appendingPathComponent("home/sketch.touchtracker")
        try writeDrawing(to: file)
        let tumbler = try ChildProcess(
            executable: "/usr/lib/x86_64-linux-gnu/tumbler-1/tumblerd", arguments: [],
            environment: desktop.environment, stdout: .discard, stderr: .capture)
        defer { _ = tumbler.stop() }
        let uri = file.absoluteURL.absoluteString
        let name = try desktop.run("/bin/sh", ["-c", "printf %s \"$0\" | md5sum", uri]).output.prefix(32)
        let thumbnail = desktop.root.appendingPathComponent("cache/thumbnails/normal/\(name).png")
        // Asked as a file manager asks: the file's URI and type, the normal (128 px) size. Tumbler may still be
        // starting: the call is made again until it answers.
        _ = try await waitForValue("Tumbler to take the request", timeout: .seconds(20)) { () -> Bool? in
            let queued = try desktop.run(
                "/usr/bin/gdbus",
                [
                    "call", "--session", "--dest", "org.freedesktop.thumbnails.Thumbnailer1", "--object-path",
                    "/org/freedesktop/thumbnails/Thumbnailer1", "--method",
                    "org.freedesktop.thumbnails.Thumbnailer1.Queue", "['\(uri)']", "['\(Self.type)']", "normal",
                    "default", "0",
                ])
            return queued.status == 0 ? true : nil
        }
        let png = try await waitForValue("the thumbnail in the cache", timeout: .seconds(20)) { () -> CairoSurface? in
            FileManager.default.fileExists(atPath: thumbnail.path) ? try? CairoSurface(readingPNG: thumbnail.path) : nil
        }
        #expect(png.width == 128 && png.height <= 128, "\(png.width)x\(png.height)")
        // The diagonal line runs through the middle of the picture.
        let middle = try #require(png.pixel(x: png.width / 2, y: png.height / 2))
        #expect(max(middle.red, middle.green, middle.blue) < 100, "\(middle)")
        let bytes = try Data(contentsOf: thumbnail)
        #expect(bytes.range(of: Data("Thumb::URI".utf8)) != nil, "the thumbnail names the file it is of")
    }
}
