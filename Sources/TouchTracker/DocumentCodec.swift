import TouchKit

/// Why a document could not be read. Every case describes itself in one line that says what to do.
public enum DocumentError: Error, Equatable, CustomStringConvertible {
    case empty
    case notJSON(detail: String)
    case notAnObject
    case missingField(String)
    case wrongType(field: String, expected: String)
    case unsupportedVersion(Int)
    case invalidCoordinate(field: String)
    case tooManyLines(Int, limit: Int)
    case tooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty: "the file is empty"
        case .notJSON(let detail): "not valid JSON (\(detail))"
        case .notAnObject: "the top level is not a JSON object with \"version\" and \"lines\""
        case .missingField(let field): "missing field \"\(field)\""
        case .wrongType(let field, let expected): "field \"\(field)\" should be \(expected)"
        case .unsupportedVersion(let version):
            "document version \(version) is not supported (this build reads version \(Drawing.formatVersion)); "
                + "open it with a newer TouchTracker"
        case .invalidCoordinate(let field):
            "coordinate \"\(field)\" is not a finite number within ±\(Int(DocumentCodec.coordinateLimit))"
        case .tooManyLines(let count, let limit): "\(count) lines is more than the \(limit) a document may hold"
        case .tooLarge(let bytes, let limit): "the file is \(bytes) bytes, more than the \(limit) allowed"
        }
    }
}

/// Reads and writes the document format of DESIGN.md §3. Reading is defensive: anything that is not exactly a
/// drawing is refused with a `DocumentError`, never half-loaded.
public enum DocumentCodec {
    /// Coordinates beyond this are refused: no screen is that large, and such values make renderers misbehave.
    public static let coordinateLimit = 1_000_000.0
    public static let maximumLineCount = 1_000_000
    public static let maximumFileSize = 256 * 1024 * 1024

    public static func decode(_ data: [UInt8]) throws(DocumentError) -> Drawing {
        if data.count > maximumFileSize { throw .tooLarge(bytes: data.count, limit: maximumFileSize) }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { throw .empty }
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw .notJSON(detail: error.description)
        }
        guard case .object = root else { throw .notAnObject }
        guard let versionValue = root["version"] else { throw .missingField("version") }
        guard case .number(let versionNumber) = versionValue, versionNumber == versionNumber.rounded(),
            abs(versionNumber) < 1e9
        else { throw .wrongType(field: "version", expected: "an integer") }
        let version = Int(versionNumber)
        guard version == Drawing.formatVersion else { throw .unsupportedVersion(version) }
        guard let linesValue = root["lines"] else { throw .missingField("lines") }
        guard case .array(let rawLines) = linesValue else { throw .wrongType(field: "lines", expected: "an array") }
        if rawLines.count > maximumLineCount { throw .tooManyLines(rawLines.count, limit: maximumLineCount) }
        var lines: [Line] = []
        lines.reserveCapacity(rawLines.count)
        for (index, rawLine) in rawLines.enumerated() {
            let field = "lines[\(index)]"
            guard case .object = rawLine else { throw .wrongType(field: field, expected: "an object") }
            lines.append(
                Line(
                    begin: try point(rawLine["begin"], field: "\(field).begin"),
                    end: try point(rawLine["end"], field: "\(field).end")))
        }
        return Drawing(lines: lines)
    }

    public static func encode(_ drawing: Drawing) -> [UInt8] {
        var text = "{\"version\": \(Drawing.formatVersion), \"lines\": ["
        text.reserveCapacity(64 + drawing.lines.count * 72)
        for (index, line) in drawing.lines.enumerated() {
            if index > 0 { text += "," }
            text += "\n  {\"begin\": {\"x\": \(number(line.begin.x)), \"y\": \(number(line.begin.y))}, "
            text += "\"end\": {\"x\": \(number(line.end.x)), \"y\": \(number(line.end.y))}}"
        }
        text += drawing.lines.isEmpty ? "]}\n" : "\n]}\n"
        return Array(text.utf8)
    }

    private static func point(_ value: JSONValue?, field: String) throws(DocumentError) -> Point {
        guard let value else { throw .missingField(field) }
        guard case .object = value else { throw .wrongType(field: field, expected: "an object") }
        return Point(
            x: try coordinate(value["x"], field: "\(field).x"), y: try coordinate(value["y"], field: "\(field).y"))
    }

    private static func coordinate(_ value: JSONValue?, field: String) throws(DocumentError) -> Double {
        guard let value else { throw .missingField(field) }
        guard case .number(let number) = value else { throw .wrongType(field: field, expected: "a number") }
        guard number.isFinite, abs(number) <= coordinateLimit else { throw .invalidCoordinate(field: field) }
        return number
    }

    /// Whole numbers print without a fraction; others with the shortest representation that reads back exactly.
    private static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
