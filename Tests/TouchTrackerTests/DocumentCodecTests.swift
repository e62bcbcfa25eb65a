import SeededRandom
import Testing
import TouchKit
import TouchTracker

@Suite struct DocumentCodecTests {
    func decode(_ text: String) throws(DocumentError) -> Drawing {
        try DocumentCodec.decode(Array(text.utf8))
    }

    @Test("the documented example reads as one line")
    func readsExample() throws {
        let drawing = try decode(
            #"{"version": 1, "lines": [{"begin": {"x": 10, "y": 20}, "end": {"x": 300, "y": 40}}]}"#)
        #expect(drawing.lines == [Line(begin: Point(x: 10, y: 20), end: Point(x: 300, y: 40))])
    }

    @Test("a drawing survives a write and a read exactly")
    func roundTrip() throws {
        let drawing = Drawing(lines: [
            Line(begin: Point(x: 1.5, y: -2.25), end: Point(x: 1e5, y: 0.1)),
            Line(begin: Point(x: 0, y: 0), end: Point(x: 799, y: 599)),
        ])
        #expect(try DocumentCodec.decode(DocumentCodec.encode(drawing)) == drawing)
    }

    @Test("a fractional coordinate is written as Swift's shortest text for it, which reads back exactly")
    func fractionalCoordinatesAreShortest() throws {
        var random = SplitMix64(seed: 5)
        for _ in 0..<2_000 {
            let x = Double(random.next() % 2_000_000) / 1000 + Double(random.next() % 1000) / 7
            let drawing = Drawing(lines: [Line(begin: Point(x: x, y: -x), end: Point(x: 1, y: 2))])
            let text = String(decoding: DocumentCodec.encode(drawing), as: UTF8.self)
            #expect(text.contains("{\"x\": \(x), \"y\": \(-x)}"), "\(text)")
            #expect(try DocumentCodec.decode(DocumentCodec.encode(drawing)) == drawing)
        }
    }

    /// Lines at fractional places, some coloured or wider, and circles: every field the codec writes.
    static func varied(lines count: Int, circles: Int) -> Drawing {
        var random = SplitMix64(seed: UInt64(count))
        func coordinate() -> Double { Double(random.next() % 2_000_000) / 997 }
        let lines = (0..<count).map { index in
            Line(
                begin: Point(x: coordinate(), y: coordinate()), end: Point(x: coordinate(), y: coordinate()),
                color: index % 3 == 0 ? .blue : nil, width: index % 4 == 0 ? 17.5 : nil)
        }
        let shapes = (0..<circles).map { _ in
            Circle(frame: Rect(x: coordinate(), y: coordinate(), width: 40, height: 30), color: .red)
        }
        return Drawing(lines: lines, circles: shapes)
    }

    @Test(
        "a drawing encoded in batches, whatever order the batches run in, is the same text as encoded in one go",
        arguments: [(0, 0), (1, 0), (511, 0), (512, 1), (513, 3), (7_000, 1_030)])
    func batchedEncodingIsTheSameText(lines: Int, circles: Int) {
        let drawing = Self.varied(lines: lines, circles: circles)
        var batched: [UInt8] = []
        DocumentCodec.encode(
            drawing, batchesAtOnce: 3,
            encodeBatches: { jobs in
                // Run last to first, as threads may finish, and hand the texts back in the jobs' order.
                var texts = [[UInt8]](repeating: [], count: jobs.count)
                for index in jobs.indices.reversed() { texts[index] = jobs[index]() }
                return texts
            }
        ) { (chunk: [UInt8]) in batched += chunk }
        #expect(batched == DocumentCodec.encode(drawing))
    }

    @Test("unknown fields are ignored")
    func unknownFieldsIgnored() throws {
        let drawing = try decode(
            #"{"version": 1, "app": "x", "lines": [{"begin": {"x": 1, "y": 2, "z": 3}, "end": {"x": 3, "y": 4}, "colour": "red"}]}"#
        )
        #expect(drawing.lines.count == 1)
    }

    @Test(
        "malformed documents are refused with the reason",
        arguments: [
            ("", DocumentError.empty),
            ("[]", .notAnObject),
            (#"{"lines": []}"#, .missingField("version")),
            (#"{"version": 2, "lines": []}"#, .unsupportedVersion(2)),
            (#"{"version": "1", "lines": []}"#, .wrongType(field: "version", expected: "an integer")),
            (#"{"version": 1}"#, .missingField("lines")),
            (#"{"version": 1, "lines": {}}"#, .wrongType(field: "lines", expected: "an array")),
            (#"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}}]}"#, .missingField("lines[0].end")),
            (
                #"{"version": 1, "lines": [{"begin": {"x": "1", "y": 2}, "end": {"x": 1, "y": 2}}]}"#,
                .wrongType(field: "lines[0].begin.x", expected: "a number")
            ),
            (
                #"{"version": 1, "lines": [{"begin": {"x": 1e300, "y": 2}, "end": {"x": 1, "y": 2}}]}"#,
                .invalidCoordinate(field: "lines[0].begin.x")
            ),
            (
                #"{"version": 1, "lines": [{"begin": {"x": true, "y": 2}, "end": {"x": 1, "y": 2}}]}"#,
                .wrongType(field: "lines[0].begin.x", expected: "a number")
            ),
        ])
    func refusesMalformed(text: String, expected: DocumentError) {
        #expect(throws: expected) { try decode(text) }
    }

    @Test(
        "NaN, truncated JSON and plain text are not JSON",
        arguments: ["{\"version\": NaN}", "{\"version\": 1, \"li", "hello"])
    func notJSON(text: String) {
        #expect {
            try decode(text)
        } throws: { error in
            if case .notJSON = error as? DocumentError { return true }
            return false
        }
    }

    @Test(
        "a version below 1 is called no TouchTracker version, not one a newer TouchTracker opens", arguments: [0, -1])
    func versionBelowOneIsNotCalledNewer(version: Int) {
        let said = DocumentError.unsupportedVersion(version).description
        #expect(said.contains("is not a TouchTracker version") && !said.contains("newer"), "\(said)")
    }

    @Test("every error reads as one line")
    func oneLineErrors() {
        let errors: [DocumentError] = [
            .empty, .notJSON(detail: "x"), .notAnObject, .missingField("a"), .unsupportedVersion(9),
            .invalidCoordinate(field: "f"), .tooManyLines(2, limit: 1), .tooLarge(bytes: 2, limit: 1),
        ]
        for error in errors { #expect(!error.description.contains("\n")) }
    }
}
