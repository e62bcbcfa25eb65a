import Foundation
import Testing

@testable import TouchTrackerStore

/// The one way to write a file: through links to their final target, replaced beside it so the links stay links; a
/// pipe, a terminal or a descriptor's name written in place; temporary files that cannot be planted; permission
/// bits kept; folders made (or refused) as asked.
@Suite final class AtomicFileTests {
    let folder: String

    init() throws {
        folder = try FileProbe.makeTemporaryFolder("atomic")
        try FileManager.default.createDirectory(atPath: folder + "/a", withIntermediateDirectories: true)
        try FileProbe.create(folder + "/a/real.json", "old")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    var target: String { folder + "/a/real.json" }

    // MARK: Links

    @Test("a write through an absolute symlink leaves the link a link")
    func absoluteLinkStaysALink() throws {
        try FileProbe.link(folder + "/link.json", to: target)
        try AtomicFile.write(Array("new".utf8), to: folder + "/link.json")
        #expect(FileProbe.kind(folder + "/link.json") == .link)
    }

    @Test("a write through an absolute symlink puts the new bytes in the link's target")
    func absoluteLinkWritesTheTarget() throws {
        try FileProbe.link(folder + "/link.json", to: target)
        try AtomicFile.write(Array("new".utf8), to: folder + "/link.json")
        #expect(FileProbe.text(target) == "new")
    }

    @Test("a write through a relative symlink in another folder leaves the link a link")
    func relativeLinkStaysALink() throws {
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        try FileProbe.link(folder + "/b/link.json", to: "../a/real.json")
        try AtomicFile.write(Array("new".utf8), to: folder + "/b/link.json")
        #expect(FileProbe.kind(folder + "/b/link.json") == .link)
    }

    @Test("a write through a relative symlink in another folder puts the new bytes in the target, relative to the link")
    func relativeLinkWritesTheTarget() throws {
        try FileManager.default.createDirectory(atPath: folder + "/b", withIntermediateDirectories: true)
        try FileProbe.link(folder + "/b/link.json", to: "../a/real.json")
        try AtomicFile.write(Array("new".utf8), to: folder + "/b/link.json")
        #expect(FileProbe.text(target) == "new")
    }

    @Test("a write through a chain of two links leaves both links links")
    func chainOfLinksStaysLinks() throws {
        try FileProbe.link(folder + "/a/second.json", to: "real.json")
        try FileProbe.link(folder + "/first.json", to: folder + "/a/second.json")
        try AtomicFile.write(Array("new".utf8), to: folder + "/first.json")
        #expect([FileProbe.kind(folder + "/first.json"), FileProbe.kind(folder + "/a/second.json")] == [.link, .link])
    }

    @Test("a write through a chain of two links puts the new bytes in the last link's target")
    func chainOfLinksWritesTheTarget() throws {
        try FileProbe.link(folder + "/a/second.json", to: "real.json")
        try FileProbe.link(folder + "/first.json", to: folder + "/a/second.json")
        try AtomicFile.write(Array("new".utf8), to: folder + "/first.json")
        #expect(FileProbe.text(target) == "new")
    }

    @Test("a write through a dangling symlink creates its target")
    func danglingLinkCreatesItsTarget() throws {
        try FileProbe.link(folder + "/link.json", to: "a/new.json")
        try AtomicFile.write(Array("new".utf8), to: folder + "/link.json")
        #expect(FileProbe.text(folder + "/a/new.json") == "new")
    }

    @Test("a write through a dangling symlink leaves the link a link")
    func danglingLinkStaysALink() throws {
        try FileProbe.link(folder + "/link.json", to: "a/new.json")
        try AtomicFile.write(Array("new".utf8), to: folder + "/link.json")
        #expect(FileProbe.kind(folder + "/link.json") == .link)
    }

    @Test("a symlink loop is an error, not a hang")
    func linkLoopIsAnError() throws {
        try FileProbe.link(folder + "/loop.json", to: "loop.json")
        #expect(throws: DocumentFileError.self) { try AtomicFile.write(Array("new".utf8), to: folder + "/loop.json") }
    }

    // MARK: Special files, written in place

    /// Makes a named pipe (and `link`, a symlink to it, when given), opens it for reading first (not blocking, so
    /// the writer's open finds a reader and the bytes wait in the pipe), writes `text` to it with `AtomicFile` (by
    /// way of `link` when given), and hands `check` the reader and the pipe's path.
    private func writeThroughNewPipe(
        _ text: String, via link: String? = nil, then check: (_ reader: Int32, _ path: String) -> Void
    ) throws {
        let pipePath = folder + "/pipe"
        #expect(PathText.withCString(pipePath) { mkfifo($0, 0o600) } == 0)
        if let link { try FileProbe.link(folder + "/" + link, to: "pipe") }
        let reader = open(pipePath, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        try #require(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write(Array(text.utf8), to: folder + "/" + (link ?? "pipe"))
        check(reader, pipePath)
    }

    @Test("a link put in a named pipe's place after the pipe was found is not written through")
    func linkSwappedInForAPipeIsNotFollowed() throws {
        // What the write finds if someone swaps the pipe for a link between its look and its open.
        try FileProbe.link(folder + "/swapped", to: target)
        #expect(throws: DocumentFileError.self) {
            try AtomicFile.writeSpecial(folder + "/swapped", named: folder + "/swapped", waitsForReader: false) {
                (file: borrowing AtomicFile.Output) throws(DocumentFileError) in try file.write(Array("new".utf8))
            }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
    }

    @Test("a regular file put in a named pipe's place after the pipe was found is left as it was")
    func fileSwappedInForAPipeIsLeftAlone() throws {
        #expect(throws: DocumentFileError.self) {
            try AtomicFile.writeSpecial(target, named: target, waitsForReader: false) {
                (file: borrowing AtomicFile.Output) throws(DocumentFileError) in try file.write(Array("new".utf8))
            }
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old")
    }

    @Test("a write to a named pipe delivers the bytes to its reader")
    func pipeIsFedItsReader() throws {
        try writeThroughNewPipe("through the pipe") { reader, _ in
            #expect(Self.readAvailable(reader) == Array("through the pipe".utf8))
        }
    }

    @Test("a named pipe written to is still a named pipe")
    func pipeStaysAPipe() throws {
        try writeThroughNewPipe("through the pipe") { _, pipePath in
            #expect(FileProbe.kind(pipePath) == .fifo)
        }
    }

    @Test("a write to a pipe named by a symlink to it feeds the pipe, and the link stays")
    func linkToPipeFeedsThePipe() throws {
        try writeThroughNewPipe("linked", via: "pipe-link") { reader, _ in
            #expect(Self.readAvailable(reader) == Array("linked".utf8))
        }
    }

    @Test("a write to a pseudo-terminal goes to the terminal (read back from its master)")
    func terminalIsWrittenInPlace() throws {
        let master = try Terminal.call("posix_openpt", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        defer { close(master) }
        #expect(try Terminal.call("grantpt", master) == 0 && Terminal.call("unlockpt", master) == 0)
        let name = try #require(try Terminal.name(master))
        // The terminal stays open on this side too, so its output is not dropped as the writer closes it.
        let terminal = PathText.withCString(name) { open($0, O_RDWR | O_NOCTTY | O_CLOEXEC) }
        try #require(terminal >= 0)
        defer { close(terminal) }
        try AtomicFile.write(Array("to the terminal".utf8), to: name)
        #expect(Self.read(master, count: "to the terminal".utf8.count) == Array("to the terminal".utf8))
    }

    @Test("a pipe named by /proc/self/fd/N is written in place, to the pipe")
    func procDescriptorNameIsWrittenInPlace() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        try AtomicFile.write(Array("by descriptor".utf8), to: "/proc/self/fd/\(ends[1])")
        #expect(Self.readAvailable(ends[0]) == Array("by descriptor".utf8))
    }

    @Test("a pipe named by /dev/fd/N (a link to /proc/self/fd) is written in place, to the pipe")
    func devDescriptorNameIsWrittenInPlace() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
        try AtomicFile.write(Array("by descriptor".utf8), to: "/dev/fd/\(ends[1])")
        #expect(Self.readAvailable(ends[0]) == Array("by descriptor".utf8))
    }

    // MARK: Temporary files

    /// Names of exactly 255 bytes: ASCII, two-byte characters, and bytes that are not text.
    static let longestNames: [String] = [
        String(repeating: "x", count: 255),
        String(repeating: "\u{E9}", count: 127) + "x",
        PathText.decode([UInt8](repeating: 0xE9, count: 255)),
    ]

    @Test("the temporary name for a 255-byte name is at most 255 bytes", arguments: longestNames)
    func temporaryNameFits(name: String) {
        #expect(PathText.bytes(AtomicFile.temporaryName(for: name)).count <= 255)
    }

    @Test("a document whose name is 255 bytes is written", arguments: longestNames)
    func longestNameIsWritten(name: String) throws {
        try AtomicFile.write(Array("long".utf8), to: folder + "/" + name)
        #expect(FileProbe.text(folder + "/" + name) == "long")
    }

    @Test("a symlink planted at the old temporary name (.NAME.tmp-PID) leaves the file it points to untouched")
    func plantedOldTemporaryLinkIsNotFollowed() throws {
        try FileProbe.create(folder + "/victim", "victim")
        try FileProbe.link(folder + "/.drawing.json.tmp-\(getpid())", to: folder + "/victim")
        try AtomicFile.write(Array("new".utf8), to: folder + "/drawing.json")
        #expect(FileProbe.text(folder + "/victim") == "victim")
    }

    @Test("a write leaves nothing beside the document: no temporary file")
    func noTemporaryFileIsLeft() throws {
        try AtomicFile.write(Array("new".utf8), to: target)
        #expect(FileProbe.names(in: folder + "/a") == [Array("real.json".utf8)])
    }

    @Test("a write whose producer fails leaves the old file and no temporary file")
    func failedProducerLeavesTheOldFile() throws {
        #expect(throws: DocumentFileError.self) {
            try AtomicFile.write(to: self.target) { (file: borrowing AtomicFile.Output) throws(DocumentFileError) in
                try file.write(Array("half".utf8))
                throw DocumentFileError(path: "producer", problem: "gave up")
            }
        }
        #expect(FileProbe.names(in: folder + "/a") == [Array("real.json".utf8)] && FileProbe.text(target) == "old")
    }

    // MARK: Permissions and folders

    @Test("a file that is replaced keeps its permission bits (0644)")
    func replacedFileKeepsItsMode() throws {
        try #require(chmod(target, 0o644) == 0)
        try AtomicFile.write(Array("new".utf8), to: target)
        #expect(FileProbe.mode(target) == 0o644)
    }

    @Test("a new file is mode 0600")
    func newFileIsPrivate() throws {
        try AtomicFile.write(Array("new".utf8), to: folder + "/new.json")
        #expect(FileProbe.mode(folder + "/new.json") == 0o600)
    }

    @Test("missing folders are made, each mode 0700, when asked to create them")
    func missingFoldersAreMadePrivate() throws {
        try AtomicFile.write(Array("new".utf8), to: folder + "/new/deeper/doc.json", missingFolder: .create)
        #expect([FileProbe.mode(folder + "/new"), FileProbe.mode(folder + "/new/deeper")] == [0o700, 0o700])
    }

    @Test("a missing folder is refused, when asked to, with an error naming the folder")
    func missingFolderIsRefused() throws {
        let error = try #require(throws: DocumentFileError.self) {
            try AtomicFile.write(Array("new".utf8), to: self.folder + "/typo/doc.json", missingFolder: .refuse)
        }
        #expect(error.problem.contains(folder + "/typo") && FileProbe.kind(folder + "/typo") == nil)
    }

    @Test("a folder in the target's place is an error")
    func folderTargetIsAnError() throws {
        #expect(throws: DocumentFileError.self) { try AtomicFile.write(Array("new".utf8), to: self.folder + "/a") }
    }

    @Test("a path whose folder part is a file says a part of the path is a file, not a folder")
    func fileAsFolderIsExplained() throws {
        let error = try #require(throws: DocumentFileError.self) {
            try AtomicFile.write(Array("new".utf8), to: self.target + "/doc.json")
        }
        #expect(error.problem == "a part of the path is a file, not a folder")
    }

    @Test("a one-character name is written like any other name")
    func oneCharacterNameIsWritten() throws {
        try AtomicFile.write(Array("o".utf8), to: folder + "/o")
        #expect(FileProbe.text(folder + "/o") == "o")
    }

    // MARK: Reading back

    /// The C library's pseudo-terminal calls, which Swift's Glibc module leaves out (they need `_XOPEN_SOURCE`),
    /// looked up by name.
    enum Terminal {
        static func call(_ function: String, _ argument: Int32) throws -> Int32 {
            let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), function), "\(function) is in the C library")
            return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)(argument)
        }

        /// The terminal's path (`ptsname`).
        static func name(_ master: Int32) throws -> String? {
            let symbol = try #require(dlsym(dlopen(nil, RTLD_NOW), "ptsname"), "ptsname is in the C library")
            let ptsname = unsafeBitCast(symbol, to: (@convention(c) (Int32) -> UnsafePointer<CChar>?).self)
            return ptsname(master).map { PathText.decode(bytesOf: $0) }
        }
    }

    /// What is waiting in a descriptor opened without blocking, up to its end or until nothing more is there.
    static func readAvailable(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return result }
            result += buffer.prefix(count)
        }
    }

    /// Up to `count` bytes from `fd`, waiting at most 5 s for them.
    static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .seconds(5)
        while result.count < count, ContinuousClock.now < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let got = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard got > 0 else { break }
            result += buffer.prefix(got)
        }
        return result
    }
}
