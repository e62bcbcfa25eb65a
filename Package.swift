// swift-tools-version:6.0
import PackageDescription

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
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo cairo-xlib",
            providers: [.apt(["libcairo2-dev"])]
        ),

        // MARK: Pure Swift cores (no C imports, virtual time)

        .target(name: "TouchKit"),
        .target(name: "TouchTracker", dependencies: ["TouchKit"]),
        // The seed's gesture demos (Farm, Circle, Swipe) as scenes any host can drive: window or replay.
        .target(name: "TouchTrackerDemos", dependencies: ["TouchKit"]),

        // MARK: The document on disk (crash-safe files and the background writer)

        .target(
            name: "TouchTrackerStore",
            dependencies: ["TouchTracker", .product(name: "SystemPackage", package: "swift-system")]),

        // MARK: Platform edges

        .target(name: "TouchTrackerRender", dependencies: ["TouchTracker", "TouchTrackerDemos", "CCairo"]),
        .target(
            name: "TouchTrackerX11",
            dependencies: [
                "TouchTracker", "TouchTrackerDemos", "TouchTrackerRender", "TouchTrackerStore", "CX11", "CCairo",
            ]
        ),

        // MARK: The executable

        .executableTarget(
            name: "TouchTrackerCLI",
            dependencies: [
                "TouchTracker", "TouchTrackerDemos", "TouchTrackerRender", "TouchTrackerStore", "TouchTrackerX11",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Measures the app against the seed's naive way in one run: `swift run -c release touchtracker-bench`.
        // The rows that measure the real app (memory, latency, length, responsiveness) drive the release
        // `touchtracker` under a private Xorg (XorgTestSupport).
        .executableTarget(
            name: "TouchTrackerBench",
            dependencies: [
                "TouchKit", "TouchTracker", "TouchTrackerRender", "TouchTrackerStore", "XorgTestSupport",
                "SeededRandom", .product(name: "ArgumentParser", package: "swift-argument-parser"),
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

        // The seeded generator the benchmark and the randomized tests share.
        .target(name: "SeededRandom"),

        // MARK: Tests

        .testTarget(name: "TouchKitTests", dependencies: ["TouchKit", "SeededRandom"]),
        // Scenarios/ holds replay scripts and expected snapshots, read by ScenarioTests at run time.
        .testTarget(
            name: "TouchTrackerTests", dependencies: ["TouchTracker", "TouchTrackerStore", "TouchKit", "SeededRandom"],
            exclude: ["Scenarios"]),
        .testTarget(name: "TouchTrackerStoreTests", dependencies: ["TouchTrackerStore", "TouchTracker", "TouchKit"]),
        .testTarget(
            name: "TouchTrackerRenderTests",
            dependencies: ["TouchTrackerRender", "TouchTracker", "TouchKit", "SeededRandom"]),
        // Scenarios/ holds demo replay scripts and expected scene snapshots, read by DemoScenarioTests at run time.
        .testTarget(
            name: "TouchTrackerDemosTests",
            dependencies: ["TouchTrackerDemos", "TouchTracker", "TouchTrackerRender", "TouchKit"],
            exclude: ["Scenarios"]
        ),
        // EventTranslator fed XEvents and XInput2 cookies built in memory (no X server).
        .testTarget(name: "TouchTrackerX11Tests", dependencies: ["TouchTrackerX11", "CX11", "TouchKit"]),
        // Drives the real `touchtracker` binary under a private Xorg with inputtest devices (the renderer reads PNGs).
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "TouchTracker", "TouchTrackerRender", "TouchTrackerStore", "CX11", "XorgTestSupport", "SeededRandom",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
