import Foundation
import XorgTestSupport

/// A connection to the tests' fake-input client of a `KWinServer` (`InputClient/touchtracker-kwin-input.c`): each
/// call sends one text command that the client turns into a request of KWin's `org_kde_kwin_fake_input`, which KWin
/// injects as input of its own and delivers to the window under the touch or the pointer, or with keyboard focus.
/// Shaped like `WestonInput`, so the tests of both compositors read alike.
///
/// Coordinates are KWin's GLOBAL LOGICAL coordinates (at scale 1.5 a 1024x768 output is 1024x768 of them, 1536x1152
/// pixels): add the window's client position (`KWinServer.windows()`) to a point in the window. Nothing adds frames:
/// end a group of touch events with `touchFrame()`. KWin's fake pointer has no frame request of its own (KWin frames
/// each pointer event), so `pointerFrame()` only keeps the tests' sequences shaped like the weston ones.
///
/// Commands that fail answer with an error; `sync()` reads up to its own answer and throws those. Blocking I/O,
/// serialized by a lock.
public final class KWinInput: Sendable {
    /// Errors the client answered for commands sent since the last `sync()`, or a broken connection.
    public typealias CommandError = LineConnection.CommandError

    public enum PointerButton: String, Sendable {
        case left, right, middle
    }

    public enum Axis: String, Sendable {
        case vertical, horizontal
    }

    private let connection: LineConnection

    /// Connects to the client's socket, retrying while it has not made it yet; `alive` says whether the client
    /// still runs (a client that exited will never listen).
    init(socketPath: String, timeout: Duration, alive: () -> Bool) throws {
        connection = try LineConnection(
            socketPath: socketPath, peer: "the KWin fake-input client", timeout: timeout, alive: alive)
    }

    public func close() {
        connection.close()
    }

    // MARK: Touch

    /// A new touch point `id` (any integer ≥ 0 not down already) at global logical point (x, y).
    public func touchDown(id: Int, x: Double, y: Double) throws {
        try send("touch down \(id) \(x) \(y)")
    }

    public func touchMotion(id: Int, x: Double, y: Double) throws {
        try send("touch motion \(id) \(x) \(y)")
    }

    public func touchUp(id: Int) throws {
        try send("touch up \(id)")
    }

    /// The touch events since the last frame belong together (KWin sends the client its wl_touch.frame).
    public func touchFrame() throws {
        try send("touch frame")
    }

    /// Every touch point is gone: KWin cancels the touch sequence (wl_touch.cancel for the client).
    public func touchCancel() throws {
        try send("touch cancel")
    }

    // MARK: Pointer

    /// Moves the pointer to global logical point (x, y); the surface under it gets pointer focus.
    public func pointerMotion(x: Double, y: Double) throws {
        try send("pointer motion \(x) \(y)")
    }

    public func pointerButton(_ button: PointerButton, pressed: Bool) throws {
        try send("pointer button \(button.rawValue) \(pressed ? "press" : "release")")
    }

    /// A scroll of `value` (wl_pointer.axis units: 10 is about one wheel click).
    public func pointerAxis(_ axis: Axis, value: Double) throws {
        try send("pointer axis \(axis.rawValue) \(value)")
    }

    /// Nothing to send: KWin ends each fake pointer event with a frame of its own.
    public func pointerFrame() throws {}

    // MARK: Keyboard

    /// Presses or releases the key with Linux evdev code `code`; KWin keeps the modifier state and sends the key to
    /// the window with keyboard focus (the active one).
    public func key(_ code: Int, pressed: Bool) throws {
        try send("key \(code) \(pressed ? "press" : "release")")
    }

    // MARK: Requests with answers

    /// An xdg-activation token KWin itself issues to the client (privileged by its .desktop file, so KWin grants it
    /// with no surface and honours it whatever window is active), for `appID` when given.
    public func activationToken(appID: String? = nil, timeout: Duration = .seconds(5)) throws -> String {
        let answer = try connection.request(
            "token" + (appID.map { " \($0)" } ?? ""), answerPrefix: "token ", timeout: timeout)
        return String(answer.dropFirst("token ".count))
    }

    /// The pixels of the logical area (x, y, width, height) as KWin's ScreenShot2 captures them at the output's
    /// native resolution.
    func screenshot(x: Int, y: Int, width: Int, height: Int, file: String, timeout: Duration) throws -> KWinScreenshot {
        let answer = try connection.request(
            "screenshot \(x) \(y) \(width) \(height) \(file)", answerPrefix: "screenshot ", timeout: timeout)
        let fields = Array(answer.split(separator: " ").dropFirst())
        guard fields.count == 5, let width = Int(fields[0]), let height = Int(fields[1]), let stride = Int(fields[2]),
            let format = Int(fields[3]), let scale = Double(fields[4])
        else { throw CommandError(messages: [answer], description: "unexpected screenshot answer: \(answer)") }
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        try? FileManager.default.removeItem(atPath: file)
        return KWinScreenshot(width: width, height: height, stride: stride, format: format, scale: scale, bytes: bytes)
    }

    // MARK: Commands

    /// Sends one command line (without its newline) as it is. An error it causes surfaces at the next `sync()`.
    public func send(_ command: String) throws {
        try connection.send(command)
    }

    /// Returns once KWin has handled every request sent before (a Wayland roundtrip of the client). Throws
    /// `CommandError` with the client's answers if any of those commands failed.
    public func sync(timeout: Duration = .seconds(5)) throws {
        try connection.request("sync", answerPrefix: "ok", timeout: timeout)
    }
}

/// A screenshot KWin's ScreenShot2 took: pixels in QImage's 32-bit formats (RGB32, ARGB32 or its premultiplied
/// form: bytes blue, green, red, alpha in memory), `scale` pixels to a logical unit.
public struct KWinScreenshot: Sendable {
    public let width: Int
    public let height: Int
    public let stride: Int
    /// The QImage::Format number (4 RGB32, 5 ARGB32, 6 ARGB32_Premultiplied).
    public let format: Int
    public let scale: Double
    public let bytes: [UInt8]

    /// The colour of pixel (x, y) (in pixels of the image, not logical units), nil outside it.
    public func pixel(x: Int, y: Int) -> (red: Int, green: Int, blue: Int)? {
        guard (0..<width).contains(x), (0..<height).contains(y), [4, 5, 6].contains(format) else { return nil }
        let offset = y * stride + x * 4
        return (Int(bytes[offset + 2]), Int(bytes[offset + 1]), Int(bytes[offset]))
    }
}
