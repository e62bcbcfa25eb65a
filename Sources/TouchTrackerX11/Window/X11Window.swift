import CX11
import Foundation
import TouchTrackerSession

/// The app's top-level window: created, named for the window manager, and destroyed here.
final class X11Window {
    let display: X11Display
    let id: Window
    let deleteWindowAtom: Atom
    private(set) var width: Int
    private(set) var height: Int

    init(display: X11Display, geometry asked: WindowGeometry, title: String) throws(X11Error) {
        self.display = display
        let dpy = display.pointer
        // `-X-Y` counts from the screen's right and bottom edges.
        let geometry = asked.placed(
            onScreenOf: Int(XDisplayWidth(dpy, display.screen)), Int(XDisplayHeight(dpy, display.screen)))
        var attributes = XSetWindowAttributes()
        // No background: the app paints every pixel itself, so the server never flashes a colour first.
        attributes.background_pixmap = 0
        attributes.bit_gravity = NorthWestGravity
        attributes.event_mask =
            ExposureMask | StructureNotifyMask | KeyPressMask | KeyReleaseMask | FocusChangeMask | PropertyChangeMask
        let mask = UInt(CWBackPixmap | CWBitGravity | CWEventMask)
        let screen = display.screen
        let window = XCreateWindow(
            dpy, display.rootWindow, Int32(geometry.x), Int32(geometry.y), UInt32(geometry.width),
            UInt32(geometry.height), 0, XDefaultDepth(dpy, screen), UInt32(InputOutput),
            XDefaultVisual(dpy, screen), mask, &attributes)
        guard window != 0 else { throw X11Error.windowCreationFailed("XCreateWindow returned no window") }
        self.id = window
        self.width = geometry.width
        self.height = geometry.height
        self.deleteWindowAtom = display.atom("WM_DELETE_WINDOW")
        setNames(title: title)
        setHints(geometry)
        setInputHint()
        var protocols = [deleteWindowAtom]
        XSetWMProtocols(dpy, window, &protocols, 1)
        // Format 32 means a C long per number in Xlib; the pointer is used only inside the closure that lends it.
        let pid = CLong(getpid())
        withUnsafeBytes(of: pid) { bytes in
            _ = XChangeProperty(
                dpy, window, display.atom("_NET_WM_PID"), XA_CARDINAL, 32, PropModeReplace,
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 1)
        }
    }

    deinit {
        XDestroyWindow(display.pointer, id)
        display.flush()
    }

    /// Sets `_NET_WM_ICON`: each image as width, height, then its 0xAARRGGBB pixels, one C long per number (the
    /// property's format 32 means `long` in Xlib).
    func setIcon(_ images: [(size: Int, argb: [UInt32])]) {
        var longs: [UInt] = []
        for image in images where image.argb.count == image.size * image.size {
            longs.append(UInt(image.size))
            longs.append(UInt(image.size))
            longs.append(contentsOf: image.argb.map { UInt($0) })
        }
        guard !longs.isEmpty else { return }
        longs.withUnsafeBytes { bytes in
            _ = XChangeProperty(
                display.pointer, id, display.atom("_NET_WM_ICON"), XA_CARDINAL, 32, PropModeReplace,
                bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(longs.count))
        }
    }

    /// The window's size and its position on the root window now (for remembering it).
    func currentGeometry() -> WindowGeometry {
        var x: Int32 = 0
        var y: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display.pointer, id, display.rootWindow, 0, 0, &x, &y, &child)
        return WindowGeometry(width: width, height: height, x: Int(x), y: Int(y), isExplicit: true)
    }

    func map() {
        XMapWindow(display.pointer, id)
        display.flush()
    }

    /// Takes the window off the screen (at exit, while the clipboard is handed over).
    func unmap() {
        XUnmapWindow(display.pointer, id)
        display.flush()
    }

    /// Where the pointer is in the window's coordinates, or nil when it is on another screen.
    func pointerLocation() -> (x: Int, y: Int)? {
        var root: Window = 0
        var child: Window = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var mask: UInt32 = 0
        guard XQueryPointer(display.pointer, id, &root, &child, &rootX, &rootY, &x, &y, &mask) != 0 else {
            return nil
        }
        return (Int(x), Int(y))
    }

    /// Records a new size from ConfigureNotify; returns whether it changed.
    func noteSize(width: Int, height: Int) -> Bool {
        guard width != self.width || height != self.height else { return false }
        self.width = width
        self.height = height
        return true
    }

    /// Retitles the window after its drawing: `_NET_WM_NAME` in UTF-8, and `WM_NAME` as ICCCM asks (Latin-1
    /// `STRING` where the title fits it, else `COMPOUND_TEXT`), for window managers that read only that.
    func setTitle(_ title: String) {
        let dpy = display.pointer
        var property = XTextProperty()
        let converted = title.withCString { text -> Int32 in
            var list: [UnsafeMutablePointer<CChar>?] = [UnsafeMutablePointer(mutating: text)]
            return Xutf8TextListToTextProperty(dpy, &list, 1, XStdICCTextStyle, &property)
        }
        if converted >= 0 {
            XSetWMName(dpy, id, &property)
            XFree(property.value)
        } else {
            XStoreName(dpy, id, title)
        }
        let utf8 = Array(title.utf8)
        XChangeProperty(
            dpy, id, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace, utf8,
            Int32(utf8.count))
    }

    private func setNames(title: String) {
        let dpy = display.pointer
        XStoreName(dpy, id, title)
        let utf8 = Array(title.utf8)
        XChangeProperty(
            dpy, id, display.atom("_NET_WM_NAME"), display.atom("UTF8_STRING"), 8, PropModeReplace, utf8,
            Int32(utf8.count))
        // WM_CLASS is two NUL-terminated strings: instance, then class.
        let classHint = Array("touchtracker\0TouchTracker\0".utf8)
        XChangeProperty(dpy, id, XA_WM_CLASS, XA_STRING, 8, PropModeReplace, classHint, Int32(classHint.count))
    }

    /// ICCCM: the window takes keyboard input when the window manager gives it focus (the "passive" model).
    private func setInputHint() {
        guard let hints = XAllocWMHints() else { return }
        defer { XFree(hints) }
        hints.pointee.flags = InputHint
        hints.pointee.input = 1
        XSetWMHints(display.pointer, id, hints)
    }

    private func setHints(_ geometry: WindowGeometry) {
        guard let hints = XAllocSizeHints() else { return }
        defer { XFree(hints) }
        // Static gravity: the position is the window's own top-left, as `currentGeometry` reads it, not the
        // window manager's frame's; otherwise each restart would move the window by the frame's title bar.
        hints.pointee.flags =
            (geometry.isExplicit ? USPosition | USSize : PPosition | PSize) | PMinSize | PWinGravity
        hints.pointee.win_gravity = StaticGravity
        hints.pointee.x = Int32(geometry.x)
        hints.pointee.y = Int32(geometry.y)
        hints.pointee.width = Int32(geometry.width)
        hints.pointee.height = Int32(geometry.height)
        hints.pointee.min_width = 1
        hints.pointee.min_height = 1
        XSetWMNormalHints(display.pointer, id, hints)
    }
}
