import Foundation
import Testing
import TouchKit
import TouchTracker

/// Replay scenarios (DESIGN.md §2 and §3): each `Scenarios/<name>.jsonl` script runs through the app's own
/// recognizers and controller on a virtual clock, optionally from `<name>.document.json`, and the final state
/// snapshot must equal `<name>.expected.json` byte for byte.
///
/// The expected files were written by hand from the behaviour contract, not recorded. To re-record after an
/// intended change, run with `RECORD_SCENARIOS=1`: the expected files are rewritten and every scenario fails, saying
/// so, until the run is repeated without it. Read every rewritten file against the contract before committing it.
@Suite struct ScenarioTests {
    /// Where the scenarios live, found from this file so the tests run from any working directory.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Scenarios")

    static let scriptSuffix = ".jsonl"
    static let expectedSuffix = ".expected.json"
    static let documentSuffix = ".document.json"
    static let minimumCount = 45

    /// Scenarios left out of the run, with why. A scenario that fails because of a TouchKit bug stays in the folder
    /// expecting the correct behaviour and is listed here with a one-line reason until TouchKit is fixed.
    static let excluded: [String: String] = [:]

    /// Every scenario in the folder (file names without `.jsonl`), sorted.
    static var allNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0.hasSuffix(scriptSuffix) }.map { String($0.dropLast(scriptSuffix.count)) }.sorted()
    }

    /// The scenarios that run.
    static var names: [String] { allNames.filter { excluded[$0] == nil } }

    static var isRecording: Bool { ProcessInfo.processInfo.environment["RECORD_SCENARIOS"] == "1" }

    static func path(_ name: String, _ suffix: String) -> String {
        folder.appendingPathComponent(name + suffix).path
    }

    static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ScenarioError("cannot read \(path)")
        }
        return [UInt8](data)
    }

    /// Runs the scenario and returns the snapshot text, as `touchtracker replay --state` writes it.
    static func run(_ name: String) throws -> String {
        let script = String(decoding: try read(path(name, scriptSuffix)), as: UTF8.self)
        let events = try ReplayScript.parse(script)
        var drawing = Drawing()
        let documentPath = path(name, documentSuffix)
        if FileManager.default.fileExists(atPath: documentPath) {
            drawing = try DocumentCodec.decode(try read(documentPath))
        }
        let controller = DrawingController(size: Size(width: 800, height: 600), drawing: drawing)
        ReplayRunner.run(events, on: controller)
        return String(decoding: controller.snapshot.encoded(), as: UTF8.self)
    }

    @Test("the replay ends in the expected state", arguments: names)
    func scenario(_ name: String) throws {
        let actual = try Self.run(name)
        let expectedPath = Self.path(name, Self.expectedSuffix)
        if Self.isRecording {
            try Data(actual.utf8).write(to: URL(fileURLWithPath: expectedPath))
            Issue.record(
                """
                Recorded \(name)\(Self.expectedSuffix). Check it against DESIGN.md §2, then run again without \
                RECORD_SCENARIOS.
                """)
            return
        }
        let expected = String(decoding: try Self.read(expectedPath), as: UTF8.self)
        #expect(actual == expected, "scenario \(name)")
    }

    @Test("the folder holds enough scenarios, each with an expected snapshot")
    func folderIsComplete() throws {
        let names = Self.allNames
        #expect(names.count >= Self.minimumCount, "only \(names.count) scenarios in \(Self.folder.path)")
        for name in names {
            #expect(
                FileManager.default.fileExists(atPath: Self.path(name, Self.expectedSuffix)),
                "\(name)\(Self.scriptSuffix) has no \(name)\(Self.expectedSuffix)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        for file in files where file.hasSuffix(Self.expectedSuffix) || file.hasSuffix(Self.documentSuffix) {
            let name =
                file.hasSuffix(Self.expectedSuffix)
                ? String(file.dropLast(Self.expectedSuffix.count)) : String(file.dropLast(Self.documentSuffix.count))
            #expect(names.contains(name), "\(file) belongs to no script")
        }
        for name in Self.excluded.keys {
            #expect(names.contains(name), "the excluded scenario \(name) does not exist")
        }
    }
}

struct ScenarioError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
