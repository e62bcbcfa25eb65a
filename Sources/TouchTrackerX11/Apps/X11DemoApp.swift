import CX11
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerDemoPainter
import TouchTrackerDemos
import TouchTrackerRender
import TouchTrackerSession

/// How a demo window was asked to run.
public struct X11DemoOptions: Sendable {
    public var displayName: String?
    public var geometry: WindowGeometry
    public var verbose: Bool
    /// Where to write the scene's state (JSON) after every change, for scripts and tests.
    public var statePath: String?

    public init(displayName: String?, geometry: WindowGeometry, verbose: Bool, statePath: String?) {
        self.displayName = displayName
        self.geometry = geometry
        self.verbose = verbose
        self.statePath = statePath
    }
}

/// The gesture demos in a window: a `DemoHost` (Farm, Circle, Swipe, switched with Tab or F1–F3) fed by the same
/// input translation and loop as the drawing window, repainted whole whenever the scene changes or animates.
public final class X11DemoApp {
    private let options: X11DemoOptions
    private let windowHost: X11WindowHost
    private let host: DemoHost
    private var canvas: CairoSurface
    /// Readiness, exposure and size changes, handled as the drawing window handles them.
    private var windowEvents: WindowEvents
    private var running = true
    private var stateFile: DemoStateFile
    private let log: (String) -> Void

    public init(
        kind: DemoSceneKind, options: X11DemoOptions, environment: [String: String], log: @escaping (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        stateFile = DemoStateFile(path: options.statePath)
        let display = try X11Display(name: options.displayName, environment: environment)
        windowHost = try X11WindowHost(display: display, geometry: options.geometry, title: "TouchTracker demos")
        windowEvents = WindowEvents(host: windowHost, verbose: options.verbose, log: log)
        let size = Size(width: Double(options.geometry.width), height: Double(options.geometry.height))
        host = DemoHost(kind: kind, size: size, clock: Clock(now: MonotonicClock.now()))
        canvas = try CairoSurface(width: options.geometry.width, height: options.geometry.height)
        windowHost.setIcon(log: log)
        if options.verbose { windowHost.describeInput(log: log) }
    }

    /// Runs until the window is closed or SIGTERM/SIGINT arrives. Returns the exit status.
    public func run() -> Int32 {
        windowHost.window.map()
        let signalled = windowHost.loop.run(
            clock: host.clock, isRunning: { running }, handle: handle, drawFrame: drawFrame,
            isAnimating: { host.isAnimating })
        if signalled, options.verbose { log("signal received; exiting") }
        writeState()
        return 0
    }

    private func handle(_ event: PlatformEvent) {
        switch event {
        case .touch(let input):
            host.send(input)
        case .key(let key) where !key.alt:
            if host.handleKey(name: key.name, control: key.control, shift: key.shift), options.verbose {
                log("scene \(host.kind.rawValue)")
            }
        case .expose(let rect, let isLast):
            windowEvents.expose(rect, isLast: isLast) { host.needsDisplay = true }
        case .resized(let width, let height):
            windowEvents.resize(
                width: width, height: height, resizeCanvas: { canvas = try CairoSurface(width: $0, height: $1) },
                resizeContent: { size in
                    host.resize(to: size)
                    host.needsDisplay = true
                })
        case .closeRequested:
            running = false
        // The demo scenes do not scroll, as the Wayland demo app does not.
        case .key, .keyReleased, .hover, .stylusHover, .stylusLeft, .contextClick, .scroll, .deviceRemoved, .mapped,
            .clipboard, .focusChanged, .resourcesChanged, .clientMessage:
            break
        }
    }

    private func drawFrame() {
        let full = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        var region = windowEvents.takeExposed()
        if host.needsDisplay || host.isAnimating {
            host.needsDisplay = false
            do {
                let context = try CairoContext(surface: canvas)
                DemoPainter.paint(host.scene, translate: Localization.translate, in: context)
                canvas.flush()
            } catch {
                log("cannot draw the scene: \(error)")
            }
            region = full
            writeState()
        }
        guard !region.isNull else { return }
        windowHost.presenter.present(canvas, region: DamageRegion(region))
    }

    /// Writes the scene's state when it changed.
    private func writeState() {
        stateFile.write(host.snapshot, log: log)
    }
}
