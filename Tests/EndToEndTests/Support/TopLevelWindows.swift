import CX11
import XorgTestSupport

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
        guard let connection = TestDisplayConnection.open(display) else {
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
            // The title as a window manager shows it: `_NET_WM_NAME` (UTF-8), else `WM_NAME`.
            var name = utf8Name(connection, window)
            var namePointer: UnsafeMutablePointer<CChar>?
            if name == nil, XFetchName(connection, window, &namePointer) != 0, let namePointer {
                name = String(cString: namePointer)
                XFree(namePointer)
            }
            return Info(
                id: window, name: name, x: Int(attributes.x), y: Int(attributes.y), width: Int(attributes.width),
                height: Int(attributes.height), isViewable: attributes.map_state == IsViewable)
        }
    }

    /// `window`'s `_NET_WM_NAME`, nil when it has none.
    private static func utf8Name(_ connection: OpaquePointer, _ window: Window) -> String? {
        let property = XInternAtom(connection, "_NET_WM_NAME", 0)
        let utf8 = XInternAtom(connection, "UTF8_STRING", 0)
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard
            XGetWindowProperty(
                connection, window, property, 0, 1024, 0, utf8, &type, &format, &count, &after, &data) == Success,
            let data
        else { return nil }
        defer { XFree(data) }
        guard type == utf8, format == 8 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }
}
