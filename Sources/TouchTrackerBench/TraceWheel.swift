import XorgTestSupport

/// Wheel clicks through Xorg's inputtest pointer, as a mouse's wheel sends them (XI 2.1 smooth-scroll valuators, 120
/// a click), with Ctrl held on the inputtest keyboard for a zoom step; each is timed to the first frame that includes
/// it (the trace counts the scrolls the app handled, so a frame drawn because a tile finished is never taken for it).
/// A touchpad's two-finger travel goes the same way through the inputtest touchpad (its scroll valuators, 8 units a
/// pixel).
struct TraceWheel {
    let pointer: InputTestDevice
    let touchpad: InputTestDevice
    let keyboard: InputTestDevice
    var trace: AppTrace
    /// Clicks sent so far (each reaches the app as one scroll).
    private(set) var sent = 0

    /// The valuator's travel of one click on the inputtest pointer.
    static let click = 120.0
    /// Keys on the servers' US layout (evdev code + 8).
    static let controlKey: Int32 = 37
    static let shiftKey: Int32 = 50
    static let jKey: Int32 = 44

    init(server: XorgServer, trace: AppTrace) throws {
        pointer = try server.pointer
        touchpad = try server.gesture
        keyboard = try server.keyboard
        self.trace = trace
    }

    /// Puts the pointer over window point (`x`, `y`) (the window fills the screen) and waits until the window has
    /// seen it come in: it reads where the scroll valuators stand when the pointer enters.
    func point(at x: Double, _ y: Double) async throws {
        try pointer.moveTo(x: x, y: y)
        try pointer.sync()
        try await Task.sleep(for: .milliseconds(300))
    }

    /// One click (`notches` of -1 or 1 on one axis), with Ctrl held for it when `zoom`; returns when it was sent
    /// and the frame that includes it.
    mutating func send(
        horizontal: Double = 0, vertical: Double = 0, zoom: Bool = false
    ) async throws -> (start: Double, frame: AppTrace.Frame) {
        if zoom {
            try keyboard.keyDown(keycode: Self.controlKey)
            try keyboard.sync()
        }
        let start = EndToEndLatency.now()
        try pointer.scroll(horizontal: horizontal * Self.click, vertical: vertical * Self.click)
        let sent = try await frame(sentAt: start)
        if zoom { try keyboard.keyUp(keycode: Self.controlKey) }
        return sent
    }

    /// Two fingers' travel on the touchpad by `pixels` down (up when negative), in one event.
    mutating func travel(vertical pixels: Double) async throws -> (start: Double, frame: AppTrace.Frame) {
        let start = EndToEndLatency.now()
        try touchpad.scroll(vertical: pixels * Self.touchpadUnitsPerPixel)
        return try await frame(sentAt: start)
    }

    /// The inputtest touchpad's valuator units a pixel of travel (libinput's 15 pixels an increment of 120).
    static let touchpadUnitsPerPixel = 8.0

    /// Counts one scroll sent at `start` and waits for its frame.
    private mutating func frame(sentAt start: Double) async throws -> (start: Double, frame: AppTrace.Frame) {
        sent += 1
        let frame = try await trace.frame(scrolls: sent, what: "the frame of scroll \(sent)")
        trace.forget(before: frame.time)
        return (start, frame)
    }

    /// Presses Ctrl+Shift+J (fit the whole drawing in the window) and returns when it was sent.
    func fitDrawing() throws -> Double {
        for key in [Self.controlKey, Self.shiftKey] { try keyboard.keyDown(keycode: key) }
        let start = EndToEndLatency.now()
        try keyboard.keyDown(keycode: Self.jKey)
        try keyboard.keyUp(keycode: Self.jKey)
        for key in [Self.shiftKey, Self.controlKey] { try keyboard.keyUp(keycode: key) }
        return start
    }
}
