import Foundation

/// The desktop's real file dialog for a test: Debian's `xdg-desktop-portal` (1.16) and its GTK back end
/// (`xdg-desktop-portal-gtk`) on a private session bus (`AccessibilityBus`'s, so GTK's dialog is on its accessibility
/// bus too), showing their dialogs on X display `display`. The back end is started first and the portal once the
/// back end owns its name, both with `XDG_CURRENT_DESKTOP=GNOME` (the GTK back end's `UseIn`), a private home and
/// runtime folder. `stop()` ends both; the bus is the caller's.
public final class DesktopPortal: Sendable {
    public let bus: AccessibilityBus
    private let backEnd: ChildProcess
    private let portal: ChildProcess
    private let home: PrivateHome

    public static let portalExecutable = "/usr/libexec/xdg-desktop-portal"
    public static let gtkExecutable = "/usr/libexec/xdg-desktop-portal-gtk"

    /// Whether Debian's portal and GTK back end are installed (`make test` installs them).
    public static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: portalExecutable)
            && FileManager.default.isExecutableFile(atPath: gtkExecutable)
    }

    /// Starts both on `bus` (made before the app, which needs its address), showing dialogs on `display`.
    public init(bus: AccessibilityBus, display: String) async throws {
        self.bus = bus
        home = try PrivateHome()
        let runtime = home.path + "/runtime"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "AT_SPI_BUS_ADDRESS": bus.accessibilityAddress,
            "DISPLAY": display, "PATH": "/usr/bin:/bin", "HOME": home.path, "XDG_RUNTIME_DIR": runtime,
            "XDG_CURRENT_DESKTOP": "GNOME", "GDK_BACKEND": "x11", "GTK_USE_PORTAL": "0", "LANG": "C.UTF-8",
        ]
        backEnd = try ChildProcess(executable: Self.gtkExecutable, arguments: [], environment: environment)
        try await Self.waitForName("org.freedesktop.impl.portal.desktop.gtk", on: bus.address, process: backEnd)
        portal = try ChildProcess(executable: Self.portalExecutable, arguments: [], environment: environment)
        try await Self.waitForName("org.freedesktop.portal.Desktop", on: bus.address, process: portal)
    }

    /// What the portal and its back end said on stderr, for a failing test's message.
    public var transcript: String {
        "--- xdg-desktop-portal:\n\(String(decoding: portal.stderr, as: UTF8.self))\n"
            + "--- xdg-desktop-portal-gtk:\n\(String(decoding: backEnd.stderr, as: UTF8.self))"
    }

    public func stop() {
        _ = portal.stop(timeout: .seconds(5))
        _ = backEnd.stop(timeout: .seconds(5))
    }

    /// Waits until `name` has an owner on the bus at `address` (`process` still running, else its stderr says why).
    private static func waitForName(_ name: String, on address: String, process: ChildProcess) async throws {
        try await waitUntil("\(name) on the private session bus", timeout: .seconds(30), poll: .milliseconds(100)) {
            guard process.isRunning else {
                throw AppProcess.AppError(
                    description: "\(process.executable) ended: \(String(decoding: process.stderr, as: UTF8.self))")
            }
            let probe = try ChildProcess(
                executable: "/usr/bin/dbus-send",
                arguments: [
                    "--session", "--print-reply=literal", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
                ], environment: ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"])
            guard probe.waitForExit(timeout: .seconds(5))?.status == 0 else { return false }
            return String(decoding: probe.stdout, as: UTF8.self).contains("true")
        }
    }
}
