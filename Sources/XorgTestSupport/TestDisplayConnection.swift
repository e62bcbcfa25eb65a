import CX11
import Foundation

/// The harness's way to connect to an X server: Xlib's own error handler ends the process on any error, and a test
/// that reads a window another process has just destroyed (a `BadWindow` between `XQueryTree` and
/// `XGetWindowAttributes`) must not take every other test in the run down with it. Errors are written to stderr in
/// one line and the failed call returns its failure, which the caller handles.
public enum TestDisplayConnection {
    /// `XOpenDisplay(name)`, with the tolerant error handler installed first.
    public static func open(_ name: String?) -> OpaquePointer? {
        _ = tolerantErrorsInstalled
        return XOpenDisplay(name)
    }

    /// Installed once per process; Xlib's handler is process-wide.
    private static let tolerantErrorsInstalled: Bool = {
        XSetErrorHandler { display, event in
            guard let display, let event else { return 0 }
            var text = [CChar](repeating: 0, count: 256)
            XGetErrorText(display, Int32(event.pointee.error_code), &text, Int32(text.count))
            let detail = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            FileHandle.standardError.write(
                Data(
                    "X error in the test harness (ignored): \(detail), request \(event.pointee.request_code), resource 0x\(String(event.pointee.resourceid, radix: 16))\n"
                        .utf8))
            return 0
        }
        return true
    }()
}
