import ArgumentParser
import Foundation

/// `touchtracker-bench`: measures TouchTracker against the iOS tutorial's naive way in one run (the target: instant
/// with 100,000 lines). Prints a table and writes JSON; `--help` lists the options (`--only GROUP,...` runs some row groups
/// alone). The rows that measure the real app (memory, latency, wayland, length, responsiveness, zoom) run the release
/// `touchtracker` next to this executable (or TOUCHTRACKER_BIN) under a private Xorg, which needs root, or (`wayland`)
/// under headless westons, natively and through Xwayland; `zoom` runs Debian's `xournalpp` beside it.
@main
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touchtracker-bench",
        abstract: "Runs the benchmark rows, prints a table and writes the rows as JSON (default bench-results.json).")

    @Option(
        name: .customLong("only"),
        help: ArgumentHelp(
            "Run only these row groups: \(Bench.groupNames.joined(separator: ", ")).", valueName: "GROUP,..."))
    var onlyList: String?

    @Flag(help: "The same as --only latency.")
    var latencyOnly = false

    @Option(
        help: ArgumentHelp(
            "Strokes of 200 events in the pipeline row (1,000,000 events by default); fewer for profiling.",
            valueName: "N"))
    var strokes = 5_000

    @Option(
        help: ArgumentHelp(
            "Timed passes of the pipeline row after its warm-up pass; the figure is their median.", valueName: "N"))
    var passes = 5

    @Argument(help: ArgumentHelp("Where to write the rows as JSON.", valueName: "output.json"))
    var output = "bench-results.json"

    /// The row groups to run (nil: all of them).
    var only: Set<String>? {
        if latencyOnly { return ["latency"] }
        return onlyList.map { Set($0.split(separator: ",").map(String.init)) }
    }

    func validate() throws {
        if latencyOnly && onlyList != nil { throw ValidationError("--latency-only and --only exclude each other") }
        if let onlyList {
            let names = onlyList.split(separator: ",").map(String.init)
            guard !names.isEmpty else { throw ValidationError("--only needs a group name") }
            if let unknown = names.first(where: { !Bench.groupNames.contains($0) }) {
                throw ValidationError("unknown group \"\(unknown)\"")
            }
        }
        if strokes <= 0 { throw ValidationError("--strokes takes a positive whole number") }
        if passes <= 0 { throw ValidationError("--passes takes a positive whole number") }
    }

    func run() async throws {
        let only = only
        let rows = try await Bench.rows(
            runs: { only?.contains($0) ?? true }, strokes: strokes, passes: passes)
        Bench.printTable(rows)
        try Bench.writeJSON(rows, to: output)
        print("wrote \(output)")
    }
}
