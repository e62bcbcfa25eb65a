import TouchTrackerStore

/// `text/uri-list` (RFC 2483), what a file manager's drag carries: one URI a line, lines ending in CRLF (a bare LF
/// is taken too, as some programs send it), `#` comment lines and blank lines skipped. Only `file:` URIs name files
/// here; their paths are percent-decoded to bytes (`PathText`), since a Linux name is bytes, not text.
public enum UriList {
    /// The URIs in `bytes`, in order, surrounding blanks trimmed.
    public static func uris(in bytes: [UInt8]) -> [String] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).compactMap { line in
            let text = String(decoding: line, as: UTF8.self).trimmingBlanks
            return text.isEmpty || text.hasPrefix("#") ? nil : text
        }
    }

    /// Why a URI names no file of this computer's.
    public enum Refusal: Error, Equatable {
        /// Another scheme (`https:`, `smb:`): not a file.
        case notAFile
        /// A `file:` URI of another computer.
        case otherComputer(host: String)
        /// A `%` not followed by two hex digits, a NUL byte, or a path that is not absolute.
        case malformed
    }

    /// The path (as `PathText`) a `file:` URI names on this computer: `file:///PATH`, `file://localhost/PATH`,
    /// `file://HOST/PATH` where HOST is `hostName` (either case), or `file:/PATH`.
    public static func path(ofFileURI uri: String, hostName: String) -> Result<String, Refusal> {
        var rest = Substring(uri)
        guard rest.count >= 5, rest.prefix(5).lowercased() == "file:" else { return .failure(.notAFile) }
        rest = rest.dropFirst(5)
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let host = rest.prefix { $0 != "/" }
            rest = rest.dropFirst(host.count)
            let name = host.lowercased()
            guard name.isEmpty || name == "localhost" || name == hostName.lowercased() else {
                return .failure(.otherComputer(host: String(host)))
            }
        }
        // A query or fragment is not part of a file's path.
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        guard rest.hasPrefix("/"), let bytes = percentDecoded(Array(rest.utf8)), !bytes.contains(0) else {
            return .failure(.malformed)
        }
        return .success(PathText.decode(bytes))
    }

    /// `bytes` with each `%XX` made the byte XX; nil when a `%` is not followed by two hex digits.
    static func percentDecoded(_ bytes: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else { return nil }
            result.append(high << 4 | low)
            index += 3
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension String {
    /// Without the spaces, tabs and carriage returns around it.
    fileprivate var trimmingBlanks: String {
        let blanks: Set<Character> = [" ", "\t", "\r", "\r\n"]
        var text = Substring(self)
        while let first = text.first, blanks.contains(first) { text = text.dropFirst() }
        while let last = text.last, blanks.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
