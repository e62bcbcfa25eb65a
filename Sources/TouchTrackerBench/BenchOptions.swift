/// The command line of `touchtracker-bench` (see `Bench.usage`).
struct BenchOptions {
    /// A row run alone instead of all of them.
    enum OnlyRow: String {
        case pipeline, latency
    }

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    var only: OnlyRow?
    var strokes = 5_000
    var passes = 5
    var output = "bench-results.json"
    var showHelp = false

    init(parsing arguments: [String]) throws {
        var remaining = arguments[...]
        var outputs: [String] = []
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                showHelp = true
            case "--latency-only":
                only = .latency
            case "--only":
                guard let name = remaining.popFirst(), let row = OnlyRow(rawValue: name) else {
                    throw UsageError(description: "--only takes pipeline or latency")
                }
                only = row
            case "--strokes":
                strokes = try Self.positive(remaining.popFirst(), for: argument)
            case "--passes":
                passes = try Self.positive(remaining.popFirst(), for: argument)
            default:
                guard !argument.hasPrefix("-") else { throw UsageError(description: "unknown option \(argument)") }
                outputs.append(argument)
            }
        }
        guard outputs.count <= 1 else { throw UsageError(description: "more than one output file") }
        if let path = outputs.first { output = path }
    }

    private static func positive(_ value: String?, for option: String) throws -> Int {
        guard let value, let number = Int(value), number > 0 else {
            throw UsageError(description: "\(option) takes a positive whole number")
        }
        return number
    }
}
