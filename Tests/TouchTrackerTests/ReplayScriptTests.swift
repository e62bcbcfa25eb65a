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
