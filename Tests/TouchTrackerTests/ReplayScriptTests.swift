import Testing
import TouchTracker

@Suite struct ReplayScriptLineEndingTests {
    @Test("a script with CRLF line endings reads like one with LF endings")
    func crlfScript() throws {
        let lf = "{\"t\": 0, \"id\": 1, \"phase\": \"began\", \"x\": 1, \"y\": 2}\n{\"t\": 1, \"key\": \"Escape\"}\n"
        let crlf = lf.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try ReplayScript.parse(crlf) == ReplayScript.parse(lf))
    }

    @Test("errors in a CRLF script name the right line")
    func crlfLineNumbers() {
        let script = "{\"t\": 0, \"key\": \"Escape\"}\r\n\r\n{\"t\": 1}\r\n"
        #expect(throws: ReplayScriptError.self) { try ReplayScript.parse(script) }
        do {
            _ = try ReplayScript.parse(script)
        } catch {
            #expect(error.line == 3)
        }
    }
}

/// Key names a script gives are checked against the keysyms the command line knows (Xlib's table there).
@Suite struct ReplayScriptKeyNameTests {
    /// A stand-in for Xlib's table, with the few names these tests use (the real table is checked end to end).
    static func isKeyName(_ name: String) -> Bool { ["space", "Delete", "z"].contains(name) }

    @Test("a key whose name is a keysym only in another case is refused, naming the keysym meant")
    func wrongCaseIsRefusedWithTheName() {
        #expect {
            try ReplayScript.parse(#"{"t": 0, "key": "Space"}"#, isKeyName: Self.isKeyName)
        } throws: { error in
            (error as? ReplayScriptError)?.description
                == #"line 1: "Space" is not an X keysym name (names are case-sensitive: "space")"#
        }
    }

    @Test("a key that is no keysym at all is refused, with modifiers or without")
    func unknownKeyIsRefused() {
        #expect(throws: ReplayScriptError.self) {
            try ReplayScript.parse(#"{"t": 0, "key": "ctrl+nosuchkey"}"#, isKeyName: Self.isKeyName)
        }
    }

    @Test("a known key with modifiers parses")
    func knownKeyParses() throws {
        let events = try ReplayScript.parse(#"{"t": 0, "key": "ctrl+z"}"#, isKeyName: Self.isKeyName)
        #expect(events.map(\.event) == [.key(KeyCommand(key: "z", control: true))])
    }
}

/// A script's lines: one event each, ended by LF or CRLF only (JSON Lines).
@Suite struct ReplayScriptLineTests {
    @Test("a line naming two events (a touch and a key) is refused, not taken as one of them")
    func lineWithTwoEventsIsRefused() {
        #expect {
            try ReplayScript.parse(#"{"t": 0, "id": 1, "phase": "began", "x": 1, "y": 2, "key": "z"}"#)
        } throws: { error in
            (error as? ReplayScriptError)?.description
                == #"line 1: a line is one event, and this one has "key" and "id"; put each on a line of its own"#
        }
    }

    @Test("a form feed is no line break: an error after it names the line a text editor shows")
    func formFeedIsNoLineBreak() {
        #expect {
            try ReplayScript.parse("{\"t\": 0, \"key\": \"z\"}\n\u{0C}\n{\"t\": 1,")
        } throws: { error in
            (error as? ReplayScriptError)?.line == 3
        }
    }

    @Test("U+2028 inside a string does not split the line")
    func lineSeparatorInAStringIsKept() throws {
        let events = try ReplayScript.parse("{\"t\": 0, \"menu\": \"a\u{2028}b\"}")
        #expect(events.map(\.event) == [.menu("a\u{2028}b")])
    }
}
