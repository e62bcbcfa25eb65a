import Foundation
import Testing
import XorgTestSupport

/// The Debian package `make deb` builds (`make test` builds it first), unpacked with `dpkg -x` and run with the
/// Swift toolchain out of sight: no toolchain folder on PATH, no LD_LIBRARY_PATH, and nothing the binary loads from
/// under the toolchain.
@Suite("Debian package")
struct PackageTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The newest `touchtracker_*.deb` at the package root.
    private static func package() throws -> URL {
        let names = try FileManager.default.contentsOfDirectory(atPath: packageRoot.path)
            .filter { $0.hasPrefix("touchtracker_") && $0.hasSuffix(".deb") }.sorted()
        let name = try #require(names.last, "no touchtracker_*.deb at \(packageRoot.path): run make deb")
        return packageRoot.appendingPathComponent(name)
    }

    /// The toolchain's root (`/opt/swift/usr` for `/opt/swift/usr/bin/swift`), found from `swift` on this PATH.
    private static func toolchainRoot() throws -> String {
        let found = try runProgram("/usr/bin/env", ["sh", "-c", "readlink -f \"$(command -v swift)\""])
        let swift = found.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(found.status == 0 && !swift.isEmpty, "swift not found: \(found.output)")
        return URL(fileURLWithPath: swift).deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// An environment with nothing of the toolchain in it.
    private static func bareEnvironment(home: URL, display: String? = nil) -> [String: String] {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": home.path, "LANG": "C.UTF-8"]
        if let display { environment["DISPLAY"] = display }
        return environment
    }

    private static func unpack() throws -> (folder: URL, binary: URL) {
        let folder = try makeTemporaryFolder("deb")
        let unpacked = try runProgram("/usr/bin/dpkg", ["-x", try package().path, folder.path])
        #expect(unpacked.status == 0, "\(unpacked.output)")
        return (folder, folder.appendingPathComponent("usr/bin/touchtracker"))
    }

    @Test("the package holds the binary, desktop entry, icon, man page, translations and metainfo")
    func contents() throws {
        let (folder, _) = try Self.unpack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected =
            [
                "usr/bin/touchtracker", "usr/share/applications/touchtracker.desktop",
                "usr/share/icons/hicolor/scalable/apps/touchtracker.svg", "usr/share/man/man1/touchtracker.1.gz",
                "usr/share/metainfo/io.github.touchtracker.TouchTracker.metainfo.xml",
                "usr/share/doc/touchtracker/copyright", "usr/share/doc/touchtracker/changelog.gz",
            ] + ["ar", "de", "es", "fr", "ja"].map { "usr/share/locale/\($0)/LC_MESSAGES/touchtracker.mo" }
        for path in expected {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path), "\(path)")
        }
        let depends = try runProgram("/usr/bin/dpkg-deb", ["-f", try Self.package().path, "Depends"])
        #expect(depends.status == 0 && depends.output.contains("libc6") && !depends.output.contains("swift"))
    }

    @Test("the packaged binary loads nothing from the toolchain and prints its version")
    func runsWithoutToolchain() throws {
        let (folder, binary) = try Self.unpack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let toolchain = try Self.toolchainRoot()
        let libraries = try runProgram("/usr/bin/ldd", [binary.path])
        #expect(libraries.status == 0 && !libraries.output.contains(toolchain), "\(libraries.output)")
        #expect(!libraries.output.contains("not found"), "\(libraries.output)")
        let version = try runProgram(
            "/usr/bin/env",
            ["-i"] + Self.bareEnvironment(home: folder).map { "\($0)=\($1)" } + [binary.path, "--version"])
        #expect(version.status == 0 && version.output.split(separator: ".").count == 3, "\(version.output)")
    }

    @Test("the packaged binary exports a drawing to PNG")
    func exports() throws {
        let (folder, binary) = try Self.unpack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("d.json")
        try Data(#"{"version": 1, "lines": [{"begin": {"x": 10, "y": 10}, "end": {"x": 200, "y": 150}}]}"#.utf8)
            .write(to: document)
        let png = folder.appendingPathComponent("d.png")
        let export = try runProgram(
            "/usr/bin/env",
            ["-i"] + Self.bareEnvironment(home: folder).map { "\($0)=\($1)" } + [
                binary.path, "export", document.path, "--png", png.path,
            ])
        #expect(export.status == 0, "\(export.output)")
        let header = try Data(contentsOf: png).prefix(8)
        #expect(Array(header) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test("the packaged binary opens its window under the test Xorg")
    func opensWindow() async throws {
        let server = try await XorgServer.start()
        defer { server.stop() }
        let (folder, binary) = try Self.unpack()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = try ChildProcess(
            executable: binary.path,
            arguments: ["--verbose", "--document", folder.appendingPathComponent("d.json").path],
            environment: Self.bareEnvironment(home: folder, display: server.display))
        defer { _ = app.stop() }
        try await waitUntil("the packaged app's window", timeout: .seconds(20), poll: .milliseconds(50)) {
            String(decoding: app.stderr, as: UTF8.self).contains("touchtracker: ready")
        }
    }
}
