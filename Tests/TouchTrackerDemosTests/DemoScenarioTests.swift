import Foundation
import JSON
import Testing
import TouchKit
import TouchTracker
import TouchTrackerDemos

/// Demo replay scenarios: each `Scenarios/<scene>-<name>.jsonl` script runs on a fresh 800x600 `DemoHost` showing
/// `<scene>` (the file name's first word), exactly as `touchtracker demo <scene> --replay` runs it, and the final
/// snapshot must match `<name>.expected.json`: the same keys and strings, numbers within 0.001 (the scripts give
/// finger positions to 3 decimals, so a pinch's scale or a rotation's angle is exact only to about 1e-5).
///
/// The expected files were written by hand from the issue and the seed (see `Scenarios/README.md`), not recorded.
/// To re-record after an intended change, run with `RECORD_DEMO_SCENARIOS=1`: the expected files are rewritten and
/// every scenario fails, saying so, until the run is repeated without it. Read every rewritten file first.
@Suite struct DemoScenarioTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")
    static let scriptSuffix = ".jsonl"
    static let expectedSuffix = ".expected.json"
    static let minimumCount = 25
    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_DEMO_SCENARIOS"] == "1" }

    static var names: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(scriptSuffix) }.map { String($0.dropLast(scriptSuffix.count)) }.sorted()
    }

    static func path(_ name: String, _ suffix: String) -> String {
        folder.appendingPathComponent(name + suffix).path
    }

    static func read(_ path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw DemoTestError("cannot read \(path)") }
        return data
    }

    /// Runs a scenario and returns the snapshot bytes, as `touchtracker demo --replay --state` writes them.
    static func run(_ name: String) throws -> [UInt8] {
        guard let sceneName = name.split(separator: "-").first, let kind = DemoSceneKind(rawValue: String(sceneName))
        else { throw DemoTestError("\(name) does not start with a scene name (farm, circle, swipe)") }
        let script = String(decoding: try read(path(name, scriptSuffix)), as: UTF8.self)
        let host = DemoHost(kind: kind, size: Size(width: 800, height: 600))
        DemoReplay.run(try demoEvents(ReplayScript.parse(script)), on: host)
        return host.snapshot
    }

    @Test("the replay ends in the expected scene state", arguments: names)
    func scenario(_ name: String) throws {
        let actual = try Self.run(name)
        let expectedPath = Self.path(name, Self.expectedSuffix)
        if Self.isRecording {
            try Data(actual).write(to: URL(fileURLWithPath: expectedPath))
            Issue.record(
                "Recorded \(name)\(Self.expectedSuffix); read it, then run again without RECORD_DEMO_SCENARIOS.")
            return
        }
        let expected = try JSONParser.parse([UInt8](try Self.read(expectedPath)))
        let found = try JSONParser.parse(actual)
        let differences = JSONComparison.differences(found, expected)
        #expect(
            differences.isEmpty,
            "scenario \(name): \(differences.joined(separator: "; "))\nactual:\n\(String(decoding: actual, as: UTF8.self))"
        )
    }

    @Test("the folder holds at least 25 scenarios, each with an expected snapshot, for every scene")
    func folderIsComplete() throws {
        let names = Self.names
        #expect(names.count >= Self.minimumCount)
        for name in names {
            #expect(FileManager.default.fileExists(atPath: Self.path(name, Self.expectedSuffix)), "\(name)")
        }
        for kind in DemoSceneKind.allCases {
            #expect(names.contains { $0.hasPrefix(kind.rawValue + "-") }, "no scenario for \(kind)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        for file in files where file.hasSuffix(Self.expectedSuffix) {
            #expect(names.contains(String(file.dropLast(Self.expectedSuffix.count))), "\(file) belongs to no script")
        }
    }
}

/// The touch and key events of a parsed replay script, as `touchtracker demo --replay` takes them.
func demoEvents(_ events: [TimedReplayEvent]) throws -> [(time: Double, event: DemoReplayEvent)] {
    try events.map { timed in
        switch timed.event {
        case .touch(let id, let phase, let location, let force, _):
            (timed.time, .touch(id: id, phase: phase, location: location, force: force))
        case .key(let command):
            (timed.time, .key(name: command.key, control: command.control, shift: command.shift))
        case .menu, .stylusHover, .stylusLeft, .scroll:
            throw DemoTestError("demo scripts have no menu events")
        }
    }
}

/// Compares parsed JSON: the same keys (in any order), strings and booleans; numbers within 0.001 absolute or
/// relative.
enum JSONComparison {
    static func differences(_ actual: JSONValue, _ expected: JSONValue, at path: String = "$") -> [String] {
        switch (actual, expected) {
        case (.object(let a), .object(let e)):
            var result: [String] = []
            let keys = Set(a.map(\.key)).union(e.map(\.key)).sorted()
            for key in keys {
                guard let av = actual[key] else {
                    result.append("\(path).\(key) missing")
                    continue
                }
                guard let ev = expected[key] else {
                    result.append("\(path).\(key) unexpected")
                    continue
                }
                result += differences(av, ev, at: "\(path).\(key)")
            }
            return result
        case (.array(let a), .array(let e)):
            guard a.count == e.count else { return ["\(path) has \(a.count) elements, expected \(e.count)"] }
            return zip(a, e).enumerated().flatMap { differences($1.0, $1.1, at: "\(path)[\($0)]") }
        case (.number(let x), .number(let y)):
            return abs(x - y) <= 0.001 * max(1, abs(y)) ? [] : ["\(path) is \(x), expected \(y)"]
        default:
            return actual == expected ? [] : ["\(path) is \(actual), expected \(expected)"]
        }
    }
}

struct DemoTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
