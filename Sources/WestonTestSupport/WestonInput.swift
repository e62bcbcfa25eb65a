import Foundation
import XorgTestSupport

/// A connection to the input module of a `WestonServer` (`InputModule/touchtracker-test-input.c`): each call sends
/// one text command that the module turns into a real event of its seat "touchtracker-test", which weston delivers
/// to the client under it (the touch's or the pointer's) or with keyboard focus, as it would a libinput device's.
///
/// Coordinates are GLOBAL compositor pixels: the output sits at 0,0, and the kiosk shell offers every toplevel the
/// output's size, so for a window that takes it they are also the window's own (a smaller one is centred). Nothing
/// adds frames: end a group of touch events with `touchFrame()` and
/// pointer events with `pointerFrame()`, as a real device does (Xwayland acts on a pointer motion only at its frame).
///
/// Commands that fail answer with an error the module sends back; `sync()` reads up to its own answer and throws
/// those. Blocking I/O, serialized by a lock.
public final class WestonInput: Sendable {
    /// Errors the module answered for commands sent since the last `sync()` (without their "error " prefix), or a
    /// broken connection.
    public typealias CommandError = LineConnection.CommandError

    public enum PointerButton: String, Sendable {
        case left, right, middle
    }

    public enum Axis: String, Sendable {
        case vertical, horizontal
    }

    public let socketPath: String

    private let connection: LineConnection

    /// Connects to the module's socket, retrying while weston has not made it yet.
    public init(socketPath: String, connectTimeout: Duration = .seconds(5)) throws {
        self.socketPath = socketPath
        connection = try LineConnection(
            socketPath: socketPath, peer: "the weston input module", timeout: connectTimeout)
    }

    public func close() {
        connection.close()
    }

    // MARK: Touch

    /// A new touch point `id` (any integer ≥ 0 not down already) at global pixel (x, y).
    public func touchDown(id: Int, x: Double, y: Double) throws {
        try send("touch down \(id) \(x) \(y)")
    }

    public func touchMotion(id: Int, x: Double, y: Double) throws {
        try send("touch motion \(id) \(x) \(y)")
    }

    public func touchUp(id: Int) throws {
        try send("touch up \(id)")
    }

    /// wl_touch.frame: the touch events since the last frame belong together.
    public func touchFrame() throws {
        try send("touch frame")
    }

    /// wl_touch.cancel: every touch point is gone, its gesture no longer the client's.
    public func touchCancel() throws {
        try send("touch cancel")
    }

    // MARK: Pointer

    /// Moves the pointer to global pixel (x, y); the surface under it gets pointer focus.
    public func pointerMotion(x: Double, y: Double) throws {
        try send("pointer motion \(x) \(y)")
    }

    public func pointerButton(_ button: PointerButton, pressed: Bool) throws {
        try send("pointer button \(button.rawValue) \(pressed ? "press" : "release")")
    }

    /// A scroll of `value` (wl_pointer.axis units: 10 is about one wheel click, positive is down or right); with
    /// `discrete`, a wheel's clicks (axis_source wheel and axis_discrete go with it).
    public func pointerAxis(_ axis: Axis, value: Double, discrete: Int? = nil) throws {
        try send("pointer axis \(axis.rawValue) \(value)" + (discrete.map { " \($0)" } ?? ""))
    }

    public func pointerFrame() throws {
        try send("pointer frame")
    }

    // MARK: Keyboard

    /// Presses or releases the key with Linux evdev code `code` (30 is KEY_A; X keycodes are these plus 8). Weston
    /// keeps the modifier state from these, and sends them to the surface with keyboard focus (under the kiosk
    /// shell, the toplevel mapped last).
    public func key(_ code: Int, pressed: Bool) throws {
        try send("key \(code) \(pressed ? "press" : "release")")
    }

    // MARK: Commands

    /// Sends one command line (without its newline) as it is: the typed calls above, or anything else (to test the
    /// module). An error it causes surfaces at the next `sync()`.
    public func send(_ command: String) throws {
        try connection.send(command)
    }

    /// Returns once the module has run every command sent before and weston has written the events they made to
    /// its clients' sockets (not: once a client has read them). Throws `CommandError` with the module's answers if
    /// any of those commands failed. A sync that gets no answer closes the connection (a late "ok" would otherwise
    /// answer the next one).
    public func sync(timeout: Duration = .seconds(5)) throws {
        try connection.request("sync", answerPrefix: "ok", timeout: timeout)
    }
}
