import CCairo
import TouchKit
import TouchTracker
import TouchTrackerDemoPainter
import TouchTrackerDemos
import TouchTrackerRender
import TouchTrackerSession

/// How a demo window on Wayland was asked to run.
public struct WaylandDemoOptions: Sendable {
    /// The compositor's socket instead of `WAYLAND_DISPLAY`.
    public var displayName: String?
    /// The window's size in surface pixels when the compositor leaves it to the app (Wayland does not let a client
    /// place a window, so the position is not used).
    public var geometry: WindowGeometry
    public var verbose: Bool
    /// Where to write the scene's state (JSON) after every change, for scripts and tests.
    public var statePath: String?

    public init(displayName: String? = nil, geometry: WindowGeometry, verbose: Bool, statePath: String?) {
        self.displayName = displayName
        self.geometry = geometry
        self.verbose = verbose
        self.statePath = statePath
    }
}

/// The gesture demos in a Wayland window: a `DemoHost` (Farm, Circle, Swipe, switched with Tab or F1–F3) on a
/// `WaylandWindowHost` (the drawing window's connection, window, presenter, seat and loop), repainted whole whenever
/// the scene changes or animates.
///
/// The scene lives in surface pixels, as on a 96-dpi X screen: touches arrive in canvas (device) pixels and are
/// divided by the buffer scale, and the scene is painted scaled up by it, so on a screen of scale 2 the demo has the
/// same size and its gesture distances the same reach, only sharper.
public final class WaylandDemoApp {
    private let options: WaylandDemoOptions
    private let windowHost: WaylandWindowHost
    private let host: DemoHost
    private var canvas: CairoSurface
    /// Device pixels per surface pixel, as the last resize said.
    private var scale: Double
    private var running = true
    private var stateFile: DemoStateFile
    private let log: (String) -> Void

    public init(kind: DemoSceneKind, options: WaylandDemoOptions, log: @escaping (String) -> Void) throws {
        self.options = options
        self.log = log
        stateFile = DemoStateFile(path: options.statePath)
        windowHost = try WaylandWindowHost(
            displayName: options.displayName, width: options.geometry.width, height: options.geometry.height,
            title: "TouchTracker demos", verbose: options.verbose, log: log)
        scale = windowHost.scale.factor
        let size = windowHost.size
        host = DemoHost(
            kind: kind, size: Size(width: Double(size.width), height: Double(size.height)),
            clock: Clock(now: MonotonicClock.now()))
        let canvasSize = windowHost.canvasSize
        canvas = try windowHost.presenter.makeCanvas(width: canvasSize.width, height: canvasSize.height)
        // The seat's devices and keymap, and the decoration mode, arrive in answer to the requests above.
        try windowHost.connection.roundtrip()
        if options.verbose { windowHost.describe() }
    }

    /// Runs until the window is closed, SIGTERM/SIGINT arrives or the compositor goes away. Returns the exit
    /// status: 1 when the connection was lost.
    public func run() -> Int32 {
        let ending = windowHost.run(
            clock: host.clock, isRunning: { running }, handle: handle, drawFrame: drawFrame,
            isAnimating: { host.isAnimating })
        if ending.signalled, options.verbose { log("signal received; exiting") }
        writeState()
        guard let lost = ending.lost else { return 0 }
        log("\(lost.description); exiting")
        return 1
    }

    private func handle(_ event: WaylandWindowHost.Event) {
        switch event {
        case .input(.touch(var input)):
            input.location = Point(x: input.location.x / scale, y: input.location.y / scale)
            host.send(input)
        case .input(.key(let key)) where !key.alt, .input(.keyEvent(_, .some(let key))) where !key.alt:
            if host.handleKey(name: key.key, control: key.control, shift: key.shift), options.verbose {
                log("scene \(host.kind.rawValue)")
            }
        case .input(.key), .input(.keyEvent), .input(.hover), .input(.stylusHover), .input(.stylusLeft),
            .input(.contextClick), .input(.scroll),
            .input(.deviceRemoved), .input(.focusChanged):
            break
        case .resized(let width, let height, let newScale):
            do {
                canvas = try windowHost.presenter.makeCanvas(width: width, height: height)
            } catch {
                log("cannot make a \(width)x\(height) canvas: \(error)")
                return
            }
            scale = newScale
            host.resize(to: Size(width: Double(width) / scale, height: Double(height) / scale))
            host.needsDisplay = true
        case .closeRequested:
            running = false
        }
    }

    /// Paints the scene again when it changed or animates, and sends the compositor what it must show again.
    private func drawFrame(exposed: Rect) {
        var region = exposed
        // The buffer to draw into, brought up to date with the last frame (`WaylandPresenter`).
        canvas = windowHost.presenter.canvasForFrame(after: canvas)
        if host.needsDisplay || host.isAnimating {
            host.needsDisplay = false
            do {
                let context = try CairoContext(surface: canvas)
                cairo_scale(context.pointer, scale, scale)
                DemoPainter.paint(host.scene, translate: Localization.translate, in: context)
                canvas.flush()
            } catch {
                log("cannot draw the scene: \(error)")
            }
            region = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
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
