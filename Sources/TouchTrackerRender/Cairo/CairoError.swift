import CCairo

/// A Cairo call that failed, with Cairo's own status text.
public struct CairoError: Error, CustomStringConvertible {
    public var operation: String
    public var status: String

    init(_ operation: String, _ status: cairo_status_t) {
        self.operation = operation
        self.status = String(cString: cairo_status_to_string(status))
    }

    /// A failure around Cairo (a file operation, memory a platform could not get), described in words.
    public init(_ operation: String, problem: String) {
        self.operation = operation
        self.status = problem
    }

    public var description: String { "\(operation) failed: \(status)" }
}
