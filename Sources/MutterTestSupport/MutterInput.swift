import Foundation
import Synchronization
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Input that mutter itself injects: its virtual touchscreen, pointer and keyboard, driven through
/// `org.gnome.Mutter.RemoteDesktop` by the harness's helper (`RemoteDesktopHelper`). mutter delivers these events
/// as it would a libinput device's, to the surface under the touch or the pointer, or with keyboard focus.
///
/// Coordinates are the screen cast stream's pixels, which are the monitor's physical pixels: mutter 43 lays out
/// monitors in physical pixels, so at scale 2 a window's logical point (x, y) is at its origin plus (2x, 2y).
///
/// Each call returns once mutter has taken the event (its D-Bus method returned), in order; not once a client has
/// read it. Calls are serialized by a lock.
public final class MutterInput: Sendable {
    public struct CommandError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Linux evdev button codes (linux/input-event-codes.h).
    public enum PointerButton: Int, Sendable {
        case left = 272
        case right = 273
        case middle = 274
    }

    private let helper: ChildProcess
    private struct Channel {
        /// The write end of the helper's command FIFO; -1 once closed.
        var fd: Int32
        /// How many answers have been read so far (the helper answers every command with one line).
        var answers = 0
    }
    private let channel: Mutex<Channel>

    init(helper: ChildProcess, fifoPath: String, timeout: Duration) throws {
        self.helper = helper
        // The helper opens the FIFO for reading once it is ready; until then opening it without blocking fails with
        // ENXIO.
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var fd: Int32 = -1
        while fd < 0 {
            fd = open(fifoPath, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if fd >= 0 { break }
            guard errno == ENXIO, helper.isRunning, ContinuousClock.now < deadline else {
                throw CommandError(description: "the remote desktop helper's FIFO: \(String(cString: strerror(errno)))")
            }
            usleep(5_000)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        channel = Mutex(Channel(fd: fd))
    }

    deinit {
        close()
    }

    /// Closes the FIFO: the helper reads its end and exits, which ends mutter's sessions.
    func close() {
        channel.withLock { channel in
            if channel.fd >= 0 {
                _ = Glibc.close(channel.fd)
                channel.fd = -1
            }
        }
    }

    // MARK: Touch

    /// A touch point in `slot` (mutter's virtual touchscreen has 0...9) goes down at stream pixel (x, y).
    public func touchDown(slot: Int, x: Double, y: Double) throws {
        try send("touch-down \(slot) \(x) \(y)")
    }

    public func touchMotion(slot: Int, x: Double, y: Double) throws {
        try send("touch-motion \(slot) \(x) \(y)")
    }

    public func touchUp(slot: Int) throws {
        try send("touch-up \(slot)")
    }

    // MARK: Pointer

    /// Moves the pointer to stream pixel (x, y).
    public func pointerMotion(x: Double, y: Double) throws {
        try send("motion \(x) \(y)")
    }

    public func pointerButton(_ button: PointerButton, pressed: Bool) throws {
        try send("button \(button.rawValue) \(pressed ? 1 : 0)")
    }

    /// Wheel clicks (`NotifyPointerAxisDiscrete`): `steps` down, or right when `horizontal`; negative up or left.
    public func pointerWheel(steps: Int, horizontal: Bool = false) throws {
        try send("axis-discrete \(horizontal ? 1 : 0) \(steps)")
    }

    /// Smooth scroll travel from fingers on a touchpad (`NotifyPointerAxis` with the finger source), ended as the
    /// fingers lifting when `finish`.
    public func pointerFingerScroll(dx: Double, dy: Double, finish: Bool = false) throws {
        // Flags: 1 finish, 2 wheel, 4 finger, 8 continuous.
        try send("axis \(dx) \(dy) \(4 | (finish ? 1 : 0))")
    }

    // MARK: Keyboard

    /// Presses or releases the key with Linux evdev code `code` (mutter's keymap: us).
    public func key(_ code: Int, pressed: Bool) throws {
        try send("key \(code) \(pressed ? 1 : 0)")
    }

    // MARK: Commands

    /// Sends one command line and waits for its answer; throws the helper's error.
    public func send(_ command: String, timeout: Duration = .seconds(10)) throws {
        precondition(!command.contains("\n"), "one command per line")
        try channel.withLock { channel in
            guard channel.fd >= 0 else { throw CommandError(description: "the remote desktop helper is closed") }
            var bytes = Array((command + "\n").utf8)
            while !bytes.isEmpty {
                let written = write(channel.fd, bytes, bytes.count)
                guard written > 0 else {
                    throw CommandError(
                        description: "writing to the remote desktop helper: \(String(cString: strerror(errno)))\n"
                            + String(decoding: helper.stderr, as: UTF8.self))
                }
                bytes.removeFirst(written)
            }
            channel.answers += 1
            let wanted = channel.answers
            let deadline = ContinuousClock.now.advanced(by: timeout)
            while true {
                // The first line is the helper's "ready"; answers follow it.
                let lines = String(decoding: helper.stdout, as: UTF8.self).split(separator: "\n")
                if lines.count > wanted {
                    let answer = lines[wanted]
                    guard answer == "ok" else { throw CommandError(description: "mutter input: \(answer)") }
                    return
                }
                guard helper.isRunning, ContinuousClock.now < deadline else {
                    throw CommandError(
                        description: "the remote desktop helper did not answer \(command): "
                            + String(decoding: helper.stderr, as: UTF8.self))
                }
                usleep(500)
            }
        }
    }
}
