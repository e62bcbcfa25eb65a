import Foundation
import Testing
import XorgTestSupport

/// A 64 KB file system of its own (tmpfs) for a test of a full disk. Mounting needs root, as CI has: a mount that
/// fails fails the test, it is not skipped.
enum SmallFileSystem {
    /// Mounts one on `folder`; false, with the test failed, when it cannot.
    static func mount(on folder: URL) throws -> Bool {
        let mount = try run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path])
        #expect(mount.status == 0, "mount failed (the test needs root, as CI has): \(mount.output)")
        return mount.status == 0
    }

    /// Unmounts the one on `folder` (lazily: the app may still hold a file in it).
    static func unmount(_ folder: URL) {
        _ = try? run("/bin/umount", ["-l", folder.path])
    }

    /// Fills what is left of the one on `folder` with a file, and returns it: removing it makes room again.
    static func fill(_ folder: URL) throws -> URL {
        let filler = folder.appendingPathComponent("filler")
        let fill = try run("/bin/dd", ["if=/dev/zero", "of=\(filler.path)", "bs=1k", "count=1024"])
        #expect(fill.status != 0, "the filler should have run out of room")
        return filler
    }

    /// Runs a system command to its end: its exit status and what it printed on stderr.
    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"])
        let status = process.waitForExit(timeout: .seconds(20))?.status ?? -1
        return (status, String(decoding: process.stderr, as: UTF8.self))
    }
}
