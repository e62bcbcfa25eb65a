import BackgroundWork
import CX11
import Foundation
import Glibc
import XorgTestSupport

/// When the X server saw a window's pixels change (the DAMAGE extension): how the benchmark times another program's
/// frames, which print no trace, and this app's the same way beside it. Each `DamageNotify` is stamped with
/// CLOCK_MONOTONIC when it arrives, on a worker of its own that waits on the connection, so a stamp is not late by
/// the benchmark's polling (a frame of this app takes a fraction of a millisecond).
///
/// libXdamage's header (libxdamage-dev) is no build dependency of the app, while its library is installed with any
/// X server and toolkit; its three calls are looked up in it at run time.
final class WindowDamage: @unchecked Sendable {
    // @unchecked: `display` is used by `init` and then only by the watching thread; `arrivals` and `stopping` only
    // under `lock`.
    struct Arrival {
        var time: Double
        /// Pixels of the rectangle the event reports.
        var area: Int
    }

    private let display: OpaquePointer
    private let lock = NSLock()
    private var arrivals: [Arrival] = []
    private var stopping = false
    private let stopped = DispatchSemaphore(value: 0)
    private let eventBase: Int32

    /// Watches `window` and every window inside it on X display `name` (a toolkit may draw into a child window).
    init(display name: String, window: UInt) throws {
        guard let library = dlopen("libXdamage.so.1", RTLD_NOW) else {
            throw EndToEndLatency.Failure(
                description: "cannot load libXdamage.so.1 (the DAMAGE extension's client library)")
        }
        typealias QueryExtension =
            @convention(c) (
                OpaquePointer?, UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>
            ) -> Int32
        typealias Create = @convention(c) (OpaquePointer?, UInt, Int32) -> UInt
        guard let query = dlsym(library, "XDamageQueryExtension"), let create = dlsym(library, "XDamageCreate") else {
            throw EndToEndLatency.Failure(description: "libXdamage.so.1 lacks XDamageQueryExtension or XDamageCreate")
        }
        guard let display = TestDisplayConnection.open(name) else {
            throw EndToEndLatency.Failure(description: "cannot connect to \(name)")
        }
        var base: Int32 = 0
        var errorBase: Int32 = 0
        guard unsafeBitCast(query, to: QueryExtension.self)(display, &base, &errorBase) != 0 else {
            XCloseDisplay(display)
            throw EndToEndLatency.Failure(description: "the X server on \(name) has no DAMAGE extension")
        }
        self.display = display
        eventBase = base
        // XDamageReportRawRectangles (0): an event for every drawing request, nothing to acknowledge.
        for each in Self.windows(in: window, display: display) {
            _ = unsafeBitCast(create, to: Create.self)(display, each, 0)
        }
        XSync(display, 0)
        // At the process's own priority: a stamp taken late would be the benchmark's error, not the program's.
        Worker.run("damage watcher", priority: .prompt) { [self] in watch() }
    }

    deinit {
        XCloseDisplay(display)
    }

    /// Ends the watching thread (call before letting go).
    func stop() {
        lock.withLock { stopping = true }
        stopped.wait()
    }

    /// The damage seen at or after `time`, in order (looked for from the newest back, with nothing copied but them).
    func seen(atOrAfter time: Double) -> [Arrival] {
        lock.withLock {
            var start = arrivals.endIndex
            while start > arrivals.startIndex, arrivals[start - 1].time >= time { start -= 1 }
            return Array(arrivals[start...])
        }
    }

    /// Waits until no damage came for `quiet` seconds (at most `timeout`), and returns the last damage's time
    /// (nil: none since `time`).
    func quiet(for quiet: Double, since time: Double, timeout: Double = 10) async throws -> Double? {
        let deadline = EndToEndLatency.now() + timeout
        while true {
            let last = lock.withLock { arrivals.last?.time }
            let now = EndToEndLatency.now()
            if now - max(last ?? time, time) >= quiet || now > deadline {
                return last.flatMap { $0 >= time ? $0 : nil }
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func watch() {
        var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
        while !lock.withLock({ stopping }) {
            _ = poll(&descriptor, 1, 50)
            let now = EndToEndLatency.now()
            var event = XEvent()
            while XPending(display) > 0 {
                XNextEvent(display, &event)
                // XDamageNotify is the extension's event 0; XDamageNotifyEvent's `area` (an XRectangle) follows
                // type, serial, send_event, display, drawable, damage, level, more and timestamp: 64 bytes on LP64.
                guard event.type == eventBase else { continue }
                let area = withUnsafeBytes(of: &event) { bytes in
                    let offset = 64
                    let width = bytes.load(fromByteOffset: offset + 4, as: UInt16.self)
                    let height = bytes.load(fromByteOffset: offset + 6, as: UInt16.self)
                    return Int(width) * Int(height)
                }
                lock.withLock { arrivals.append(Arrival(time: now, area: area)) }
            }
        }
        stopped.signal()
    }

    /// `window` and its descendants that show pixels (an input-only window has none to damage).
    private static func windows(in window: UInt, display: OpaquePointer) -> [UInt] {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, Window(window), &attributes) != 0, attributes.class == InputOutput else {
            return []
        }
        var root: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, Window(window), &root, &parent, &children, &count) != 0 else { return [window] }
        defer { if let children { XFree(children) } }
        var all = [window]
        for index in 0..<Int(count) { all += windows(in: UInt(children![index]), display: display) }
        return all
    }

    /// The mapped top-level windows on display `name` at least `minimumWidth` pixels wide, largest first.
    static func topLevelWindows(display name: String, minimumWidth: Int32 = 200) throws -> [UInt] {
        guard let display = TestDisplayConnection.open(name) else {
            throw EndToEndLatency.Failure(description: "cannot connect to \(name)")
        }
        defer { XCloseDisplay(display) }
        var root: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, XDefaultRootWindow(display), &root, &parent, &children, &count) != 0 else {
            return []
        }
        defer { if let children { XFree(children) } }
        var found: [(window: UInt, area: Int32)] = []
        for index in 0..<Int(count) {
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(display, children![index], &attributes) != 0,
                attributes.map_state == IsViewable, attributes.width >= minimumWidth
            else { continue }
            found.append((UInt(children![index]), attributes.width * attributes.height))
        }
        return found.sorted { $0.area > $1.area }.map(\.window)
    }
}
