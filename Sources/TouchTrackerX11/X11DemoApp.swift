import CX11
import Foundation
import TouchKit
import TouchTracker
import TouchTrackerDemos
import TouchTrackerRender
import TouchTrackerStore

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
    private let surface: X11Surface
    private let host: DemoHost
    private var canvas: CairoSurface
    private var exposed = Rect.null
    private var isReady = false
    private var running = true
    private var lastSnapshot: [UInt8] = []
    private let log: (String) -> Void

    public init(
        kind: DemoSceneKind, options: X11DemoOptions, environment: [String: String], log: @escaping (String) -> Void
    ) throws {
        self.options = options
        self.log = log
        let display = try X11Display(name: options.displayName, environment: environment)
        surface = try X11Surface(display: display, geometry: options.geometry, title: "TouchTracker demos")
        let size = Size(width: Double(options.geometry.width), height: Double(options.geometry.height))
        host = DemoHost(kind: kind, size: size, clock: Clock(now: MonotonicClock.now()))
        canvas = try CairoSurface(width: options.geometry.width, height: options.geometry.height)
        surface.setIcon(log: log)
        if options.verbose { surface.describeInput(log: log) }
    }

    /// Runs until the window is closed or SIGTERM/SIGINT arrives. Returns the exit status.
    public func run() -> Int32 {
        surface.window.map()
        let signalled = surface.loop.run(
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
        case .key(let key):
            if host.handleKey(name: key.name, control: key.control, shift: key.shift), options.verbose {
                log("scene \(host.kind.rawValue)")
            }
        case .expose(let rect, let isLast):
            exposed = exposed.union(rect)
            if isLast, !isReady {
                isReady = true
                host.needsDisplay = true
                if options.verbose { log("ready window=0x\(String(surface.window.id, radix: 16))") }
            }
        case .resized(let width, let height):
            guard surface.window.noteSize(width: width, height: height) else { return }
            do {
                canvas = try CairoSurface(width: width, height: height)
            } catch {
                log("cannot resize the canvas to \(width)x\(height): \(error)")
            }
            surface.presenter.resize(width: width, height: height)
            host.resize(to: Size(width: Double(width), height: Double(height)))
            host.needsDisplay = true
        case .closeRequested:
            running = false
        case .hover, .contextClick, .deviceRemoved, .mapped:
            break
        }
    }

    private func drawFrame() {
        let full = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
        var region = exposed
        exposed = .null
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
        surface.presenter.present(canvas, region: DamageRegion(region))
    }

    /// Writes the scene's state when it changed, atomically, so a reader never sees half of it.
    private func writeState() {
        guard let path = options.statePath else { return }
        let snapshot = host.snapshot
        guard snapshot != lastSnapshot else { return }
        lastSnapshot = snapshot
        do {
            try AtomicFile.write(snapshot, to: path)
        } catch {
            log("cannot write the demo state: \(error)")
        }
    }
}
