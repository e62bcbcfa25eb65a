import Foundation
import Synchronization
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The weston module `InputModule/touchtracker-test-input.c`, compiled once per test process (on first use) into a
/// temp folder that is removed when the process exits. `TOUCHTRACKER_TEST_INPUT_MODULE` names a prebuilt module
/// instead (for a test binary run where the source tree is gone).
///
/// Built at run time, not by SwiftPM: a C target would be linked into the test binary, while weston needs a shared
/// object of its own, linked against libweston-10 (whose headers only weston's tests need).
enum InputModule {
    static let sourcePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("InputModule/touchtracker-test-input.c").path

    /// The module's path, or why it could not be built (every start then fails with that reason).
    static let path: Result<String, WestonServer.StartError> = {
        if let prebuilt = ProcessInfo.processInfo.environment["TOUCHTRACKER_TEST_INPUT_MODULE"] {
            return .success(prebuilt)
        }
        do {
            return .success(try compile())
        } catch let error as WestonServer.StartError {
            return .failure(error)
        } catch {
            return .failure(WestonServer.StartError(description: "building the weston input module: \(error)"))
        }
    }()

    private static func compile() throws -> String {
        guard FileManager.default.fileExists(atPath: sourcePath) else {
            throw WestonServer.StartError(
                description:
                    "the weston input module's source is missing: \(sourcePath) (set TOUCHTRACKER_TEST_INPUT_MODULE)")
        }
        let packages = ["libweston-10", "wayland-server"]
        let cflags = try run(WestonServer.executable("pkg-config"), ["--cflags"] + packages)
        let libs = try run(WestonServer.executable("pkg-config"), ["--libs"] + packages)
        var template = Array("/tmp/ttw-module-XXXXXX".utf8CString)
        guard let folder = mkdtemp(&template).map({ String(cString: $0) }) else {
            throw WestonServer.StartError(description: "mkdtemp: \(String(cString: strerror(errno)))")
        }
        builtModuleFolder.withLock { $0 = folder }
        atexit {
            if let folder = builtModuleFolder.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
        }
        let output = folder + "/touchtracker-test-input.so"
        // -Werror: the module is ours and small; a warning here is a bug (a prototype that drifted from libweston's,
        // most likely).
        _ = try run(
            WestonServer.executable("cc", override: "CC"),
            ["-shared", "-fPIC", "-Wall", "-Wextra", "-Werror"] + words(cflags)
                + ["-o", output, sourcePath] + words(libs))
        trace("built the weston input module: \(output)")
        return output
    }

    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }

    /// Runs a build tool to its end and returns its standard output; throws with its output if it fails.
    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ProcessInfo.processInfo.environment)
        let exit = process.waitForExit(timeout: .seconds(120))
        let output = String(decoding: process.stdout, as: UTF8.self)
        guard exit == .exited(0) else {
            if exit == nil { process.stop() }
            throw WestonServer.StartError(
                description: """
                    building the weston input module: \(executable) \(arguments.joined(separator: " ")) \
                    \(exit.map(\.description) ?? "did not finish")
                    \(output)\(String(decoding: process.stderr, as: UTF8.self))
                    """)
        }
        // The exit is seen before the last of the output may be read.
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while !process.outputClosed && ContinuousClock.now < deadline { usleep(1_000) }
        return String(decoding: process.stdout, as: UTF8.self)
    }
}

/// The folder `InputModule.compile` made, for its exit handler (a C function pointer, which can capture nothing, not
/// even `InputModule`'s metatype).
private let builtModuleFolder = Mutex<String?>(nil)
