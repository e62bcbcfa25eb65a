import Testing
import TouchTrackerSession
import TouchTrackerStore

/// A drop's `text/uri-list` (RFC 2483): which drawings open, and a line for each thing refused.
@Suite struct DroppedFilesTests {
    @Test("comments, blank lines and CRLF or LF line ends: only the URIs are read")
    func readsLines() {
        let list = "# from a file manager\r\nfile:///a.touchtracker\r\n\r\n  file:///b.json  \nfile:///c.json"
        #expect(UriList.uris(in: Array(list.utf8)) == ["file:///a.touchtracker", "file:///b.json", "file:///c.json"])
    }

    @Test(
        "a file URI of this computer is its path, percent-decoded to bytes",
        arguments: [
            ("file:///home/me/a.touchtracker", "/home/me/a.touchtracker"),
            ("file://localhost/home/me/a.json", "/home/me/a.json"),
            ("FILE://THISHOST/x.json", "/x.json"),
            ("file:/old/style.json", "/old/style.json"),
            ("file:///my%20sketch%23%3F.touchtracker", "/my sketch#?.touchtracker"),
            ("file:///caf%C3%A9.json", "/café.json"),
            ("file:///q.json?x=1#frag", "/q.json"),
        ])
    func localPaths(uri: String, path: String) {
        #expect(UriList.path(ofFileURI: uri, hostName: "thishost") == .success(path))
    }

    @Test("a byte that is not UTF-8 stays that byte")
    func rawBytes() throws {
        let path = try UriList.path(ofFileURI: "file:///caf%E9.json", hostName: "h").get()
        #expect(PathText.bytes(path) == Array("/caf".utf8) + [0xE9] + Array(".json".utf8))
    }

    @Test(
        "other schemes, other computers and malformed URIs are refused",
        arguments: [
            ("https://example.com/a.json", UriList.Refusal.notAFile),
            ("smb://server/share/a.json", .notAFile),
            ("file://elsewhere/a.json", .otherComputer(host: "elsewhere")),
            ("file:///bad%zz.json", .malformed),
            ("file:///cut%4", .malformed),
            ("file:///nul%00.json", .malformed),
            ("file:relative.json", .malformed),
        ])
    func refused(uri: String, refusal: UriList.Refusal) {
        #expect(UriList.path(ofFileURI: uri, hostName: "thishost") == .failure(refusal))
    }

    @Test("drawings open each once, in order; everything else is one line each")
    func sortsADrop() {
        let list = """
            file:///d/one.touchtracker\r
            file:///d/photo.png\r
            https://example.com/x.json\r
            file://elsewhere/d/two.json\r
            file:///d/TWO.JSON\r
            file:///d/one.touchtracker\r

            """
        let dropped = DroppedFiles(uriList: Array(list.utf8), hostName: "here")
        #expect(dropped.drawings == ["/d/one.touchtracker", "/d/TWO.JSON"])
        #expect(
            dropped.refusals == [
                "dropped /d/photo.png is not a drawing (a .touchtracker or .json file); not opened",
                "dropped https://example.com/x.json is not a file; only drawings on this computer open",
                "dropped file://elsewhere/d/two.json is on another computer (elsewhere); only drawings on this "
                    + "computer open",
            ])
    }

    @Test("a drop of more than 16 drawings opens the first 16 and says so")
    func limit() {
        let list = (1...20).map { "file:///d/\($0).json\r\n" }.joined()
        let dropped = DroppedFiles(uriList: Array(list.utf8), hostName: "here")
        #expect(dropped.drawings.count == 16)
        #expect(dropped.drawings.last == "/d/16.json")
        #expect(dropped.refusals == ["20 drawings dropped at once; the first 16 open, the others do not"])
    }

    @Test("a control character in a refused URI is shown as ?, so the line stays one line")
    func oneLine() {
        let dropped = DroppedFiles(uriList: Array("https://x/\u{1B}[2J.json\r\n".utf8), hostName: "here")
        #expect(dropped.refusals == ["dropped https://x/?[2J.json is not a file; only drawings on this computer open"])
    }
}
