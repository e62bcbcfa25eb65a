import CX11
import Foundation
import Testing
import XorgTestSupport

/// A private Xorg and the real app on it, launched with any arguments and environment (for the desktop-citizen
/// tests, which need resources set before the app starts, no --document, or a second launch on the same server).
final class DesktopRun: Sendable {
    let server: XorgServer
    let app: AppProcess
    /// The window's place on the root window.
    let x: Int
    let y: Int

    init(server: XorgServer, app: AppProcess, x: Int, y: Int) {
        self.server = server
        self.app = app
        self.x = x
        self.y = y
    }

    /// Launches `touchtracker --verbose ARGUMENTS` on `server` and waits for its ready line.
    static func launch(
        on server: XorgServer, arguments: [String], environment: [String: String?] = [:], x: Int = 100, y: Int = 80
    ) async throws -> DesktopRun {
        var environment = environment
        environment["DISPLAY"] = server.display
        let app = try AppProcess(arguments: ["--verbose"] + arguments, environment: environment)
        do {
            try await app.waitForStderrLine(containing: "touchtracker: ready", timeout: .seconds(10))
        } catch {
            app.stop()
            throw error
        }
        return DesktopRun(server: server, app: app, x: x, y: y)
    }

    func root(_ point: (x: Double, y: Double)) -> (x: Double, y: Double) {
        (point.x + Double(x), point.y + Double(y))
    }

    /// Draws a straight line with touch `id` in eight steps (window coordinates).
    func drawLine(id: UInt32, from begin: (x: Double, y: Double), to end: (x: Double, y: Double)) throws {
        let touch = try server.touch
        try touch.touchBegin(id: id, x: root(begin).x, y: root(begin).y)
        for step in 1...8 {
            let t = Double(step) / 8
            let point = root((begin.x + (end.x - begin.x) * t, begin.y + (end.y - begin.y) * t))
            try touch.touchUpdate(id: id, x: point.x, y: point.y)
        }
        try touch.touchEnd(id: id, x: root(end).x, y: root(end).y)
        try touch.sync()
    }

    /// Presses and releases X keycodes in order, then releases in reverse (a chord such as Control_L + s). The
    /// pointer is moved into the window first (to `pointerAt`, window coordinates): with no window manager, keys go
    /// to the window under the pointer.
    func pressKeys(_ keycodes: [Int32], pointerAt place: (x: Double, y: Double) = (5, 5)) throws {
        let pointer = try server.pointer
        try pointer.moveTo(x: root(place).x, y: root(place).y)
        try pointer.sync()
        let keyboard = try server.keyboard
        for code in keycodes { try keyboard.keyDown(keycode: code) }
        for code in keycodes.reversed() { try keyboard.keyUp(keycode: code) }
        try keyboard.sync()
    }

    /// A capture of `width` x `height` pixels of the window; pixel (i, j) is window point (i, j).
    func screenshot(width: Int, height: Int) throws -> Screenshot {
        try Screenshot.capture(display: server.display, x: x, y: y, width: width, height: height)
    }

    func stop() {
        app.stop()
    }
}

/// X keycodes (evdev code + 8) on the servers' US layout.
enum KeyCode {
    static let f1: Int32 = 67
    static let f2: Int32 = 68
    static let controlL: Int32 = 37
    static let s: Int32 = 39
    static let c: Int32 = 54
    static let v: Int32 = 55
    static let z: Int32 = 52
    static let minus: Int32 = 20
    static let equal: Int32 = 21
    static let zero: Int32 = 19
}

extension Screenshot {
    /// The pixel at WINDOW point (x, y) of a capture taken at the window's origin.
    func at(_ x: Int, _ y: Int) -> RGB { pixel(x: originX + x, y: originY + y) }
}

/// Runs a program to completion and returns its status and combined output.
@discardableResult
func runProgram(
    _ path: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil,
    directory: String? = nil
) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    var fullEnvironment = ProcessInfo.processInfo.environment
    for (name, value) in environment { fullEnvironment[name] = value }
    process.environment = fullEnvironment
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    let inputPipe = Pipe()
    process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
    try process.run()
    if let input {
        inputPipe.fileHandleForWriting.write(Data(input.utf8))
        try inputPipe.fileHandleForWriting.close()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// A fresh temporary folder.
func makeTemporaryFolder(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
