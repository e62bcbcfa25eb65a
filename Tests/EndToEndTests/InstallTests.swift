import Foundation
import Testing
import XorgTestSupport

/// `make install` and `make uninstall` into a temporary DESTDIR, checked file by file.
@Suite("Install")
struct InstallTests {
    private static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every regular file under `folder`, relative to it, sorted.
    private func files(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if !isDirectory.boolValue { found.append(path) }
        }
        return found.sorted()
    }

    private func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
    }

    @Test(
        "make install puts the binary, desktop entry, hicolor SVG icon, man page and translations under DESTDIR/PREFIX; uninstall removes them"
    )
    func installAndUninstall() async throws {
        let stage = try makeTemporaryFolder("install")
        defer { try? FileManager.default.removeItem(at: stage) }
        let binary = try AppProcess.locateExecutable()
        let make = ["-C", Self.packageRoot.path, "--no-print-directory", "DESTDIR=\(stage.path)", "PREFIX=/opt/tt"]
        let install = try runProgram("/usr/bin/make", make + ["install", "BIN=\(binary.path)"])
        #expect(install.status == 0, "\(install.output)")

        let prefix = stage.appendingPathComponent("opt/tt")
        #expect(
            files(under: stage) == [
                "opt/tt/bin/touchtracker", "opt/tt/share/applications/touchtracker.desktop",
                "opt/tt/share/icons/hicolor/scalable/apps/touchtracker.svg",
            ] + ["ar", "de", "es", "fr", "ja"].map { "opt/tt/share/locale/\($0)/LC_MESSAGES/touchtracker.mo" } + [
                "opt/tt/share/man/man1/touchtracker.1", "opt/tt/share/mime/packages/touchtracker.xml",
                "opt/tt/share/thumbnailers/touchtracker.thumbnailer",
            ])
        let installedBinary = prefix.appendingPathComponent("bin/touchtracker")
        #expect(try mode(installedBinary) == 0o755)
        #expect(try Data(contentsOf: installedBinary) == Data(contentsOf: binary))
        let version = try runProgram(installedBinary.path, ["--version"])
        #expect(version.status == 0 && version.output.split(separator: ".").count == 3, "\(version.output)")

        let resources = Self.packageRoot.appendingPathComponent("Resources")
        for (installed, source) in [
            ("share/applications/touchtracker.desktop", "touchtracker.desktop"),
            ("share/icons/hicolor/scalable/apps/touchtracker.svg", "touchtracker.svg"),
            ("share/man/man1/touchtracker.1", "touchtracker.1"),
            ("share/mime/packages/touchtracker.xml", "touchtracker-mime.xml"),
            ("share/thumbnailers/touchtracker.thumbnailer", "touchtracker.thumbnailer"),
        ] {
            let url = prefix.appendingPathComponent(installed)
            #expect(try mode(url) == 0o644, "\(installed)")
            #expect(
                try Data(contentsOf: url) == Data(contentsOf: resources.appendingPathComponent(source)), "\(installed)")
        }
        let desktop = prefix.appendingPathComponent("share/applications/touchtracker.desktop")
        let validation = try runProgram("/usr/bin/desktop-file-validate", [desktop.path])
        #expect(validation.status == 0 && validation.output.isEmpty, "\(validation.output)")
        let entry = try String(contentsOf: desktop, encoding: .utf8)
        #expect(entry.contains("\nExec=touchtracker %F\n") && entry.contains("\nIcon=touchtracker\n"))
        #expect(entry.contains("\nMimeType=application/x-touchtracker+json;\n"), "\(entry)")
        let svg = try String(
            contentsOf: prefix.appendingPathComponent("share/icons/hicolor/scalable/apps/touchtracker.svg"),
            encoding: .utf8)
        #expect(svg.contains("<svg") && svg.contains("viewBox=\"0 0 128 128\""))

        let uninstall = try runProgram("/usr/bin/make", make + ["uninstall"])
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(files(under: stage).isEmpty, "\(files(under: stage))")
    }

    @Test("the desktop entry in Resources passes desktop-file-validate")
    func desktopEntryIsValid() throws {
        let path = Self.packageRoot.appendingPathComponent("Resources/touchtracker.desktop").path
        let result = try runProgram("/usr/bin/desktop-file-validate", [path])
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }
}
