/// The command line of `touchtracker-bench` (see `Bench.usage`).
struct BenchOptions {
    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// The row groups to run (nil: all of them).
    var only: Set<String>?
    var strokes = 5_000
    var passes = 5
    var output = "bench-results.json"
    var showHelp = false

    /// Whether the row group `name` is to run.
    func runs(_ name: String) -> Bool { only?.contains(name) ?? true }

    init(parsing arguments: [String]) throws {
        var remaining = arguments[...]
        var outputs: [String] = []
        while let argument = remaining.popFirst() {
            switch argument {
            case "-h", "--help":
                showHelp = true
            case "--latency-only":
                only = ["latency"]
            case "--only":
                guard let list = remaining.popFirst() else {
                    throw UsageError(description: "--only needs a group name")
                }
                let names = list.split(separator: ",").map(String.init)
                if let unknown = names.first(where: { !Bench.groupNames.contains($0) }) {
                    throw UsageError(description: "unknown group \"\(unknown)\"")
                }
                only = Set(names)
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
