import CX11
import TouchKit
import TouchTrackerRender
import TouchTrackerSession

/// Hosts one TouchTracker window on X: the display connection, XInput2 (or core events), the top-level window with
/// its icon, the presenter that copies frames to it, and the event loop over them. (It draws nothing itself: the
/// apps draw into their own canvases and hand them to `presenter`.)
final class X11WindowHost {
    let display: X11Display
    let xi: XInput2?
    let window: X11Window
    let presenter: WindowPresenter
    let loop: X11EventLoop

    /// Creates the window on an open display (the caller may have read resources such as Xft.dpi first).
    init(display: X11Display, geometry: WindowGeometry, title: String) throws {
        self.display = display
        xi = XInput2(display: display)
        window = try X11Window(display: display, geometry: geometry, title: title)
        presenter = try WindowPresenter(window: window)
        // With XI2 the devices are read now and again whenever they change (the translator asks).
        let deviceWatch = xi == nil ? nil : DeviceWatch(display: display)
        loop = X11EventLoop(
            display: display,
            translator: EventTranslator(display: display, window: window, xi: xi, deviceWatch: deviceWatch))
        // The root window's property changes: the X resources (a new Xft.dpi) among them.
        XSelectInput(display.pointer, display.rootWindow, PropertyChangeMask)
        if let xi {
            xi.selectInput(display: display, window: window.id)
        } else {
            XSelectInput(
                display.pointer, window.id,
                ExposureMask | StructureNotifyMask | KeyPressMask | FocusChangeMask | ButtonPressMask
                    | ButtonReleaseMask | PointerMotionMask | PropertyChangeMask)
        }
    }

    /// Sets the window icon drawn by `IconPainter`; a failure is only logged (the window works without one).
    func setIcon(log: (String) -> Void) {
        do {
            window.setIcon(try [16, 32, 48, 128].map { (size: $0, argb: try IconPainter.argb(size: $0)) })
        } catch {
            log("cannot draw the window icon: \(error)")
        }
    }

    /// The display, XI2 version and every input device, one line each (for --verbose).
    func describeInput(log: (String) -> Void) {
        log("display \(display.name)")
        log(presenter.presentationDescription)
        guard let xi else {
            log("input: core pointer events (no XInput2 on this server)")
            return
        }
        let mode = xi.supportsTouch ? "touch and pointer events" : "pointer events only (touch needs XI 2.2)"
        log("input: XInput \(xi.versionText), \(mode)")
        for line in InputDevices(display: display).description { log(line) }
    }
}
