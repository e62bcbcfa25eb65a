import JSON
import Testing

/// Cases in the manner of Nicolas Seriot's JSONTestSuite: what RFC 8259 requires a parser to accept (y_) and to
/// refuse (n_).
@Suite struct JSONParserTests {
    @Test(
        "valid JSON texts are accepted",
        arguments: [
            "[]", "{}", "[null]", "[true, false]", "0", "-0", "[1e1]", "[1E+2]", "[-1.5e-3]", "[123e65]",
            #"["\u0060\u012a\u12AB"]"#, #"["\uD801\udc37"]"#, #"["\"\\\/\b\f\n\r\t"]"#, #"{"a":[],"b":{}}"#,
            " [1] ", "[\"é日本\"]", #"{"a":1,"a":2}"#, "[[[[[[[[[[1]]]]]]]]]]",
        ])
    func accepts(_ text: String) {
        #expect(throws: Never.self) { try JSONParser.parse(text) }
    }

    @Test(
        "invalid JSON texts are refused",
        arguments: [
            "", "[", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[+1]", "[NaN]", "[Infinity]", "[1e]",
            "['a']", "{a:1}", "[\"a\nb\"]", #"["\x"]"#, #"["\uZZZZ"]"#, "[1] x", "// c\n[1]", "[tru]", "{\"a\" 1}",
            "[\"\t\"]", String(repeating: "[", count: 100) + String(repeating: "]", count: 100),
        ])
    func refuses(_ text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(text) }
    }

    @Test("an error names the line and column where the text goes wrong")
    func errorPlace() {
        #expect {
            try JSONParser.parse("[1,\n  x]")
        } throws: { error in
            (error as? JSONSyntaxError).map { $0.line == 2 && $0.column == 3 } ?? false
        }
    }

    @Test(
        "an unexpected character is named as it reads, not as its first byte read as Latin-1",
        arguments: [
            (Array(#"{"a": é}"#.utf8), "unexpected character 'é'"),
            (Array("✓".utf8), "unexpected character '✓'"),
            (
                [0xEF, 0xBB, 0xBF] + Array("{}".utf8),
                "unexpected byte-order mark U+FEFF (save the file as UTF-8 without one)"
            ),
            ([0x01], "unexpected character 'U+0001'"),
            ([0xFF], "unexpected byte 0xFF, which is not UTF-8"),
        ])
    func unexpectedCharacterIsNamedAsItReads(bytes: [UInt8], message: String) {
        #expect {
            try JSONParser.parse(bytes)
        } throws: { error in
            (error as? JSONSyntaxError)?.message == message
        }
    }

    @Test("an object keeps its members in file order, and a later duplicate wins on lookup")
    func memberOrder() throws {
        let value = try JSONParser.parse(#"{"b": 1, "a": 2, "b": 3}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["b", "a", "b"])
        #expect(value["b"] == .number(3))
    }
}
