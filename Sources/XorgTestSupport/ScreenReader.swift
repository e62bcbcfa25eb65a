import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Debian 12's Orca (43), the real screen reader, running against a private X display and an `AccessibilityBus`,
/// with what it says read back: Orca's debug output has one `SPEECH OUTPUT: '…'` line per utterance.
///
/// What it takes to run it headless, found by trying:
/// - Orca writes its debug file line by line only when that file is a terminal (Python buffers any other file):
///   its standard output is the slave of a pseudo-terminal this harness reads, and `--debug-file /dev/stdout`.
/// - With no sound server, speech-dispatcher's default audio output hangs and Orca freezes after a few utterances:
///   a speech-dispatcher of its own runs here with the espeak-ng module and libao's null driver
///   (`AudioOutputMethod "libao"`, `default_driver=null` in `~/.libao`), in a private HOME and XDG folders.
/// - Orca runs once per user (a second one refuses to start while another runs): `start` waits until no other Orca
///   runs, and tests using it must be serialized.
public final class ScreenReader: Sendable {
    /// The private HOME (and XDG folders) Orca and speech-dispatcher run in; removed by `stop()`.
    public let folder: URL
    private let speech: ChildProcess
    private let orca: ChildProcess
    private let transcript: PseudoTerminal

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts speech-dispatcher and Orca on `display` (an X display), on `bus`, and returns once Orca has said it
    /// is on.
    public static func start(display: String, bus: AccessibilityBus) async throws -> ScreenReader {
        try await waitUntil("no other Orca to run", timeout: .seconds(60), poll: .milliseconds(200)) {
            otherOrcas().isEmpty
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orca-\(UUID().uuidString)")
        let home = folder.appendingPathComponent("home")
        let runtime = folder.appendingPathComponent("run")
        let configuration = home.appendingPathComponent(".config/speech-dispatcher")
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try "default_driver=null\n".write(to: home.appendingPathComponent(".libao"), atomically: true, encoding: .utf8)
        try """
        AudioOutputMethod "libao"
        AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"
        DefaultModule espeak-ng
        LogLevel 1
        """.write(to: configuration.appendingPathComponent("speechd.conf"), atomically: true, encoding: .utf8)
        let socket = runtime.appendingPathComponent("speech-dispatcher/speechd.sock").path
        let environment = [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path, "PATH": "/usr/bin:/bin",
            "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus.address, "LANG": "C.UTF-8",
            "SPEECHD_ADDRESS": "unix_socket:" + socket, "AT_SPI_BUS_ADDRESS": bus.accessibilityAddress,
        ]
        try FileManager.default.createDirectory(
            atPath: (socket as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // In the foreground (-s, single), never ending for want of clients (-t 0), its socket in the private folder.
        let speech = try ChildProcess(
            executable: "/usr/bin/speech-dispatcher",
            arguments: ["-s", "-t", "0", "-l", "1", "-S", socket, "-L", folder.appendingPathComponent("log").path],
            environment: environment, stdout: .discard, stderr: .discard)
        do {
            try await waitUntil("speech-dispatcher's socket", timeout: .seconds(20), poll: .milliseconds(50)) {
                if let exit = speech.exit { throw StartError(description: "speech-dispatcher ended: \(exit)") }
                return FileManager.default.fileExists(atPath: socket)
            }
        } catch {
            speech.stop()
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        // Should Orca end at its start (libatspi's dbind aborts when it cannot reach the accessibility bus, as it did
        // before it was given `AT_SPI_BUS_ADDRESS`), that is the harness's fault, not the app's: it is started again,
        // up to three times, and a failure says why each start ended.
        var failures: [String] = []
        while true {
            let terminal: PseudoTerminal
            let orca: ChildProcess
            do {
                terminal = try PseudoTerminal()
                orca = try ChildProcess(
                    executable: "/usr/bin/orca", arguments: ["--debug-file", "/dev/stdout"], environment: environment,
                    stdout: .file(terminal.slavePath))
            } catch {
                speech.stop()
                try? FileManager.default.removeItem(at: folder)
                throw error
            }
            let reader = ScreenReader(folder: folder, speech: speech, orca: orca, transcript: terminal)
            do {
                try await reader.waitForSpeech("Screen reader on", after: 0, timeout: .seconds(60))
                return reader
            } catch {
                guard orca.exit != nil, failures.count < 2 else {
                    reader.stop()
                    throw StartError(description: "\(error)\nearlier starts: \(failures)")
                }
                failures.append("\(error)")
                terminal.close()
                try await waitUntil("Orca to be gone", timeout: .seconds(10), poll: .milliseconds(100)) {
                    otherOrcas().isEmpty
                }
                trace("Orca ended at its start, started again: \(error)")
                try await Task.sleep(for: .seconds(failures.count))
            }
        }
    }

    private init(folder: URL, speech: ChildProcess, orca: ChildProcess, transcript: PseudoTerminal) {
        self.folder = folder
        self.speech = speech
        self.orca = orca
        self.transcript = transcript
    }

    /// Orca's debug output so far.
    public var debugOutput: String {
        String(decoding: transcript.bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// Everything Orca has said so far, one utterance each, oldest first.
    public var utterances: [String] {
        debugOutput.split(separator: "\n").compactMap { Self.utterance(inDebugLine: String($0)) }
    }

    /// The text of a `SPEECH OUTPUT` debug line: `12:00:00.0 - SPEECH OUTPUT: 'Control frame.'{'established': …}`
    /// (or `…'[{…}]`).
    public static func utterance(inDebugLine line: String) -> String? {
        guard let start = line.range(of: "SPEECH OUTPUT: '") else { return nil }
        let rest = line[start.upperBound...]
        // The voice follows the text: `{…}`, or a list of them, `[{…}]` (flat review), after a space or not.
        let ends = ["' {", "'{", "'[", "' ["].compactMap { rest.range(of: $0, options: .backwards)?.lowerBound }
        if let end = ends.max() { return String(rest[..<end]) }
        guard let end = rest.lastIndex(of: "'") else { return String(rest) }
        return String(rest[..<end])
    }

    /// How many utterances there are so far: a mark to look for later ones from.
    public var mark: Int { utterances.count }

    /// Waits for an utterance from index `after` on containing `text`, and returns it; the error lists what Orca
    /// said meanwhile.
    @discardableResult
    public func waitForSpeech(_ text: String, after mark: Int, timeout: Duration = .seconds(15)) async throws
        -> String
    {
        do {
            return try await waitForValue("Orca to say \"\(text)\"", timeout: timeout, poll: .milliseconds(50)) {
                if let exit = orca.exit {
                    let errors = String(decoding: orca.stderr, as: UTF8.self)
                    throw StartError(description: "Orca ended: \(exit)\n\(errors)\n\(debugTail)")
                }
                return utterances.dropFirst(mark).first { $0.contains(text) }
            }
        } catch let error as WaitTimeout {
            // Orca's whole debug output beside, to see why.
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("orca-\(UUID().uuidString).log")
            try? debugOutput.write(to: log, atomically: true, encoding: .utf8)
            throw StartError(description: "\(error); Orca said: \(utterances.dropFirst(mark)); its log: \(log.path)")
        }
    }

    /// Waits until Orca has said nothing new for `quiet`, then returns what it said from `mark` on.
    public func speechSettled(after mark: Int, quiet: Duration = .milliseconds(1500), timeout: Duration = .seconds(20))
        async throws -> [String]
    {
        var count = utterances.count
        var since = ContinuousClock.now
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            let now = utterances.count
            if now != count {
                count = now
                since = ContinuousClock.now
            } else if ContinuousClock.now - since >= quiet {
                break
            }
        }
        return Array(utterances.dropFirst(mark))
    }

    /// The last lines of Orca's debug output, for a failure's message.
    public var debugTail: String {
        debugOutput.split(separator: "\n").suffix(40).joined(separator: "\n")
    }

    /// Ends Orca and speech-dispatcher and removes the private folder.
    public func stop() {
        _ = orca.stop(timeout: .seconds(5))
        _ = speech.stop(timeout: .seconds(5))
        transcript.close()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Other Orcas running on this machine (their processes call themselves `orca`).
    static func otherOrcas() -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let name = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
                name.trimmingCharacters(in: .whitespacesAndNewlines) == "orca"
            else { return nil }
            return pid
        }
    }
}

/// A pseudo-terminal whose slave a child writes to (by path) and whose master this process reads, on a thread of
/// its own, until every writer has closed it.
final class PseudoTerminal: Sendable {
    let slavePath: String
    private let master: Int32
    private let buffer = Captured()
    private let finished = DispatchSemaphore(value: 0)

    init() throws {
        // /dev/ptmx hands out a new master; the slave is /dev/pts/N once unlocked (what posix_openpt, unlockpt and
        // ptsname do; Glibc's Swift module hides those). The requests are Linux's TIOCSPTLCK and TIOCGPTN.
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            let failure = errno
            if master >= 0 { Glibc.close(master) }
            throw ScreenReader.StartError(description: "no pseudo-terminal: errno \(failure)")
        }
        // Raw: no echo, and lines end as written.
        var settings = termios()
        if tcgetattr(master, &settings) == 0 {
            cfmakeraw(&settings)
            tcsetattr(master, TCSANOW, &settings)
        }
        self.master = master
        slavePath = "/dev/pts/\(number)"
        let buffer = buffer
        let finished = finished
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = read(master, &chunk, chunk.count)
                if count > 0 {
                    buffer.bytes.withLock { $0 += chunk[..<count] }
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    // End of file, or EIO once the last writer closed the slave.
                    break
                }
            }
            finished.signal()
        }
    }

    var bytes: [UInt8] { buffer.bytes.withLock { $0 } }

    /// What the reader has read so far, shared with its thread.
    private final class Captured: Sendable {
        let bytes = Mutex<[UInt8]>([])
    }

    /// Closes the master once the reader has seen the last writer go (or after a second).
    func close() {
        _ = finished.wait(timeout: .now() + 1)
        Glibc.close(master)
    }
}

/// A minimal GTK 3 window (python3-gi) with one button, on the same display and buses as the app: the control that
/// tells a fault of the harness (Orca, its speech, the buses) from a fault of the app.
public final class ControlWindow: Sendable {
    public let process: ChildProcess
    /// The window's X id, to give it the focus.
    public let windowID: UInt

    public static let title = "Control"
    public static let buttonLabel = "Press me"

    public init(display: String, bus: AccessibilityBus) async throws {
        let script = """
            import gi
            gi.require_version("Gtk", "3.0")
            from gi.repository import Gtk
            window = Gtk.Window(title="\(Self.title)")
            window.add(Gtk.Button(label="\(Self.buttonLabel)"))
            window.connect("destroy", Gtk.main_quit)
            window.show_all()
            print("window", window.get_window().get_xid(), flush=True)
            Gtk.main()
            """
        let process = try ChildProcess(
            executable: AccessibilityBus.python, arguments: ["-c", script],
            environment: [
                "DISPLAY": display, "DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin",
                "AT_SPI_BUS_ADDRESS": bus.accessibilityAddress,
                "HOME": FileManager.default.temporaryDirectory.path,
            ])
        self.process = process
        do {
            windowID = try await waitForValue("the GTK window", timeout: .seconds(60), poll: .milliseconds(50)) {
                if let exit = process.exit {
                    throw ScreenReader.StartError(
                        description: "the GTK window ended: \(exit): \(String(decoding: process.stderr, as: UTF8.self))"
                    )
                }
                let text = String(decoding: process.stdout, as: UTF8.self)
                guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("window ") }) else {
                    return nil
                }
                return UInt(line.dropFirst(7))
            }
        } catch {
            _ = process.stop(timeout: .seconds(2))
            throw error
        }
    }

    public func stop() {
        _ = process.stop(timeout: .seconds(5))
    }
}
