import Foundation
import Synchronization
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What every `KWinServer` of a test process runs, made once (on first use) in a temp folder removed when the process
/// exits: the tests' fake-input client (`InputClient/touchtracker-kwin-input.c`) and a copy of `kwin_wayland`.
///
/// The client is compiled here, not by SwiftPM: it is a program of its own that KWin must see as a separate client
/// (KWin grants fake input by the client's executable path), and its protocol code is what wayland-scanner makes
/// from the fake-input XML plasma-wayland-protocols installs, so nothing generated is committed that could drift
/// from the KWin it talks to.
///
/// The copy of KWin: Debian's `/usr/bin/kwin_wayland` carries the `cap_sys_resource` file capability, and where
/// the capability bounding set lacks it (a container) exec fails with "Operation not permitted". A plain copy has
/// no capability and runs the same; it keeps the name `kwin_wayland`, which KWin's Qt platform plugin checks.
/// `KWIN_BIN` names another KWin to copy.
enum InputClient {
    static let sourcePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("InputClient/touchtracker-kwin-input.c").path

    struct Tools: Sendable {
        /// The fake-input client's absolute path (what the .desktop file's Exec names).
        let client: String
        /// The capability-free copy of kwin_wayland.
        let kwin: String
    }

    /// The tools, or why they could not be made (every start then fails with that reason).
    static let tools: Result<Tools, KWinServer.StartError> = {
        do {
            return .success(try make())
        } catch let error as KWinServer.StartError {
            return .failure(error)
        } catch {
            return .failure(KWinServer.StartError(description: "preparing the KWin harness: \(error)"))
        }
    }()

    private static func make() throws -> Tools {
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw KWinServer.StartError(description: "the fake-input client's source is missing: \(sourcePath)")
        }
        var template = Array("/tmp/ttk-tools-XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw KWinServer.StartError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        toolsFolder.withLock { $0 = folder }
        atexit {
            if let folder = toolsFolder.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
        }

        let kwinSource = KWinServer.executable("kwin_wayland", override: "KWIN_BIN")
        try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: false)
        let kwin = folder + "/bin/kwin_wayland"
        // FileManager's copy keeps no extended attributes, so no capability either.
        do {
            try FileManager.default.copyItem(atPath: kwinSource, toPath: kwin)
        } catch {
            throw KWinServer.StartError(
                description: "cannot copy \(kwinSource) (install kwin-wayland: make deps-test): \(error)")
        }

        let scanner = KWinServer.executable("wayland-scanner")
        var sources = [sourcePath]
        for (name, xml) in [
            ("fake-input", "/usr/share/plasma-wayland-protocols/fake-input.xml"),
            ("xdg-activation-v1", try protocolXML("staging/xdg-activation/xdg-activation-v1.xml")),
        ] {
            guard FileManager.default.fileExists(atPath: xml) else {
                throw KWinServer.StartError(
                    description: "\(xml) is missing (install plasma-wayland-protocols: make deps-test)")
            }
            _ = try run(scanner, ["client-header", xml, "\(folder)/\(name)-client-protocol.h"])
            _ = try run(scanner, ["private-code", xml, "\(folder)/\(name)-protocol.c"])
            sources.append("\(folder)/\(name)-protocol.c")
        }
        let packages = ["wayland-client", "gio-unix-2.0"]
        let cflags = try run(KWinServer.executable("pkg-config"), ["--cflags"] + packages)
        let libs = try run(KWinServer.executable("pkg-config"), ["--libs"] + packages)
        let client = folder + "/bin/touchtracker-kwin-input"
        // -Werror: the client is ours and small; a warning here is a bug.
        _ = try run(
            KWinServer.executable("cc", override: "CC"),
            ["-Wall", "-Wextra", "-Werror", "-I", folder] + words(cflags) + ["-o", client] + sources + words(libs))
        trace("built the KWin fake-input client: \(client)")
        return Tools(client: client, kwin: kwin)
    }

    /// The path of wayland-protocols' `relative` XML (`pkg-config --variable=pkgdatadir wayland-protocols`).
    private static func protocolXML(_ relative: String) throws -> String {
        let folder = try run(KWinServer.executable("pkg-config"), ["--variable=pkgdatadir", "wayland-protocols"])
        return folder.trimmingCharacters(in: .whitespacesAndNewlines) + "/" + relative
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Runs a build tool to its end and returns its standard output; throws with its output if it fails.
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment)
        let exit = process.waitForExit(timeout: .seconds(120))
        guard exit == .exited(0) else {
            if exit == nil { process.stop() }
            throw KWinServer.StartError(
                description: """
                    building the KWin fake-input client: \(executable) \(arguments.joined(separator: " ")) \
                    \(exit.map(\.description) ?? "did not finish")
                    \(String(decoding: process.stdout, as: UTF8.self))\(String(decoding: process.stderr, as: UTF8.self))
                    """)
        }
        // The exit is seen before the last of the output may be read.
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !process.outputClosed && ContinuousClock.now < deadline { usleep(1_000) }
        return String(decoding: process.stdout, as: UTF8.self)
    }
}

/// The folder `InputClient.make` made, for its exit handler (a C function pointer, which can capture nothing).
private let toolsFolder = Mutex<String?>(nil)
