import JSON
import SeededRandom
import Testing

@Suite struct JSONWriterTests {
    private func text(_ value: JSONValue, _ layout: JSONWriter.Layout = .spaced) -> String {
        String(decoding: value.encoded(layout: layout), as: UTF8.self)
    }

    @Test("strings escape quotes, backslashes and control characters, and keep other text as it is")
    func escaping() {
        #expect(text(.string("a\"b\\c\nd\te\u{1}é日")) == #""a\"b\\c\nd\u0009e\u0001é日""#)
    }

    @Test("whole numbers have no fraction, others the shortest exact text, and non-finite numbers are null")
    func numbers() {
        #expect(
            text(.array([.number(3), .number(-0.0), .number(0.1), .number(-2.5), .number(1e20), .number(.nan)]))
                == "[3, 0, 0.1, -2.5, 1e+20, null]")
    }

    @Test("the three layouts")
    func layouts() {
        let value = JSONValue.object([("a", .number(1)), ("b", .array([.object([("c", .bool(true))])]))])
        #expect(text(value, .compact) == #"{"a":1,"b":[{"c":true}]}"#)
        #expect(text(value, .spaced) == #"{"a": 1, "b": [{"c": true}]}"#)
        #expect(text(value, .linePerMember) == "{\"a\": 1,\n \"b\": [\n  {\"c\": true}]}")
    }

    @Test("whatever is written reads back as the same value")
    func roundTrip() throws {
        var random = SplitMix64(seed: 16)
        func randomValue(depth: Int) -> JSONValue {
            switch random.next() % (depth > 3 ? 4 : 6) {
            case 0: return .null
            case 1: return .bool(random.next() & 1 == 0)
            case 2: return .number(Double(bitPattern: random.next() >> 2) * (random.next() & 1 == 0 ? 1 : -1))
            case 3:
                return .string(
                    String(decoding: (0..<(random.next() % 8)).map { _ in UInt8(random.next() % 128) }, as: UTF8.self))
            case 4: return .array((0..<(random.next() % 4)).map { _ in randomValue(depth: depth + 1) })
            default:
                return .object((0..<(random.next() % 4)).map { index in ("k\(index)", randomValue(depth: depth + 1)) })
            }
        }
        for _ in 0..<2000 {
            let value = randomValue(depth: 0)
            for layout in [JSONWriter.Layout.compact, .spaced, .linePerMember] {
                #expect(try JSONParser.parse(value.encoded(layout: layout)) == value)
            }
        }
    }
}
