import CX11

/// Owns the connection to the X server (`Display*`). Closing happens here and nowhere else.
public final class X11Display {
    public let pointer: OpaquePointer
    public let name: String

    /// Opens `name`, or `$DISPLAY` when nil.
    public init(name: String? = nil, environment: [String: String]) throws(X11Error) {
        let resolved = name ?? environment["DISPLAY"] ?? ""
        guard !resolved.isEmpty else { throw X11Error.noDisplayVariable }
        guard let display = XOpenDisplay(resolved) else { throw X11Error.cannotOpenDisplay(resolved) }
        self.pointer = display
        self.name = resolved
    }

    deinit {
        XCloseDisplay(pointer)
    }

    public var screen: Int32 { XDefaultScreen(pointer) }
    public var rootWindow: Window { XDefaultRootWindow(pointer) }
    /// The connection's file descriptor, for `poll`.
    public var fileDescriptor: Int32 { XConnectionNumber(pointer) }

    /// Events already read into Xlib's queue or waiting on the socket.
    public var pendingEventCount: Int32 { XPending(pointer) }

    public func nextEvent() -> XEvent {
        var event = XEvent()
        XNextEvent(pointer, &event)
        return event
    }

    public func flush() {
        XFlush(pointer)
    }

    public func sync() {
        XSync(pointer, 0)
    }

    public func atom(_ name: String) -> Atom {
        XInternAtom(pointer, name, 0)
    }
}
