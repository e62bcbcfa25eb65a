import Foundation
import Glibc

/// A `dbus-daemon --session` of the test's own, with no services, for the portal's failures. Spawned and reaped
/// with posix_spawn and waitpid (Foundation's `Process.waitUntilExit` spins on this toolchain).
final class PrivateBus {
    let address: String
    private let pid: pid_t
    private let config: String

    struct SpawnError: Error { let description: String }

    init() throws {
        config = NSTemporaryDirectory() + "bus-\(UUID().uuidString).conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:tmpdir=/tmp</listen>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/>
        <allow own="*"/></policy></busconfig>
        """.write(toFile: config, atomically: true, encoding: .utf8)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw SpawnError(description: "pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let arguments = ["/usr/bin/dbus-daemon", "--config-file=\(config)", "--nofork", "--print-address=1"]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        close(pipeEnds[1])
        guard status == 0 else {
            close(pipeEnds[0])
            throw SpawnError(description: "cannot start dbus-daemon: \(String(cString: strerror(status)))")
        }
        pid = child
        var text: [UInt8] = []
        var byte: UInt8 = 0
        while read(pipeEnds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { text.append(byte) }
        close(pipeEnds[0])
        address = String(decoding: text, as: UTF8.self)
    }

    func stop() {
        // SIGKILL: a child spawned from a thread that blocks SIGTERM inherits the mask, and would never see it.
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        unlink(config)
    }
}
