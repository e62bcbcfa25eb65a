import CX11

/// The root window's children with their names and geometry, read over a fresh connection.
enum TopLevelWindows {
    struct Info: Sendable, CustomStringConvertible {
        let id: UInt
        let name: String?
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        let isViewable: Bool

        /// Whether it is a drawing window: titled "NAME — TouchTracker" after its drawing.
        var isDrawingWindow: Bool { name?.hasSuffix(" — TouchTracker") == true }

        var description: String {
            "window 0x\(String(id, radix: 16)) \"\(name ?? "")\" \(width)x\(height)+\(x)+\(y)\(isViewable ? "" : " unmapped")"
        }
    }

    struct QueryError: Error, CustomStringConvertible {
        let description: String
    }

    static func list(display: String) throws -> [Info] {
        guard let connection = XOpenDisplay(display) else {
            throw QueryError(description: "cannot open display \(display)")
        }
        defer { XCloseDisplay(connection) }
        let root = XDefaultRootWindow(connection)
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(connection, root, &rootReturn, &parent, &children, &count) != 0 else {
            throw QueryError(description: "XQueryTree failed")
        }
        defer { if let children { XFree(children) } }
        return (0..<Int(count)).compactMap { index in
            guard let window = children?[index] else { return nil }
            var attributes = XWindowAttributes()
            guard XGetWindowAttributes(connection, window, &attributes) != 0 else { return nil }
            var namePointer: UnsafeMutablePointer<CChar>?
            var name: String?
            if XFetchName(connection, window, &namePointer) != 0, let namePointer {
                name = String(cString: namePointer)
                XFree(namePointer)
            }
            return Info(
                id: window, name: name, x: Int(attributes.x), y: Int(attributes.y), width: Int(attributes.width),
                height: Int(attributes.height), isViewable: attributes.map_state == IsViewable)
        }
    }
}
