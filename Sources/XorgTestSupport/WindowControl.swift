import CX11

extension XorgServer {
    /// Asks the server to resize window `id` (as a window manager or the user dragging its edge would) and waits
    /// until the request has reached the server. There is no window manager on these servers, so the request
    /// takes effect at once and the window gets its ConfigureNotify.
    public func resizeWindow(_ id: UInt, width: Int, height: Int) throws {
        guard let connection = TestDisplayConnection.open(display) else {
            throw StartError(description: "cannot connect to \(display) to resize window 0x\(String(id, radix: 16))")
        }
        defer { XCloseDisplay(connection) }
        XResizeWindow(connection, Window(id), UInt32(width), UInt32(height))
        XSync(connection, 0)
    }

    /// The keycodes of the keys with keysyms `names` ("Down", "Tab") in the server's keymap.
    public func keycodes(_ names: [String]) throws -> [Int32] {
        guard let connection = TestDisplayConnection.open(display) else {
            throw StartError(description: "cannot connect to \(display) to read its keymap")
        }
        defer { XCloseDisplay(connection) }
        return names.map { Int32(XKeysymToKeycode(connection, XStringToKeysym($0))) }
    }

    /// Gives the keyboard focus to window `id`, or to the root window (nil: as when another window takes it), as a
    /// window manager does on Alt+Tab, and waits until the request has reached the server.
    public func focusWindow(_ id: UInt?) throws {
        guard let connection = TestDisplayConnection.open(display) else {
            throw StartError(description: "cannot connect to \(display) to move the keyboard focus")
        }
        defer { XCloseDisplay(connection) }
        let window = id.map { Window($0) } ?? XDefaultRootWindow(connection)
        XSetInputFocus(connection, window, Int32(RevertToPointerRoot), UInt(CurrentTime))
        XSync(connection, 0)
    }
}

extension AppProcess {
    /// The id of the app's window, from the `touchtracker: ready window=0x…` line `--verbose` prints.
    public var windowID: UInt? {
        guard let line = stderrLines.first(where: { $0.contains("ready window=0x") }),
            let range = line.range(of: "window=0x")
        else { return nil }
        return UInt(line[range.upperBound...].prefix { $0.isHexDigit }, radix: 16)
    }
}
