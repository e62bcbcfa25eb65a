import CCairo

/// A Cairo call that failed, with Cairo's own status text.
public struct CairoError: Error, CustomStringConvertible {
    public var operation: String
    public var status: String

    init(_ operation: String, _ status: cairo_status_t) {
        self.operation = operation
        self.status = String(cString: cairo_status_to_string(status))
    }

    public var description: String { "\(operation) failed: \(status)" }
}
