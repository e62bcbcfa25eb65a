import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A client of one Xorg `inputtest` input device, speaking the binary protocol of
/// `/usr/include/xorg/xf86-input-inputtest-protocol.h` (version 1.1) over its Unix socket.
///
/// Coordinates are ROOT-WINDOW pixels; they are converted to the driver's 0..65535 axis range
/// over the screen's current mode size (`root = v * width / 65536`, so `v = x * 65536 / width`
/// lands exactly on `x`).
///
/// The driver drops the connection for good on any malformed message, so every message is
/// built to its exact C `sizeof` (checked) and written completely. A device accepts one client
/// for the server's lifetime: get devices from `XorgServer.device(_:)`, which caches them.
public final class InputTestDevice: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case touch
        case pointer
        case keyboard
        /// A touchpad that reports XI 2.4 pinch and swipe gestures.
        case gesture
        /// A tablet's pen, as XI2 shows one: an absolute pointer with proximity and an "Abs Pressure" axis (4,
        /// 0...1000), its tip button 1, named "touchtracker stylus pen".
        case pen
        /// The same pen's eraser end, as drivers show it: a device of its own named "touchtracker stylus eraser".
        case eraser

        /// The inputtest driver's `DeviceType` for the device.
        public var deviceType: String {
            switch self {
            case .touch: "Touch"
            case .pointer: "PointerAbsolute"
            case .keyboard: "Keyboard"
            case .gesture: "PointerGesture"
            case .pen, .eraser: "PointerAbsoluteProximity"
            }
        }
    }

    public struct ProtocolError: Error, CustomStringConvertible {
        public let description: String
    }

    // enum xf86ITEventType
    private enum EventType: UInt32 {
        case clientVersion = 0
        case waitForSync = 1
        case motion = 2
        case proximity = 3
        case button = 4
        case key = 5
        case touch = 6
        case gesturePinch = 7
        case gestureSwipe = 8
    }

    // enum xf86ITResponseType
    private enum ResponseType: UInt32 {
        case serverVersion = 0
        case syncFinished = 1
    }

    /// XI2 touch event types carried in `touch_type`.
    public enum TouchPhase: UInt32 {
        case begin = 18  // XI_TouchBegin
        case update = 19  // XI_TouchUpdate
        case end = 20  // XI_TouchEnd
    }

    // sizeof() of the C structs (x86_64 and every other LP64/ILP32 ABI with 8-byte double alignment).
    public static let valuatorDataSize = 1040  // xf86ITValuatorData
    public static let clientVersionSize = 12  // xf86ITEventClientVersion
    public static let waitForSyncSize = 8  // xf86ITEventWaitForSync
    public static let motionSize = 1056  // xf86ITEventMotion
    public static let buttonSize = 1064  // xf86ITEventButton
    public static let proximitySize = 1056  // xf86ITEventProximity
    public static let keySize = 16  // xf86ITEventKey
    public static let touchSize = 1056  // xf86ITEventTouch
    public static let gesturePinchSize = 64  // xf86ITEventGesturePinch
    public static let gestureSwipeSize = 48  // xf86ITEventGestureSwipe
    public static let serverVersionSize = 12  // xf86ITResponseServerVersion
    public static let syncFinishedSize = 8  // xf86ITResponseSyncFinished

    public let kind: Kind
    public let socketPath: String
    public let screenWidth: Int
    public let screenHeight: Int
    /// The server's protocol version from the handshake.
    public let serverVersion: (major: UInt16, minor: UInt16)

    private struct Connection {
        /// The socket; -1 once closed.
        var fd: Int32
        /// Whether any input event went out yet (see `sync()`).
        var hasSentEvent = false
    }

    /// The lock also keeps messages from interleaving.
    private let connection: Mutex<Connection>

    /// Connects to the device socket (retrying briefly while the server creates it) and performs
    /// the CLIENT_VERSION / SERVER_VERSION handshake.
    public init(
        kind: Kind, socketPath: String, screenWidth: Int, screenHeight: Int,
        connectTimeout: Duration = .seconds(5)
    ) throws {
        self.kind = kind
        self.socketPath = socketPath
        self.screenWidth = screenWidth
        self.screenHeight = screenHeight
        let socket = try Self.connect(path: socketPath, timeout: connectTimeout)
        do {
            var message = MessageBuilder()
            message.header(length: Self.clientVersionSize, type: EventType.clientVersion.rawValue)
            message.u16(1)  // XF86IT_PROTOCOL_VERSION_MAJOR
            message.u16(1)  // XF86IT_PROTOCOL_VERSION_MINOR
            try Self.writeAll(socket, message.finished(expectedLength: Self.clientVersionSize))
            let reply = try Self.readExactly(socket, count: Self.serverVersionSize, timeout: .seconds(5))
            let length = reply.u32(at: 0)
            let type = reply.u32(at: 4)
            guard length == Self.serverVersionSize, type == ResponseType.serverVersion.rawValue else {
                throw ProtocolError(description: "unexpected version reply length \(length) type \(type)")
            }
            serverVersion = (reply.u16(at: 8), reply.u16(at: 10))
        } catch {
            _ = Glibc.close(socket)
            throw error
        }
        connection = Mutex(Connection(fd: socket))
    }

    deinit {
        close()
    }

    public func close() {
        connection.withLock { connection in
            if connection.fd >= 0 {
                _ = Glibc.close(connection.fd)
                connection.fd = -1
            }
        }
    }

    // MARK: Touch

    public func touchBegin(id: UInt32, x: Double, y: Double) throws {
        try touch(.begin, id: id, x: x, y: y)
    }

    public func touchUpdate(id: UInt32, x: Double, y: Double) throws {
        try touch(.update, id: id, x: x, y: y)
    }

    public func touchEnd(id: UInt32, x: Double, y: Double) throws {
        try touch(.end, id: id, x: x, y: y)
    }

    /// A touch event at root pixel (x, y); `pressure` is the raw "Abs MT Pressure" value (valuator 4, 0...2047 on
    /// the inputtest touch device, as XIQueryDevice reports it), sent only when given.
    public func touch(_ phase: TouchPhase, id: UInt32, x: Double, y: Double, pressure: Double? = nil) throws {
        var message = MessageBuilder()
        message.header(length: Self.touchSize, type: EventType.touch.rawValue)
        message.u32(id)
        message.u32(phase.rawValue)
        message.valuators(axisValues(x: x, y: y), pressure: pressure)
        try send(message.finished(expectedLength: Self.touchSize))
    }

    // MARK: Pointer

    /// Absolute pointer motion to root pixel (x, y); `pressure` is the raw "Abs Pressure" value of a pen (valuator 4,
    /// 0...1000), sent only when given.
    public func moveTo(x: Double, y: Double, pressure: Double? = nil) throws {
        var message = MessageBuilder()
        message.header(length: Self.motionSize, type: EventType.motion.rawValue)
        message.u32(1)  // is_absolute
        message.padding(4)
        message.valuators(axisValues(x: x, y: y), pressure: pressure)
        try send(message.finished(expectedLength: Self.motionSize))
    }

    /// Scrolls by (`horizontal`, `vertical`) on the device's scroll valuators (2 and 3), as a driver posts a wheel or
    /// touchpad scroll: relative motion of those valuators alone. The inputtest pointers' increment is 120 a click,
    /// so 120 is one wheel click down (or right), -60 half a click up; the server makes buttons 4 to 7 from it, marked
    /// emulated, for older clients.
    public func scroll(horizontal: Double = 0, vertical: Double = 0) throws {
        var message = MessageBuilder()
        message.header(length: Self.motionSize, type: EventType.motion.rawValue)
        message.u32(0)  // is_absolute: scroll valuators are relative
        message.padding(4)
        message.valuators(nil, scroll: (horizontal, vertical))
        try send(message.finished(expectedLength: Self.motionSize))
    }

    /// A pen comes within the tablet's reach at root pixel (x, y) (`inReach`), or leaves it: XI 1's ProximityIn
    /// and ProximityOut.
    public func proximity(inReach: Bool, x: Double, y: Double) throws {
        var message = MessageBuilder()
        message.header(length: Self.proximitySize, type: EventType.proximity.rawValue)
        message.u32(inReach ? 1 : 0)  // is_prox_in
        message.padding(4)
        message.valuators(axisValues(x: x, y: y))
        try send(message.finished(expectedLength: Self.proximitySize))
    }

    /// Presses a pointer button (1 = left) at the current pointer position.
    public func buttonDown(_ button: Int32 = 1) throws {
        try self.button(button, pressed: true)
    }

    /// Releases a pointer button at the current pointer position.
    public func buttonUp(_ button: Int32 = 1) throws {
        try self.button(button, pressed: false)
    }

    private func button(_ button: Int32, pressed: Bool) throws {
        var message = MessageBuilder()
        message.header(length: Self.buttonSize, type: EventType.button.rawValue)
        message.i32(1)  // is_absolute
        message.i32(button)
        message.u32(pressed ? 1 : 0)
        message.padding(4)
        message.valuators(nil)
        try send(message.finished(expectedLength: Self.buttonSize))
    }

    // MARK: Touchpad gestures

    /// The phases of a touchpad gesture, as XI 2.4 numbers them for pinches; swipes add 3.
    public enum GesturePhase: UInt16 {
        case begin = 27  // XI_GesturePinchBegin
        case update = 28  // XI_GesturePinchUpdate
        case end = 29  // XI_GesturePinchEnd
    }

    /// A touchpad pinch event: `scale` relative to the gesture's start, `deltaAngle` in degrees since the last event.
    public func gesturePinch(
        _ phase: GesturePhase, fingers: UInt16 = 2, dx: Double = 0, dy: Double = 0, scale: Double,
        deltaAngle: Double
    ) throws {
        var message = MessageBuilder()
        message.header(length: Self.gesturePinchSize, type: EventType.gesturePinch.rawValue)
        message.u16(phase.rawValue)
        message.u16(fingers)
        message.u32(0)  // flags
        for value in [dx, dy, dx, dy, scale, deltaAngle] { message.f64(value) }
        try send(message.finished(expectedLength: Self.gesturePinchSize))
    }

    /// A touchpad swipe event moving by (dx, dy) since the last one.
    public func gestureSwipe(_ phase: GesturePhase, fingers: UInt16 = 3, dx: Double = 0, dy: Double = 0) throws {
        var message = MessageBuilder()
        message.header(length: Self.gestureSwipeSize, type: EventType.gestureSwipe.rawValue)
        message.u16(phase.rawValue + 3)  // XI_GestureSwipeBegin is XI_GesturePinchBegin + 3
        message.u16(fingers)
        message.u32(0)  // flags
        for value in [dx, dy, dx, dy] { message.f64(value) }
        try send(message.finished(expectedLength: Self.gestureSwipeSize))
    }

    // MARK: Keyboard

    /// Presses the key with X keycode `keycode` (evdev code + 8, e.g. 38 is "a" on a US layout).
    public func keyDown(keycode: Int32) throws {
        try key(keycode, pressed: true)
    }

    public func keyUp(keycode: Int32) throws {
        try key(keycode, pressed: false)
    }

    private func key(_ keycode: Int32, pressed: Bool) throws {
        var message = MessageBuilder()
        message.header(length: Self.keySize, type: EventType.key.rawValue)
        message.i32(keycode)
        message.u32(pressed ? 1 : 0)
        try send(message.finished(expectedLength: Self.keySize))
    }

    // MARK: Sync

    /// Returns once the server has processed every event sent before (WAIT_FOR_SYNC →
    /// SYNC_FINISHED). This does not prove any X client has read the resulting events.
    ///
    /// Before the first input event on a device the driver never answers a WAIT_FOR_SYNC (seen
    /// with xserver 21.1), so with nothing sent yet this returns at once: there is nothing to wait for.
    public func sync(timeout: Duration = .seconds(5)) throws {
        var message = MessageBuilder()
        message.header(length: Self.waitForSyncSize, type: EventType.waitForSync.rawValue)
        let bytes = message.finished(expectedLength: Self.waitForSyncSize)
        try connection.withLock { connection in
            let fd = connection.fd
            guard fd >= 0 else { throw ProtocolError(description: "\(kind.rawValue) device closed") }
            guard connection.hasSentEvent else { return }
            try Self.writeAll(fd, bytes)
            let reply = try Self.readExactly(fd, count: Self.syncFinishedSize, timeout: timeout)
            guard reply.u32(at: 0) == Self.syncFinishedSize, reply.u32(at: 4) == ResponseType.syncFinished.rawValue
            else {
                throw ProtocolError(description: "unexpected sync reply \(reply)")
            }
        }
    }

    // MARK: Helpers

    /// Driver axis values (0..65535) for root pixel (x, y).
    public func axisValues(x: Double, y: Double) -> (Double, Double) {
        func axis(_ pixel: Double, _ size: Int) -> Double {
            min(max(pixel * 65536 / Double(size), 0), 65535)
        }
        return (axis(x, screenWidth), axis(y, screenHeight))
    }

    private func send(_ bytes: [UInt8]) throws {
        try connection.withLock { connection in
            guard connection.fd >= 0 else { throw ProtocolError(description: "\(kind.rawValue) device closed") }
            try Self.writeAll(connection.fd, bytes)
            connection.hasSentEvent = true
        }
    }

    private static func connect(path: String, timeout: Duration) throws -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else {
            throw ProtocolError(description: "socket path too long (\(pathBytes.count) ≥ \(capacity)): \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: pathBytes)
            raw[pathBytes.count] = 0
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw ProtocolError(description: "socket(): \(String(cString: strerror(errno)))") }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            if result == 0 { return fd }
            let error = errno
            _ = Glibc.close(fd)
            guard (error == ENOENT || error == ECONNREFUSED), clock.now < deadline else {
                throw ProtocolError(description: "connect(\(path)): \(String(cString: strerror(error)))")
            }
            usleep(10_000)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw ProtocolError(description: "send(): \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    private static func readExactly(_ fd: Int32, count: Int, timeout: Duration) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var offset = 0
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while offset < count {
            let remaining = clock.now.duration(to: deadline)
            let milliseconds = max(
                0, Int32(remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000)
            )
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ProtocolError(description: "poll(): \(String(cString: strerror(errno)))")
            }
            if ready == 0 { throw ProtocolError(description: "timed out after \(timeout) reading a reply") }
            let received = buffer.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress! + offset, count - offset, 0)
            }
            if received < 0 {
                if errno == EINTR { continue }
                throw ProtocolError(description: "recv(): \(String(cString: strerror(errno)))")
            }
            if received == 0 { throw ProtocolError(description: "the server closed the connection") }
            offset += received
        }
        return buffer
    }
}

/// Builds one little-endian inputtest message.
private struct MessageBuilder {
    private(set) var bytes: [UInt8] = []

    mutating func header(length: Int, type: UInt32) {
        u32(UInt32(length))
        u32(type)
    }

    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func i32(_ value: Int32) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
    mutating func f64(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes += $0 } }
    mutating func padding(_ count: Int) { bytes += repeatElement(0, count: count) }

    /// xf86ITValuatorData: uint32 has_unaccelerated, uint8 mask[8], 4 bytes padding,
    /// double valuators[64], double unaccelerated[64]. `axes` sets axes 0 (x) and 1 (y), `scroll` 2 and 3.
    mutating func valuators(_ axes: (Double, Double)?, pressure: Double? = nil, scroll: (Double, Double)? = nil) {
        let start = bytes.count
        u32(0)  // has_unaccelerated
        // mask[0]: axes 0 and 1, 2 and 3, 4
        bytes.append((axes == nil ? 0 : 0b11) | (scroll == nil ? 0 : 0b1100) | (pressure == nil ? 0 : 0b1_0000))
        padding(7)  // mask[1...7]
        padding(4)  // alignment of the doubles
        for index in 0..<64 {
            switch (index, axes) {
            case (0, let axes?): f64(axes.0)
            case (1, let axes?): f64(axes.1)
            case (2, _): f64(scroll?.0 ?? 0)
            case (3, _): f64(scroll?.1 ?? 0)
            case (4, _): f64(pressure ?? 0)
            default: f64(0)
            }
        }
        padding(64 * 8)  // unaccelerated
        precondition(bytes.count - start == InputTestDevice.valuatorDataSize)
    }

    func finished(expectedLength: Int) -> [UInt8] {
        precondition(bytes.count == expectedLength, "inputtest message is \(bytes.count) bytes, not \(expectedLength)")
        return bytes
    }
}

extension [UInt8] {
    fileprivate func u16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    fileprivate func u32(at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(self[offset + $1]) << (8 * $1) }
    }
}
