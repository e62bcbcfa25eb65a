// swift-tools-version:6.0
import Foundation
import PackageDescription

/// Pango's include paths, as `pkg-config --cflags-only-I pangocairo` gives them, for the Swift targets that import
/// CPango. A system library target would ask pkg-config for all of Pango's flags, which carry `-pthread` (from
/// HarfBuzz): SwiftPM refuses that flag with a warning on every build. Only the include paths are needed (the
/// module map names the libraries to link). Empty when pkg-config or Pango is missing: `make` installs both.
func pangoIncludeFlags() -> [String] {
    includeFlags(of: "pangocairo")
}

/// The include paths of `package` as `pkg-config --cflags-only-I` gives them, for Swift targets that import its
/// module (GLib's take the same path as Pango's: its full flags carry -pthread too), or for a C target (`forC`).
func includeFlags(of package: String, forC: Bool = false) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags-only-I", package]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return [] }
    let flags = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
    return forC ? flags : flags.flatMap { ["-Xcc", $0] }
}

let package = Package(
    name: "TouchTracker",
    products: [
        .executable(name: "touchtracker", targets: ["TouchTrackerCLI"]),
        .executable(name: "touchtracker-bench", targets: ["TouchTrackerBench"]),
        .library(name: "TouchKit", targets: ["TouchKit"]),
    ],
    dependencies: [
        // The one version of swift-argument-parser this machine kind carries.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // FileDescriptor and Errno for the document store and the test harness (the one version this machine kind
        // carries).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // Spawns the test harness's child processes (Xorg, the app, tools) with a clean signal mask and descriptors.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
    ],
    targets: [
        // MARK: System libraries (the only places that see C headers)

        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11 xi",
            providers: [.apt(["libx11-dev", "libxi-dev"])]
        ),
        // glibc's gettext and setlocale (libintl.h), which Swift's Glibc module leaves out.
        .systemLibrary(name: "CIntl"),
        .systemLibrary(name: "CMalloc"),
        // Pango for every piece of text the app draws (include paths: `pangoIncludeFlags`).
        .systemLibrary(name: "CPango", providers: [.apt(["libpango1.0-dev"])]),
        // GLib's D-Bus, for the accessibility bridge (include paths: `includeFlags(of: "gio-2.0")`).
        .systemLibrary(name: "CGio", providers: [.apt(["libglib2.0-dev"])]),
        // libwayland-client, libwayland-cursor and libxkbcommon, with the protocol code wayland-scanner generated from
        // wayland-protocols' XML (committed; `make wayland-protocols` regenerates it, WaylandProtocolCodeTests checks).
        .target(
            name: "CWayland",
            exclude: ["regenerate.sh"],
            // libdecor's header lives in its own folder (`pkg-config --cflags libdecor-0`).
            cSettings: [.unsafeFlags(includeFlags(of: "libdecor-0", forC: true))],
            linkerSettings: [
                .linkedLibrary("wayland-client"), .linkedLibrary("wayland-cursor"), .linkedLibrary("xkbcommon"),
                .linkedLibrary("decor-0"),
            ]),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo cairo-xlib",
            providers: [.apt(["libcairo2-dev"])]
        ),

        // MARK: Pure Swift cores (no C imports, virtual time)

        .target(name: "TouchKit"),
        // JSON text: a strict parser into a tree, exact number reading and shortest number writing, one writer
        // with one string escaper. The document codec, the state and scene snapshots and the window memory use it.
        .target(name: "JSON"),
        .target(name: "TouchTracker", dependencies: ["TouchKit", "JSON"]),
        // The seed's gesture demos (Farm, Circle, Swipe) as scenes any host can drive: window or replay.
        .target(name: "TouchTrackerDemos", dependencies: ["TouchKit", "JSON"]),

        // MARK: The document on disk (crash-safe files and the background writer)

        // GLib (through CGio) parses and writes the desktop's recent files (GBookmarkFile).
        .target(
            name: "TouchTrackerStore",
            dependencies: [
                "TouchTracker", "BackgroundWork", "CGio", .product(name: "SystemPackage", package: "swift-system"),
            ],
            swiftSettings: [.unsafeFlags(includeFlags(of: "gio-2.0"))]),

        // MARK: Platform edges

        // The one shape of background work (`Worker`: a named thread at a background priority with a mailbox, a
        // wake-up for the loop and a stop), and the priorities themselves (setpriority, SCHED_IDLE).
        .target(name: "BackgroundWork"),
        // The session bus's address, as the app's D-Bus clients (accessibility, the file dialog) find it.
        .target(name: "SessionBus"),
        .target(
            name: "TouchTrackerRender",
            dependencies: ["TouchTracker", "BackgroundWork", "CCairo", "CPango"],
            swiftSettings: [.unsafeFlags(pangoIncludeFlags())]),
        // The demos' painter: the Farm, the Circle and the Swipe drawn with the renderer's Cairo and Pango.
        .target(
            name: "TouchTrackerDemoPainter",
            dependencies: ["TouchKit", "TouchTrackerDemos", "TouchTrackerRender", "CCairo"],
            swiftSettings: [.unsafeFlags(pangoIncludeFlags())]),

        // The accessibility bridge: the drawing as AT-SPI 2 objects on the accessibility bus, over GDBus, answered
        // from snapshots on a worker of its own.
        .target(
            name: "TouchTrackerAccessibility",
            dependencies: ["TouchKit", "TouchTracker", "BackgroundWork", "CGio", "SessionBus"],
            swiftSettings: [.unsafeFlags(includeFlags(of: "gio-2.0"))]),

        // The desktop's own file dialog (org.freedesktop.portal.FileChooser) over GDBus, on a worker of its own.
        .target(
            name: "TouchTrackerPortal",
            dependencies: ["BackgroundWork", "CGio", "SessionBus"],
            swiftSettings: [.unsafeFlags(includeFlags(of: "gio-2.0"))]),

        // MARK: The drawing session (what the app does with a window, whatever the window system)

        // The controller and renderer, the document read, saved, watched and locked, exports, the clipboard's
        // policy and each frame; a platform implements `SessionHost`. Imports no window system.
        .target(
            name: "TouchTrackerSession",
            dependencies: [
                "TouchKit", "TouchTracker", "TouchTrackerRender", "TouchTrackerStore", "TouchTrackerAccessibility",
                "TouchTrackerPortal", "BackgroundWork", "CIntl", "CMalloc",
            ]),

        // MARK: Platform hosts

        .target(
            name: "TouchTrackerX11",
            dependencies: [
                "TouchTracker", "TouchTrackerDemos", "TouchTrackerDemoPainter", "TouchTrackerRender",
                "TouchTrackerStore", "TouchTrackerSession", "BackgroundWork", "CX11", "CCairo",
            ]
        ),

        .target(
            name: "TouchTrackerWayland",
            dependencies: [
                "TouchKit", "TouchTracker", "TouchTrackerDemos", "TouchTrackerDemoPainter", "TouchTrackerRender",
                "TouchTrackerSession", "TouchTrackerStore", "BackgroundWork", "CWayland", "CCairo",
            ],
            // CWayland's header includes libdecor's, which lives in its own folder.
            swiftSettings: [.unsafeFlags(includeFlags(of: "libdecor-0"))]
        ),

        // MARK: The executable

        .executableTarget(
            name: "TouchTrackerCLI",
            dependencies: [
                "TouchTracker", "TouchTrackerDemos", "TouchTrackerDemoPainter", "TouchTrackerRender",
                "TouchTrackerStore", "TouchTrackerSession", "TouchTrackerX11", "TouchTrackerWayland",
                "TouchTrackerPortal",
                "BackgroundWork",
                "JSON", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Measures the app against the seed's naive way in one run: `swift run -c release touchtracker-bench`.
        // The rows that measure the real app (memory, latency, length, responsiveness) drive the release
        // `touchtracker` under a private Xorg (XorgTestSupport), and the Wayland rows under a headless weston
        // (WestonTestSupport).
        .executableTarget(
            name: "TouchTrackerBench",
            dependencies: [
                "TouchKit", "TouchTracker", "TouchTrackerRender", "TouchTrackerStore", "XorgTestSupport",
                "WestonTestSupport", "KWinTestSupport", "SeededRandom", "JSON", "BackgroundWork",
                // Xlib, to watch another program's window for damage (the zoom group's Xournal++ rows).
                "CX11",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // MARK: Harness for the real binary under a private Xorg (end-to-end tests and the latency benchmark)

        // Starts Xorg with the dummy video driver and inputtest devices, speaks the inputtest protocol, runs
        // `touchtracker` as a child process.
        .target(
            name: "XorgTestSupport",
            dependencies: [
                "CX11", .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]),

        // Starts weston 10 headless (kiosk shell, optionally Xwayland) with an input module of our own
        // (InputModule/, compiled at run time into a shared object for weston) that feeds a real wl_seat from a
        // Unix socket: wl_touch, wl_pointer and wl_keyboard events for end-to-end tests under Wayland.
        // DragSource/ holds the tests' Wayland drag source, compiled at run time like the input module.
        .target(
            name: "WestonTestSupport",
            dependencies: ["XorgTestSupport"],
            exclude: ["InputModule", "DragSource"]),

        // Starts KDE's KWin 5.27 headless (`kwin_wayland --virtual`, at a given scale) on a private session bus,
        // with a fake-input client of our own (InputClient/, compiled at run time against wayland-client) that
        // drives KWin's org_kde_kwin_fake_input: touch, pointer and keys injected by KWin itself; KWin scripting
        // and ScreenShot2 over D-Bus.
        .target(
            name: "KWinTestSupport",
            dependencies: ["XorgTestSupport"],
            exclude: ["InputClient"]),

        // Starts GNOME's mutter 43 headless (`--headless --wayland --no-x11`, one virtual monitor at scale 1 or 2) on a
        // private session bus with PipeWire, and drives the touch, pointer and keyboard mutter injects itself through
        // org.gnome.Mutter.RemoteDesktop with a ScreenCast stream (a python3-gi helper holds the sessions); reads
        // screen cast frames with GStreamer's pipewiresrc.
        .target(name: "MutterTestSupport", dependencies: ["XorgTestSupport"]),

        // The seeded generator the benchmark and the randomized tests share.
        .target(name: "SeededRandom"),

        // MARK: Tests

        .testTarget(name: "TouchKitTests", dependencies: ["TouchKit", "SeededRandom"]),
        .testTarget(name: "BackgroundWorkTests", dependencies: ["BackgroundWork"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "SeededRandom"]),
        // Scenarios/ holds replay scripts and expected snapshots, read by ScenarioTests at run time.
        .testTarget(
            name: "TouchTrackerTests",
            dependencies: ["TouchTracker", "TouchTrackerStore", "TouchKit", "JSON", "SeededRandom"],
            exclude: ["Scenarios"]),
        .testTarget(
            name: "TouchTrackerStoreTests", dependencies: ["TouchTrackerStore", "TouchTracker", "TouchKit"],
            // `@testable import TouchTrackerStore` sees its import of CGio, so it needs GLib's headers.
            swiftSettings: [.unsafeFlags(includeFlags(of: "gio-2.0"))]),
        .testTarget(
            name: "TouchTrackerRenderTests",
            dependencies: [
                "TouchTrackerRender", "TouchTrackerDemoPainter", "TouchTracker", "TouchKit", "SeededRandom",
            ],
            // `@testable import TouchTrackerRender` sees its internal import of CPango, so it needs Pango's headers.
            swiftSettings: [.unsafeFlags(pangoIncludeFlags())]),
        // Scenarios/ holds demo replay scripts and expected scene snapshots, read by DemoScenarioTests at run time.
        .testTarget(
            name: "TouchTrackerDemosTests",
            dependencies: [
                "TouchTrackerDemos", "TouchTrackerDemoPainter", "TouchTracker", "TouchTrackerRender", "TouchKit",
                "JSON",
            ],
            exclude: ["Scenarios"]
        ),
        // The drawing session driven by an in-memory host: events in, frames and saved files out, no window system.
        .testTarget(
            name: "TouchTrackerSessionTests",
            dependencies: [
                "TouchTrackerSession", "TouchTracker", "TouchTrackerRender", "TouchTrackerStore", "TouchKit",
                "TouchTrackerAccessibility", "TouchTrackerPortal",
            ]
        ),
        // The file dialog's call built and its answer read, without a bus.
        .testTarget(
            name: "TouchTrackerPortalTests", dependencies: ["TouchTrackerPortal"],
            swiftSettings: [.unsafeFlags(includeFlags(of: "gio-2.0"))]),
        // EventTranslator fed XEvents and XInput2 cookies built in memory (no X server).
        .testTarget(
            name: "TouchTrackerX11Tests", dependencies: ["TouchTrackerX11", "CX11", "TouchKit", "TouchTracker"]),
        // The Wayland host's translation of protocol events, key repeat and protocol code, without a compositor.
        .testTarget(
            name: "TouchTrackerWaylandTests",
            dependencies: ["TouchTrackerWayland", "TouchTrackerSession", "TouchTracker", "TouchKit"],
            // `@testable import TouchTrackerWayland` sees its internal import of CWayland, whose header includes
            // libdecor's.
            swiftSettings: [.unsafeFlags(includeFlags(of: "libdecor-0"))]),
        // Checks the weston harness itself with real clients (weston-info, weston-eventdemo, weston-simple-touch,
        // xinput under Xwayland); reads weston's PNG screenshots with Cairo.
        .testTarget(name: "WestonHarnessTests", dependencies: ["WestonTestSupport", "XorgTestSupport", "CCairo"]),
        // Drives the real `touchtracker` binary under a private Xorg with inputtest devices (the renderer reads PNGs).
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TouchTracker", "TouchTrackerRender", "TouchTrackerStore", "CX11", "XorgTestSupport",
                "WestonTestSupport", "KWinTestSupport", "MutterTestSupport", "SeededRandom", "BackgroundWork",
            ],
            // Measures text as the app lays it out (`@testable import TouchTrackerRender`, which imports CPango).
            swiftSettings: [.unsafeFlags(pangoIncludeFlags())]
        ),
    ],
    swiftLanguageModes: [.v6]
)
