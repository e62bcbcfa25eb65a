import Foundation
import SeededRandom
import Testing
import TouchKit

@testable import TouchTracker

/// The streaming reader must answer only where the tree decoder accepts, with exactly its drawing (bit for bit:
/// -0 stays -0), and `DocumentCodec.decode` must give exactly what the tree decoder gives, errors included.
@Suite struct DocumentReaderTests {
    typealias Outcome = Result<Drawing, DocumentError>

    static func outcome(_ body: () throws(DocumentError) -> Drawing) -> Outcome {
        do {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    /// Every number of the drawing by its bits, so 0 and -0 differ.
    static func bits(_ drawing: Drawing) -> [UInt64] {
        var values: [Double] = []
        for line in drawing.lines {
            values += [line.begin.x, line.begin.y, line.end.x, line.end.y, line.width ?? .nan]
        }
        for circle in drawing.circles {
            values += [circle.frame.minX, circle.frame.minY, circle.frame.width, circle.frame.height]
            values.append(circle.width ?? .nan)
        }
        return values.map(\.bitPattern)
    }

    static func same(_ a: Outcome, _ b: Outcome) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y && bits(x) == bits(y)
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }

    /// Checks the three ways agree; returns whether the streaming reader answered.
    @discardableResult
    static func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let tree = outcome { () throws(DocumentError) in try DocumentCodec.decodeTree(bytes) }
        let decoded = outcome { () throws(DocumentError) in try DocumentCodec.decode(bytes) }
        let text = String(decoding: bytes.prefix(400), as: UTF8.self)
        #expect(same(tree, decoded), "decode \(decoded) ≠ tree \(tree) for \(text)", sourceLocation: sourceLocation)
        guard let streamed = DocumentReader.read(bytes) else { return false }
        #expect(
            same(.success(streamed), tree), "streamed \(streamed) ≠ tree \(tree) for \(text)",
            sourceLocation: sourceLocation)
        return true
    }

    static func randomDrawing(_ random: inout SplitMix64, lines: Int) -> Drawing {
        func coordinate() -> Double {
            switch random.next() % 6 {
            case 0: Double(Int(random.next() % 4000)) - 2000
            case 1: Double.random(in: -1e6...1e6, using: &random)
            case 2: Double.random(in: -1...1, using: &random) * 1e-9
            case 3: [0.0, -0.0, 1e6, -1e6, 0.5, 1e-300][Int(random.next() % 6)]
            default: Double.random(in: 0..<1920, using: &random)
            }
        }
        func point() -> Point { Point(x: coordinate(), y: coordinate()) }
        func color() -> LineColor? {
            random.next() % 3 == 0
                ? LineColor(red: UInt8(random.next() % 256), green: UInt8(random.next() % 256), blue: 7) : nil
        }
        func width() -> Double? { random.next() % 3 == 0 ? Double.random(in: 0.5...1000, using: &random) : nil }
        let circleCount = random.next() % 3 == 0 ? Int(random.next() % 4) : 0
        return Drawing(
            lines: (0..<lines).map { _ in Line(begin: point(), end: point(), color: color(), width: width()) },
            circles: (0..<circleCount).map { _ in
                Circle(corner: point(), opposite: point(), color: color(), width: width())
            },
            options: DrawingOptions(
                circles: random.next() % 2 == 0, colorByAngle: random.next() % 4 == 0,
                widthBySpeed: random.next() % 4 == 0, widthByPressure: random.next() % 4 == 0,
                color: color() ?? .black))
    }

    @Test("documents as the app writes them are read by the streaming reader, exactly as the tree reads them")
    func encodedDocuments() {
        var random = SplitMix64(seed: 21)
        for round in 0..<300 {
            let drawing = Self.randomDrawing(&random, lines: round % 10 == 0 ? 0 : Int(random.next() % 40))
            let bytes = DocumentCodec.encode(drawing)
            #expect(Self.expectAgreement(bytes), "the streaming reader gave up on the encoder's own output")
        }
    }

    /// Writes a drawing's content as valid but unusual JSON: members in any order, any whitespace, numbers in
    /// other spellings, and (each sometimes) escaped keys, unknown fields, duplicate keys and upper-case colours.
    struct OddWriter {
        var random: SplitMix64

        mutating func chance(_ one: UInt64) -> Bool { random.next() % one == 0 }

        mutating func space() -> String {
            ["", "", " ", "\n", "\t", "\r\n", "  \n    "][Int(random.next() % 7)]
        }

        mutating func number(_ value: Double) -> String {
            switch random.next() % 8 {
            case 0: return String(format: "%.17e", value)
            case 1: return String(format: "%.17g", value)
            case 2: return String(format: "%.3E", value)
            case 3: return value == value.rounded() && abs(value) < 1e15 ? "\(Int64(value))e0" : "\(value)"
            case 4: return value == 0 ? (value.sign == .minus ? "-0.0e+5" : "0E-3") : "\(value)"
            default: return "\(value)"
            }
        }

        mutating func key(_ name: String) -> String {
            guard chance(40) else { return "\"\(name)\"" }
            // The same key with its first letter escaped: the tree parser reads it as the same key.
            let first = name.unicodeScalars.first!.value
            return "\"\\u\(String(format: "%04x", first))\(name.dropFirst())\""
        }

        mutating func unknownValue() -> String {
            [
                "null", "true", "[1, {\"a\": [false]}]", "\"say \\\"hi\\\"\"", "{}", "-12.5e-3", "\"café\"",
                "\"\\ud83d\\ude00\"", "[]",
            ][Int(random.next() % 9)]
        }

        mutating func object(_ members: [(String, String)]) -> String {
            var members = members
            if chance(10) { members.append(("extra\(random.next() % 3)", unknownValue())) }
            if chance(30), let member = members.randomElement(using: &random) {
                // A duplicate: the later one wins, whichever it is.
                let bad = (member.0, chance(2) ? "\"bad\"" : member.1)
                if chance(2) { members.insert(bad, at: 0) } else { members.append(bad) }
            }
            if chance(2) { members.shuffle(using: &random) }
            let body = members.map { "\(space())\(key($0.0))\(space()):\(space())\($0.1)\(space())" }
            return "{" + (body.isEmpty ? space() : body.joined(separator: ",")) + "}"
        }

        mutating func point(_ point: Point, _ x: String = "x", _ y: String = "y") -> String {
            object([(x, number(point.x)), (y, number(point.y))])
        }

        mutating func style(_ color: LineColor?, _ width: Double?) -> [(String, String)] {
            var members: [(String, String)] = []
            if let color { members.append(("color", "\"\(chance(4) ? color.hex.uppercased() : color.hex)\"")) }
            if let width { members.append(("width", number(width))) }
            return members
        }

        mutating func document(_ drawing: Drawing) -> String {
            var lines: [String] = []
            for line in drawing.lines {
                lines.append(
                    object(
                        [("begin", point(line.begin)), ("end", point(line.end))] + style(line.color, line.width)))
            }
            var members = [
                ("version", number(1)), ("lines", "[" + space() + lines.joined(separator: "," + space()) + "]"),
            ]
            if !drawing.circles.isEmpty {
                var circles: [String] = []
                for circle in drawing.circles {
                    let size = Point(x: circle.frame.width, y: circle.frame.height)
                    circles.append(
                        object(
                            [("origin", point(circle.frame.origin)), ("size", point(size, "width", "height"))]
                                + style(circle.color, circle.width)))
                }
                members.append(("circles", "[" + circles.joined(separator: ",") + "]"))
            }
            if chance(2) {
                let options = drawing.options
                members.append(
                    (
                        "options",
                        object([
                            ("circles", "\(options.circles)"), ("colorByAngle", "\(options.colorByAngle)"),
                            ("color", "\"\(options.color.hex)\""),
                        ])
                    ))
            }
            return space() + object(members) + space()
        }
    }

    @Test("5,000 unusual but valid documents: the streaming reader and the tree agree, or the reader gives up")
    func oddDocuments() {
        var random = SplitMix64(seed: 22)
        var writer = OddWriter(random: SplitMix64(seed: 23))
        var streamed = 0
        for _ in 0..<5_000 {
            let drawing = Self.randomDrawing(&random, lines: Int(random.next() % 6))
            if Self.expectAgreement(Array(writer.document(drawing).utf8)) { streamed += 1 }
        }
        // Most are read by the streaming reader, or this test would not be testing it.
        #expect(streamed > 1_000, "the streaming reader answered only \(streamed) of 5,000")
    }

    @Test("20,000 random mutations of a document with every field: the same drawing or the same error either way")
    func mutatedDocuments() {
        var random = SplitMix64(seed: 24)
        var writer = OddWriter(random: SplitMix64(seed: 25))
        let sources = [
            DocumentCodec.encode(Self.randomDrawing(&random, lines: 6)),
            Array(writer.document(Self.randomDrawing(&random, lines: 4)).utf8),
        ]
        let alphabet = Array(##"{}[]",:.-+eE0123456789 naNItrufl\#xyu"##.utf8) + [0, 0x09, 0x0A, 0xFF, 0xC3, 0xA9]
        var errors = 0
        for round in 0..<20_000 {
            var bytes = sources[round % sources.count]
            random.mutate(&bytes, edits: Int(random.next() % 3) + 1, alphabet: alphabet)
            Self.expectAgreement(bytes)
            if case .failure = Self.outcome({ () throws(DocumentError) in try DocumentCodec.decodeTree(bytes) }) {
                errors += 1
            }
        }
        #expect(errors > 2_000, "the mutations should often break the document")
    }

    @Test(
        "hand-picked edge cases agree",
        arguments: [
            ##"{"version": 1, "lines": []}"##,
            ##"{"lines": [], "version": 1}"##,
            ##"{"version": 1.0, "lines": []}"##,
            ##"{"version": 10e-1, "lines": []}"##,
            ##"{"version": 1, "version": 2, "lines": []}"##,
            ##"{"version": 2, "version": 1, "lines": []}"##,
            ##"{"version": 1, "lines": [], "lines": {}}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": -0, "y": -0.0}, "end": {"y": 1E2, "x": 0.5e-0}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2, "x": 3}, "end": {"x": 1, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": "a", "y": 2, "x": 3}, "end": {"x": 1, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "color": null}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "color": "#ABCDEF"}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "color": "#abcdeg"}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "color": "\u0023abcdef"}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "width": 0}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "width": 1000}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "width": 1000.0001}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1e6, "y": -1000000}, "end": {"x": 1000000.0000000001, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1e6, "y": 2}, "end": {"x": 1000000.000001, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 01, "y": 2}, "end": {"x": 1, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1., "y": 2}, "end": {"x": 1, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": .5, "y": 2}, "end": {"x": 1, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": +5, "y": 2}, "end": {"x": 1, "y": 2}}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2},}]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}},]}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}}]} x"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}}]}{}"##,
            ##"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "": 5}]}"##,
            ##"{"version": 1, "lines": [], "circles": [{"origin": {"x": 1, "y": 2}, "size": {"width": 3, "height": 0}}]}"##,
            ##"{"version": 1, "lines": [], "circles": [{"origin": {"x": 1, "y": 2}, "size": {"width": -3, "height": 0}}]}"##,
            ##"{"version": 1, "lines": [], "circles": []}"##,
            ##"{"version": 1, "lines": [], "circles": null}"##,
            ##"{"version": 1, "lines": [], "options": {"circles": true, "color": "#00ff00", "x": [1]}}"##,
            ##"{"version": 1, "lines": [], "options": {"circles": 1}}"##,
            ##"{"version": 1, "lines": [], "options": {"note": "naïve"}}"##,
            "{\"version\": 1, \"lines\": [], \"note\": \"tab\tinside\"}",
            "{\"version\": 1, \"lines\": [], \"k\u{1}\": 1}",
            "\u{FEFF}{\"version\": 1, \"lines\": []}",
            "{\"version\": 1, \"lines\": []}\u{0B}",
            "{\"version\": 1, \"lines\": []}\u{0}",
        ])
    func edgeCases(text: String) {
        Self.expectAgreement(Array(text.utf8))
    }

    @Test("unknown values nested up to and past the depth limit, at every level of the document")
    func nestingLimit() {
        for depth in 55...66 {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            for template in [
                #"{"version": 1, "n": NESTED, "lines": []}"#,
                #"{"version": 1, "lines": [{"n": NESTED, "begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}}]}"#,
                #"{"version": 1, "lines": [{"begin": {"n": NESTED, "x": 1, "y": 2}, "end": {"x": 1, "y": 2}}]}"#,
                #"{"version": 1, "lines": [], "options": {"n": NESTED}}"#,
            ] {
                Self.expectAgreement(Array(template.replacingOccurrences(of: "NESTED", with: nested).utf8))
            }
        }
    }

    @Test("not UTF-8 anywhere, even in an ignored field, is refused the same way")
    func notUTF8() {
        let start = Array(#"{"version": 1, "lines": [{"begin": {"x": 1, "y": 2}, "end": {"x": 1, "y": 2}, "#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC3, 0x28], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
            let bytes = start + Array(#""n": ""#.utf8) + bad + Array(#""}]}"#.utf8)
            Self.expectAgreement(bytes)
            #expect(throws: DocumentError.notJSON(detail: "the file is not UTF-8 text")) {
                try DocumentCodec.decode(bytes)
            }
        }
    }
}
