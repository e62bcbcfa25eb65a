import CX11
import Foundation
import XorgTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal XI2 client for checking what the server delivers: it maps its own window (by
/// default covering the whole screen) and selects XI2 events on it for all master devices.
/// Not thread-safe; use it from one test.
final class XI2Listener {
    struct SetupError: Error, CustomStringConvertible {
        let description: String
    }

    struct Event: Equatable, CustomStringConvertible {
        /// XI_TouchBegin, XI_Motion, …
        let type: Int32
        /// Touch id, button or keycode.
        let detail: UInt32
        let rootX: Double
        let rootY: Double
        let eventX: Double
        let eventY: Double
        let flags: Int32
        let sourceID: Int32

        var description: String {
            "XI2 event \(type) detail \(detail) root (\(rootX), \(rootY)) event (\(eventX), \(eventY)) flags \(flags)"
        }
    }

    let window: Window
    private let connection: OpaquePointer
    private let xiOpcode: Int32

    /// Maps a window at (x, y, width, height) (nil: the whole screen) and selects `events`
    /// (XI_* constants) on it with XIAllMasterDevices. Touch events must be selected together.
    init(
        display: String, events: [Int32], x: Int32 = 0, y: Int32 = 0, width: UInt32? = nil, height: UInt32? = nil
    ) throws {
        guard let connection = TestDisplayConnection.open(display) else {
            throw SetupError(description: "cannot open display \(display)")
        }
        self.connection = connection
        var opcode: Int32 = 0
        var firstEvent: Int32 = 0
        var firstError: Int32 = 0
        guard XQueryExtension(connection, "XInputExtension", &opcode, &firstEvent, &firstError) != 0 else {
            XCloseDisplay(connection)
            throw SetupError(description: "no XInputExtension on \(display)")
        }
        xiOpcode = opcode
        var major: Int32 = 2
        var minor: Int32 = 2
        guard XIQueryVersion(connection, &major, &minor) == Success, major * 100 + minor >= 202 else {
            XCloseDisplay(connection)
            throw SetupError(description: "XI 2.2 not available on \(display) (got \(major).\(minor))")
        }

        let screen = XDefaultScreen(connection)
        let root = XRootWindow(connection, screen)
        window = XCreateSimpleWindow(
            connection, root, x, y,
            width ?? UInt32(XDisplayWidth(connection, screen)),
            height ?? UInt32(XDisplayHeight(connection, screen)),
            0, XBlackPixel(connection, screen), XWhitePixel(connection, screen))
        XSelectInput(connection, window, StructureNotifyMask)

        var maskBytes = [UInt8](repeating: 0, count: Int(cx11_xi_mask_len()))
        for event in events { cx11_xi_set_mask(&maskBytes, event) }
        let status = maskBytes.withUnsafeMutableBufferPointer { buffer in
            var mask = XIEventMask(
                deviceid: XIAllMasterDevices, mask_len: Int32(buffer.count), mask: buffer.baseAddress)
            return XISelectEvents(connection, window, &mask, 1)
        }
        guard status == Success else {
            XCloseDisplay(connection)
            throw SetupError(description: "XISelectEvents failed: \(status)")
        }
        XMapWindow(connection, window)
        XFlush(connection)

        // Wait until mapped, so injected input finds the window.
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        var mapped = false
        while !mapped, ContinuousClock.now < deadline {
            guard Self.waitReadable(connection, until: deadline) else { break }
            while XPending(connection) > 0 {
                var event = XEvent()
                XNextEvent(connection, &event)
                if event.type == MapNotify && event.xmap.window == window { mapped = true }
            }
        }
        guard mapped else {
            XCloseDisplay(connection)
            throw SetupError(description: "window never mapped on \(display)")
        }
    }

    deinit {
        XCloseDisplay(connection)
    }

    /// The next XI2 device event, or nil if none arrives within `timeout`.
    func nextEvent(timeout: Duration = .seconds(5)) -> Event? {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            while XPending(connection) > 0 {
                var event = XEvent()
                XNextEvent(connection, &event)
                if let decoded = decode(&event) { return decoded }
            }
            guard Self.waitReadable(connection, until: deadline) else { return nil }
        }
    }

    /// Collects events until `isLast` returns true for one (which is included) or `timeout`
    /// passes.
    func events(timeout: Duration = .seconds(5), until isLast: (Event) -> Bool) -> [Event] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        var collected: [Event] = []
        while let event = nextEvent(timeout: ContinuousClock.now.duration(to: deadline)) {
            collected.append(event)
            if isLast(event) { break }
        }
        return collected
    }

    private func decode(_ event: inout XEvent) -> Event? {
        guard event.type == GenericEvent, event.xcookie.extension == xiOpcode,
            XGetEventData(connection, &event.xcookie) != 0
        else { return nil }
        defer { XFreeEventData(connection, &event.xcookie) }
        switch event.xcookie.evtype {
        case XI_KeyPress, XI_KeyRelease, XI_ButtonPress, XI_ButtonRelease, XI_Motion,
            XI_TouchBegin, XI_TouchUpdate, XI_TouchEnd:
            let device = event.xcookie.data.assumingMemoryBound(to: XIDeviceEvent.self).pointee
            return Event(
                type: device.evtype, detail: UInt32(bitPattern: device.detail),
                rootX: device.root_x, rootY: device.root_y, eventX: device.event_x, eventY: device.event_y,
                flags: device.flags, sourceID: device.sourceid)
        default:
            return nil
        }
    }

    private static func waitReadable(_ connection: OpaquePointer, until deadline: ContinuousClock.Instant) -> Bool {
        XFlush(connection)
        if XPending(connection) > 0 { return true }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        let milliseconds = Int32(
            remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
        var pfd = pollfd(fd: XConnectionNumber(connection), events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, max(milliseconds, 1)) > 0
    }
}
